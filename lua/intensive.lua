-- intensive.lua - the documents' intensive_computation, in the runner's Lua
-- tensor API.  The PyTorch original:
--
--   def intensive_computation(size, device):
--       result = 0
--       for _ in range(size):
--           x = torch.rand(1000, device=device)
--           result += torch.sum(x ** 2).item()
--       return result
--
-- Each iteration draws `length` uniform numbers, squares them, sums them and
-- brings the sum back as a Lua number.  Many small operations: on a GPU every
-- item() waits for the device, as the original's does, so this measures
-- launch and synchronisation costs more than arithmetic.  The built-in
-- `sumsq` workload does the same work fused in C (see experiments/intensive.yaml).
--
-- size: iterations per run (default 2000); length: numbers per iteration.

return {
  defaults = {size = 2000, length = 1000},
  size_means = "iterations",

  setup = function(ctx, p)
    return {result = 0}
  end,

  run = function(ctx, p, state)
    local result = 0
    local length = p.length
    for _ = 1, p.size do
      result = result + ctx:rand(length):pow(2):sum():item()
    end
    state.result = result
  end,

  -- The squares of U(0,1) numbers have mean 1/3 and variance 4/45: the mean
  -- of the last run's size * length squares must lie within 6 standard
  -- errors (plus f32 rounding) of 1/3.
  check = function(ctx, p, state)
    local count = p.size * p.length
    if count == 0 then return end
    local mean = state.result / count
    local tol = 6 * math.sqrt(4 / 45 / count) + 1e-6
    if math.abs(mean - 1 / 3) > tol then
      error(string.format("mean of the squares = %.6f, expected 1/3 +- %.2g", mean, tol))
    end
  end,

  -- a square and an add per number
  flops = function(p) return 2 * p.size * p.length end,
}
