-- Every hook, well behaved.
local before = 0
return {
  skip = function(trial)
    if trial.size > 100 then return "size " .. trial.size .. " is too big" end
    if trial.flag == true then return true end
    return nil
  end,
  before_trial = function(trial)
    before = before + 1
  end,
  after_trial = function(trial, r)
    return {
      us = r.median * 1e6,
      label = trial.target,
      ok = r.status == "ok",
      n = trial.index,
      befores = before,
      third = 1 / 3,
      gflops_given = r.gflops ~= nil,
    }
  end,
}
