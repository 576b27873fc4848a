-- tensor_check.lua - the Lua tensor API on the trial's device, compared in
-- check() with the same operations on the CPU (make test-gpu).
return {
  defaults = {size = 100000},
  setup = function(ctx, p)
    return {x = ctx:rand(p.size), a = ctx:matrix(64, 48), b = ctx:matrix(48, 32)}
  end,
  run = function(ctx, p, s)
    s.y = ((s.x:sin() * 2 + 1):pow(2) - s.x / 3):exp():abs()
    s.total = s.y:sum():item()
    s.c = s.a:matmul(s.b)
    s.csum = s.c:sum():item()
  end,
  check = function(ctx, p, s)
    local x, a, b = s.x:to("cpu"), s.a:to("cpu"), s.b:to("cpu")
    local y = ((x:sin() * 2 + 1):pow(2) - x / 3):exp():abs()
    local want = y:sum():item()
    local cwant = a:matmul(b):sum():item()
    local function close(got, ref, what)
      if math.abs(got - ref) > 1e-4 * math.abs(ref) then
        error(string.format("%s: %s gives %.9g, the CPU %.9g", what, ctx.device, got, ref))
      end
    end
    close(s.total, want, "element-wise chain")
    close(s.csum, cwant, "matmul")
    -- the same draws on every device
    local first = s.x:totable()[1]
    if math.abs(first - x:totable()[1]) ~= 0 then error("rand differs after :to()") end
  end,
}
