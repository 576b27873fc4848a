return {
  before_trial = function(trial)
    error("before_trial cannot start " .. trial.index) -- line 3
  end,
  after_trial = function(trial, r)
    return {bad = {1, 2}}
  end,
  skip = function(trial)
    return {}
  end,
}
