-- dispatch.lua - the cost of one tensor operation on a 1-element CPU tensor:
-- `size` operations per run, chained as eager code chains them (each makes a
-- new tensor).  op: sin (a unary method), add (two tensors), scalar (a
-- tensor and a number), item (sum():item(), two calls and a Lua number),
-- none (the bare Lua loop, for reference).
local ops = {
  sin = function(t, u, n) for _ = 1, n do t = t:sin() end return t end,
  add = function(t, u, n) for _ = 1, n do t = t + u end return t end,
  scalar = function(t, u, n) for _ = 1, n do t = t * 0.5 end return t end,
  item = function(t, u, n)
    local acc = 0
    for _ = 1, n do acc = acc + t:sum():item() end
    return t
  end,
  none = function(t, u, n) for _ = 1, n do t = t end return t end,
}

return {
  defaults = {size = 100000, op = "sin"},
  setup = function(ctx, p)
    local f = ops[p.op]
    if not f then error("unknown op '" .. tostring(p.op) .. "'") end
    return {f = f, t = ctx:rand(1), u = ctx:rand(1)}
  end,
  run = function(ctx, p, s)
    s.out = s.f(s.t, s.u, p.size)
  end,
}
