"""bench/aa/work.py - the persistent Python function of bench/aa.sh: a sum
of squares over a list, `size` elements (python/runner_workload.py)."""
import runner_workload as rw


def setup(p):
    return [float(i) for i in range(int(p["size"]))]


def run(state, p):
    s = 0.0
    for v in state:
        s += v * v
    return s


rw.serve(setup, run)
