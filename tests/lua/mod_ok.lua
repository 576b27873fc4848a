-- A module found by require("mod_ok") next to the experiment.
return {answer = 42}
