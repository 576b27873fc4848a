return {
  skip = function(trial)
    local i = 0
    while true do i = i + 1 end -- line 4
  end,
  after_trial = function(trial, r)
    -- a loop that tries to survive the limit by catching errors
    while true do
      pcall(function() while true do end end)
    end
  end,
}
