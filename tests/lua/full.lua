-- Every optional function, with a state the run changes and check reads.
return {
  defaults = {size = 16},
  setup = function(ctx, p)
    return {x = ctx:rand(p.size), runs = 0}
  end,
  run = function(ctx, p, s)
    s.y = (s.x * 2):sum()
    s.runs = s.runs + 1
  end,
  check = function(ctx, p, s)
    local want = 0
    for _, v in ipairs(s.x:totable()) do want = want + 2 * v end
    if math.abs(s.y:item() - want) > 1e-4 then
      error(string.format("sum %g, want %g", s.y:item(), want))
    end
  end,
  teardown = function(ctx, p, s) s.x = nil end,
  flops = function(p) return 2 * p.size end,
  extras = function(ctx, p, s) return {runs = s.runs, note = "two words", half = 0.5} end,
}
