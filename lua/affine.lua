-- affine.lua - one dense layer: y = W x + b, W an n x n matrix (n = size,
-- default 1000), x and b vectors of n, through ctx:matrix and matmul (a
-- matrix-vector product: the BLAS's sgemv on the CPU, cuBLAS on a GPU).
--
-- size: n (default 1000: W is 1000 x 1000, 2 * 1000 * 1000 flops per call).

-- Rows of W checked against a reference in double (spread over the matrix).
local CHECK_ROWS = 16

return {
  defaults = {size = 1000},
  size_means = "n of the n x n matrix W",

  setup = function(ctx, p)
    return {W = ctx:matrix(p.size, p.size), x = ctx:rand(p.size), b = ctx:rand(p.size)}
  end,

  run = function(ctx, p, s)
    s.y = s.W:matmul(s.x) + s.b
  end,

  check = function(ctx, p, s)
    local n = p.size
    local W = s.W:to("cpu"):totable()   -- row-major: W[(i - 1) * n + j]
    local x, b, y = s.x:totable(), s.b:totable(), s.y:totable()
    local step = math.max(1, n // CHECK_ROWS)
    for i = 1, n, step do
      local want = b[i]
      for j = 1, n do
        want = want + W[(i - 1) * n + j] * x[j]
      end
      -- f32 products summed in some order: a relative error of n ulps at most
      local tol = 1e-7 * n * math.abs(want) + 1e-6
      if math.abs(y[i] - want) > tol then
        error(string.format("y[%d] = %.9g, reference %.9g (tolerance %.2g)", i, y[i], want, tol))
      end
    end
  end,

  flops = function(p) return 2 * p.size * p.size end,
  bytes = function(p) return 4 * (p.size * p.size + 3 * p.size) end,
}
