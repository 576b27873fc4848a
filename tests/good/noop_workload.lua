-- A do-nothing Lua workload for the validation corpus (never run by the tests).
return {
  defaults = {size = 10, length = 3},
  setup = function(ctx, p) return nil end,
  run = function(ctx, p, state) end,
}
