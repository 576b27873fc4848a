-- linear_eq.lua - solves a batch of `size` linear equations a*x + b = 0,
-- element-wise: x = -b / a, as eager PyTorch would (two passes: negate, then
-- divide).  a is drawn in [1, 2) so that no equation is singular, b in [0, 1).
-- The Lua counterpart of the built-in `axpb` workload.
--
-- size: equations (default 1000000).

return {
  defaults = {size = 1000000},
  size_means = "equations",

  setup = function(ctx, p)
    return {a = ctx:rand(p.size) + 1, b = ctx:rand(p.size)}
  end,

  run = function(ctx, p, s)
    s.x = -s.b / s.a
  end,

  -- every residual a*x + b must vanish up to f32 rounding (|b| < 1, so a
  -- couple of ulps of 1)
  check = function(ctx, p, s)
    if p.size == 0 then return end
    local ss = (s.a * s.x + s.b):abs():pow(2):sum():item()
    local rms = math.sqrt(ss / p.size)
    if not (rms < 1e-6) then
      error(string.format("rms of a*x + b = %g over %d equations (want < 1e-6)", rms, p.size))
    end
  end,

  flops = function(p) return 2 * p.size end,          -- a negation and a division
  bytes = function(p) return 4 * 4 * p.size end,      -- read b, write -b, read -b and a, write x
}
