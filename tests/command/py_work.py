"""A workload for python/runner_workload.py that needs only the standard
library (tests/test_command.c): the sum of the squares of `size` numbers,
with a check and an extra column.  $PY_WORK_NEED names a module to need
(as the torch studies need torch); $PY_WORK_SPIN makes each call spin that
many seconds on the clock instead; $PY_WORK_FAIL=run or check raises
there."""
import os
import time

import runner_workload as rw

rw.need(os.environ.get("PY_WORK_NEED", "json"))
SPIN = float(os.environ.get("PY_WORK_SPIN", "0"))
FAIL = os.environ.get("PY_WORK_FAIL", "")  # "run" or "check": raise there


def setup(p):
    n = p["size"]
    return {"x": [i % 7 / 7.0 for i in range(n)], "sum": None}


def run(s, p):
    if SPIN:
        end = time.perf_counter() + SPIN
        while time.perf_counter() < end:
            pass
    s["sum"] = sum(v * v for v in s["x"])
    if FAIL == "run":
        raise RuntimeError("run broken on purpose")
    return s["sum"]


def check(s, p):
    if FAIL == "check":
        raise ValueError("check broken on purpose")
    want = sum((i % 7 / 7.0) ** 2 for i in range(p["size"]))
    if abs(s["sum"] - want) > 1e-9 * (1 + want):
        raise ValueError("sum %r, expected %r" % (s["sum"], want))
    return True


def extras(s, p):
    return {"py_sum": s["sum"]}


rw.serve(setup, run, check=check, extras=extras, flops=lambda p: 2 * p["size"])
