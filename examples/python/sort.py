"""sort.py - a standard-library function on the runner's charts: Python's
sorted() over `size` random floats, run persistent.  No package beyond
Python 3.8 is needed.  sort.yaml, beside it, sweeps it:

    ./bin/runner examples/python/sort.yaml

Started by hand it says how it is meant to be run:

    PYTHONPATH=python python3 examples/python/sort.py
"""
import random

import runner_workload as rw


def setup(p):
    """Untimed, once per trial: `size` random floats, the same every run."""
    rng = random.Random(1)
    return {"x": [rng.random() for _ in range(p["size"])], "y": None}


def run(s, p):
    """One timed call: a new sorted list (the input stays unsorted)."""
    s["y"] = sorted(s["x"])


def check(s, p):
    """The last call's result is the input, in order."""
    y = s["y"]
    return len(y) == len(s["x"]) and all(y[i] <= y[i + 1] for i in range(len(y) - 1))


rw.serve(setup, run, check=check)
