-- tensor_check.lua - the Lua tensor API on the trial's device, compared in
-- check() element by element with the same operations on the CPU (make
-- test-gpu).  Each operation is checked on its own: its device inputs are
-- copied with :to("cpu"), the CPU applies the same operation to them, and the
-- largest relative error over all elements, |got - want| / |want|, must stay
-- within that operation's tolerance:
--   + - * /, neg, abs  0      (IEEE, correctly rounded on both devices)
--   sin, exp, pow      1e-6   (a few ulps: CUDA's sinf/expf/powf, libmvec)
--   matmul             1e-5   (k = 48 positive products, any order)
--   sum                1e-5   (one number: f32 tree on CUDA, double on CPU)
--   the whole chain    1e-5   (exp amplifies its argument's error ~9x)
-- extras() writes the exact double sum of the rand draws and the sum of |randn|
-- so that run.sh can compare the CPU and the CUDA trial of one size.
local TOL = {sin = 1e-6, exp = 1e-6, pow = 1e-6, exact = 0, matmul = 1e-5, sum = 1e-5,
             chain = 1e-5}

-- the double sums of the draws, on the host (rand: exact, every draw is a
-- multiple of 2^-24 and the sum stays below 2^29)
local function cpu_sums(s)
  local xs, zs = 0, 0
  for _, e in ipairs(s.x:to("cpu"):totable()) do xs = xs + e end
  for _, e in ipairs(s.z:to("cpu"):totable()) do zs = zs + math.abs(e) end
  return xs, zs
end

return {
  defaults = {size = 100000},
  setup = function(ctx, p)
    return {x = ctx:rand(p.size), z = ctx:randn(p.size),
            a = ctx:matrix(64, 48), b = ctx:matrix(48, 32), v = ctx:rand(48)}
  end,
  run = function(ctx, p, s)
    -- the old chain, every intermediate kept
    s.sin = s.x:sin()
    s.mul = s.sin * 2
    s.add = s.mul + 1
    s.sq = s.add:pow(2)
    s.div = s.x / 3
    s.sub = s.sq - s.div
    s.exp = s.sub:exp()
    s.y = s.exp:abs()
    -- the rest of the API: tensor op tensor, a one-element tensor broadcast,
    -- a non-integer power (powf on CUDA, not x * x), neg, abs of negatives
    s.xz = s.x * s.z
    s.zdx = s.z / (s.x + 1)
    s.xsum = s.x:sum() -- kept: CUDA's sum may differ in the last bit from call to call
    s.bc = s.z - s.xsum
    s.p25 = (s.x + 0.5):pow(2.5)
    s.neg = -s.z
    s.absz = s.z:abs()
    s.c = s.a:matmul(s.b)
    s.mv = s.a:matmul(s.v)
    s.total = s.y:sum():item()
  end,
  check = function(ctx, p, s)
    local function cpu(t) return t:to("cpu") end
    -- the largest relative error of got (any device) against want (cpu)
    local function maxrel(got, want, tol, what)
      got = cpu(got)
      if got:device() ~= "cpu" or want:device() ~= "cpu" then error(what .. ": not on the cpu") end
      if #got ~= #want then error(string.format("%s: %d elements, want %d", what, #got, #want)) end
      local g, w = got:totable(), want:totable()
      local worst, at = 0, 0
      for i = 1, #w do
        local d = math.abs(g[i] - w[i])
        local r = d == 0 and 0 or d / math.abs(w[i])
        if r ~= r or r > worst then worst, at = r, i; if r ~= r then break end end
      end
      if not (worst <= tol) then
        error(string.format("%s on %s: element %d is %.9g, the CPU %.9g (max relative error %.3g > %g)",
                            what, ctx.device, at, g[at], w[at], worst, tol))
      end
      return worst
    end
    local x, z, a, b, v = cpu(s.x), cpu(s.z), cpu(s.a), cpu(s.b), cpu(s.v)
    local worst = {}
    worst.sin = maxrel(s.sin, x:sin(), TOL.sin, "sin")
    worst.mul = maxrel(s.mul, cpu(s.sin) * 2, TOL.exact, "t * 2")
    worst.add = maxrel(s.add, cpu(s.mul) + 1, TOL.exact, "t + 1")
    worst.pow2 = maxrel(s.sq, cpu(s.add):pow(2), TOL.pow, "pow(2)")
    worst.div = maxrel(s.div, x / 3, TOL.exact, "t / 3")
    worst.sub = maxrel(s.sub, cpu(s.sq) - cpu(s.div), TOL.exact, "t - t")
    worst.exp = maxrel(s.exp, cpu(s.sub):exp(), TOL.exp, "exp")
    worst.abs = maxrel(s.y, cpu(s.exp):abs(), TOL.exact, "abs")
    worst.xz = maxrel(s.xz, x * z, TOL.exact, "t * t")
    worst.zdx = maxrel(s.zdx, z / cpu(s.x + 1), TOL.exact, "t / t")
    worst.bc = maxrel(s.bc, z - cpu(s.xsum), TOL.exact, "t - one-element t")
    worst.pow25 = maxrel(s.p25, cpu(s.x + 0.5):pow(2.5), TOL.pow, "pow(2.5)")
    worst.neg = maxrel(s.neg, -z, TOL.exact, "neg")
    worst.absz = maxrel(s.absz, z:abs(), TOL.exact, "abs of randn")
    worst.matmul = maxrel(s.c, a:matmul(b), TOL.matmul, "matmul 64x48 48x32")
    worst.matvec = maxrel(s.mv, a:matmul(v), TOL.matmul, "matmul 64x48 48")
    worst.chain = maxrel(s.y, ((x:sin() * 2 + 1):pow(2) - x / 3):exp():abs(), TOL.chain,
                         "element-wise chain")
    local want = cpu(s.y):sum():item()
    if not (math.abs(s.total - want) <= TOL.sum * math.abs(want)) then
      error(string.format("sum on %s gives %.9g, the CPU %.9g", ctx.device, s.total, want))
    end
    s.worst = worst
  end,
  extras = function(ctx, p, s)
    local xs, zs = cpu_sums(s)
    local w = s.worst or {}
    local t = {rand_sum = string.format("%.17g", xs), randn_abs_sum = string.format("%.17g", zs)}
    for k, e in pairs(w) do t["err_" .. k] = string.format("%.3g", e) end
    return t
  end,
}
