-- a C function that backtracks for hours: the count hook cannot stop it,
-- the check's child process is killed at the time limit
string.find(("a"):rep(2000), "a-a-a-a-a-a-a-a-b")
return {}
