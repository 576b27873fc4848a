-- The sandbox applies to a file's top level too.
local f = io.open("/etc/passwd")
return {run = function() end}
