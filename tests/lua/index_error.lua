-- a workload table whose __index fails: aborted the process (PANIC)
return setmetatable({run = function() end}, {__index = function() error("x") end})
