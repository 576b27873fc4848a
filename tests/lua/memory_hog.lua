-- grows without end (a new 1 MiB string each step): stopped by the memory
-- cap ("not enough memory")
local t, s = {}, ("x"):rep(1 << 20)
for i = 1, 1e9 do t[i] = s .. i end
return {run = function() end}
