-- A workload that does nothing; tests run their Lua through it.
return {
  defaults = {size = 7, length = 3, extra = "x"},
  run = function(ctx, p, state) end,
}
