return {
  before_trial = function(trial)
    os.execute("touch /tmp/runner-hook-escaped") -- line 3
  end,
}
