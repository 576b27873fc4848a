-- run() fails two calls deep, on line 4.
local function inner(n)
  if n > 0 then
    error("boom after " .. n .. " runs")
  end
end

return {
  setup = function(ctx, p) return {runs = 0} end,
  run = function(ctx, p, s)
    inner(s.runs)
    s.runs = s.runs + 1
  end,
}
