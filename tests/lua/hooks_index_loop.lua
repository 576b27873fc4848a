-- a hooks table whose __index never returns: hung the runner for ever
return setmetatable({}, {__index = function() while true do end end})
