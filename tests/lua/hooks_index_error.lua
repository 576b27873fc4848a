-- a hooks table whose __index fails: was "PANIC: unprotected error" (rc 134)
return setmetatable({}, {__index = function() error("x") end})
