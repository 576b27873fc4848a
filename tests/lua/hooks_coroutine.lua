-- Runaway code inside a coroutine is stopped too.
local co = coroutine.wrap(function()
  while true do coroutine.yield(1) end
end)
return {
  skip = function(trial)
    local inner = coroutine.wrap(function() while true do end end) -- line 7
    inner()
  end,
  before_trial = function(trial)
    co() -- a coroutine made at load time still answers
  end,
}
