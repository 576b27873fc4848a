"""numpy_matmul.py - your own NumPy function on the runner's charts: a
float64 matrix product, run persistent (the program starts once and answers
every trial).  numpy_matmul.yaml, beside it, sweeps it:

    ./bin/runner examples/python/numpy_matmul.yaml

Started by hand it says how it is meant to be run (the helper is found with
PYTHONPATH=python from the runner's tree):

    PYTHONPATH=python python3 examples/python/numpy_matmul.py
"""
import runner_workload as rw

np = rw.need("numpy")  # not installed: every trial is skipped, with the reason


def setup(p):
    """Untimed, once per trial: the inputs, float64 as the file's dtype says."""
    n = p["size"]
    rng = np.random.default_rng(1)
    return {"a": rng.random((n, n)), "b": rng.random((n, n)), "c": None}


def run(s, p):
    """One timed call."""
    s["c"] = s["a"] @ s["b"]


def check(s, p):
    """The last call's product, one column against a matrix-vector product."""
    e = np.zeros(p["size"])
    e[-1] = 1.0
    return bool(np.allclose(s["c"] @ e, s["a"] @ (s["b"] @ e)))


rw.serve(setup, run, check=check,
         flops=lambda p: 2.0 * p["size"] ** 3,      # multiply-adds of an n x n x n product
         bytes=lambda p: 3.0 * 8 * p["size"] ** 2)  # A and B read, C written, 8 bytes each
