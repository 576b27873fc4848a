-- bench/aa/work.lua - the Lua workload of bench/aa.sh: a plain loop of
-- floating-point work, `size` iterations times `scale` (scale 1.5 is the
-- real 1.5x slowdown bench/aa.sh must catch).
return {
  defaults = {size = 200000, scale = 1},

  setup = function(ctx, p)
    return {}
  end,

  run = function(ctx, p, state)
    local x = 0.5
    for i = 1, math.floor(p.size * p.scale) do
      x = x * 1.0000001 + 1e-9 * i
      if x > 2 then x = x - 1 end
    end
    state.x = x
  end,
}
