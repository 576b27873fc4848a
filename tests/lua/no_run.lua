return {
  setup = function(ctx, p) end,
}
