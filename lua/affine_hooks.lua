-- affine_hooks.lua - hooks of experiments/affine.yaml (SPEC section 5):
-- skip() leaves out trials with a reason, after_trial() adds columns to
-- trials.csv.

-- Below this n a GPU matrix-vector product is all launch overhead.
local GPU_MIN = 256

return {
  skip = function(trial)
    if trial.device ~= "cpu" and trial.size < GPU_MIN then
      return string.format("n = %d is launch-bound on a GPU (n < %d)", trial.size, GPU_MIN)
    end
  end,

  after_trial = function(trial, r)
    if not r.median then return nil end
    local n = trial.size
    return {
      us_per_call = r.median * 1e6,
      -- W streamed once per call: the memory bandwidth a matvec runs at
      w_gbps = 4 * n * n / r.median / 1e9,
    }
  end,
}
