-- fuse_sin.lua - `depth` nested sin() over `size` elements in the Lua tensor
-- API: `mode: unfused` runs one tensor op per sin, as eager PyTorch does
-- (each reads and writes the whole array); `mode: fuse` runs the same
-- expression through ctx:fuse (doc/lua.md#fused-expressions): one pass on the
-- CPU, one NVRTC kernel on a GPU.  The built-in `nested_sin` with
-- `fused: true` is the hand-written kernel to compare with.
--
-- The fused function is made (and compiled for the trial's device) in
-- setup, untimed; its compile time is the `compile_seconds` column.
-- check: the result equals the unfused ops' exactly (the fused kernels make
-- the same operations, doc/lua.md#fused-expressions).

local function nested(depth)
  return function(x)
    local y = x
    for _ = 1, depth do y = y:sin() end
    return y
  end
end

-- the same, eagerly, each intermediate freed as soon as the next exists (as
-- PyTorch's reference counting frees it): its buffer serves the next op
local function unfused(x, depth)
  local y = x:sin()
  for _ = 2, depth do
    local prev <close> = y
    y = prev:sin()
  end
  return y
end

return {
  defaults = {size = 1 << 22, depth = 4, mode = "fuse"},
  size_means = "elements",

  setup = function(ctx, p)
    if p.mode ~= "fuse" and p.mode ~= "unfused" then
      error("mode must be fuse or unfused, not " .. tostring(p.mode))
    end
    local s = {x = ctx:rand(p.size), sin = nested(p.depth)}
    s.f = ctx:fuse(s.sin)
    return s
  end,

  run = function(ctx, p, s)
    do local old <close> = s.y end -- the last result's buffer serves this one
    s.y = nil
    if p.mode == "fuse" then
      s.y = s.f(s.x)
    else
      s.y = unfused(s.x, p.depth)
    end
  end,

  check = function(ctx, p, s)
    local other = p.mode == "fuse" and unfused(s.x, p.depth) or s.f(s.x)
    local diff = (s.y - other):abs():sum():item()
    if diff ~= 0 then
      error(("%s: differs from %s by %g in all"):format(p.mode,
        p.mode == "fuse" and "the unfused ops" or "ctx:fuse", diff))
    end
  end,

  flops = function(p) return p.size * p.depth end,
  -- bytes moved: unfused, a read and a write per sin; fused, one of each
  bytes = function(p) return 8 * p.size * (p.mode == "fuse" and 1 or p.depth) end,

  extras = function(ctx, p, s)
    return {compile_seconds = s.f:compile_seconds(), expression = s.f:expression()}
  end,
}
