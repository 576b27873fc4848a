return {
  run = function(ctx, p, state) local x = = 1 end,
}
