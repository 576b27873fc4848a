-- 20,000 coroutine.close nested in __close handlers (Lua's bug report for
-- 5.4.4): overflowed the C stack (rc 139); now a Lua error at the limit
local coro = false
for _ = 1, 20000 do
  local previous = coro
  coro = coroutine.create(function()
    local cc <close> = setmetatable({}, {__close = function()
      if previous then assert(coroutine.close(previous)) end
    end})
    coroutine.yield()
  end)
  assert(coroutine.resume(coro))
end
assert(coroutine.close(coro))
return {run = function() end}
