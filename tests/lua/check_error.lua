return {
  run = function() end,
  check = function(ctx, p, s)
    error("the result is wrong") -- line 4
  end,
}
