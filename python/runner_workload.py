"""runner_workload - measure a Python function with runner's `workload: command`.

The persistent protocol of doc/own-code.md ("The protocol") in a few lines;
standard library only, Python 3.8 or newer:

    import runner_workload as rw
    torch = rw.need("torch")            # None if missing: every trial is skipped

    def setup(p):                       # untimed; p holds the trial's parameters
        a = torch.rand(p["size"], p["size"], device=p["device"])
        return {"a": a}

    def run(state, p):                  # one timed call
        return torch.matmul(state["a"], state["a"])

    rw.serve(setup, run)

with, in the experiment file:

    workload: command
    command: [python3, matmul.py]
    protocol: persistent

`run` is timed K times in a row, then the devices of the libraries that are
imported are synchronised (torch.cuda, CuPy, JAX) before the clock stops, so
a call's asynchronous GPU work is inside its time.  Optional: `check(state,
p)` (verification: return False or raise to fail the trial), `teardown(state,
p)`, `extras(state, p)` (a dict of extra columns), `flops(p)` and
`bytes(p)` (the work of one call, for gflops and gbps).  An exception in any
of them fails the trial with its message (the traceback goes to stderr, whose
last lines the trial's reason shows).  Anything printed to stdout is thrown
away: the protocol has pipes of its own.
"""

import importlib
import json
import os
import sys
import time
import traceback

__all__ = ["need", "serve", "sync"]

_missing = []


def need(name):
    """Imports module `name`; if it is not installed, returns None and every
    trial is skipped with "python module NAME not found"."""
    try:
        return importlib.import_module(name)
    except ImportError:
        _missing.append(name)
        return None


def sync(result=None):
    """Waits for the work the imported GPU libraries have queued (and for
    `result`, if it is a JAX array)."""
    mods = sys.modules
    torch = mods.get("torch")
    if torch is not None and torch.cuda.is_available() and torch.cuda.is_initialized():
        torch.cuda.synchronize()
    cupy = mods.get("cupy")
    if cupy is not None:
        try:
            cupy.cuda.get_current_stream().synchronize()
        except Exception:  # no device: nothing was queued
            pass
    if result is not None and hasattr(result, "block_until_ready"):
        result.block_until_ready()  # JAX


def _device_ok(p):
    """None, or why the trial cannot run on its device here."""
    dev = str(p.get("device", "cpu"))
    torch = sys.modules.get("torch")
    if dev.startswith("cuda") and torch is not None:
        if not torch.cuda.is_available():
            return "no CUDA device (torch.cuda.is_available() is False)"
        if int(p.get("device_index", 0)) >= torch.cuda.device_count():
            return "%s does not exist; torch sees %d" % (dev, torch.cuda.device_count())
    return None


def _prepare_threads(p):
    torch = sys.modules.get("torch")
    threads = p.get("threads")
    if torch is not None and isinstance(threads, int) and threads > 0:
        torch.set_num_threads(threads)


def _error(exc):
    traceback.print_exc(file=sys.stderr)
    sys.stderr.flush()
    return {"error": "%s: %s" % (type(exc).__name__, exc)}


def serve(setup, run, check=None, teardown=None, extras=None, flops=None, bytes=None):
    """Answers the runner's requests until it closes the pipe."""
    fds = os.environ.get("RUNNER_PROTOCOL_FDS")
    if not fds:
        sys.exit("runner_workload: RUNNER_PROTOCOL_FDS is not set: start this program "
                 "from an experiment file with `workload: command` and "
                 "`protocol: persistent` (doc/own-code.md)")
    rfd, wfd = (int(x) for x in fds.split(","))
    requests = os.fdopen(rfd, "r", encoding="utf-8")
    replies = os.fdopen(wfd, "w", encoding="utf-8")
    clock = time.perf_counter  # CLOCK_MONOTONIC on Linux: the runner's clock
    state = None
    p = {}
    for line in requests:
        try:
            msg = json.loads(line)
            op = msg.get("op")
        except ValueError as exc:
            msg = {}
            reply = {"error": "request is not JSON: %s" % exc}
            op = None
        if op == "setup":
            p = msg.get("params", {})
            state = None
            why = ("python module %s not found" % _missing[0]) if _missing else _device_ok(p)
            if why:
                reply = {"skip": why}
            else:
                try:
                    _prepare_threads(p)
                    state = setup(p)
                    reply = {"ok": True}
                    if flops is not None:
                        reply["flops"] = float(flops(p))
                    if bytes is not None:
                        reply["bytes"] = float(bytes(p))
                except Exception as exc:
                    reply = _error(exc)
        elif op == "run":
            k = int(msg.get("k", 1))
            try:
                result = None
                t0 = clock()
                for _ in range(k):
                    result = run(state, p)
                sync(result)
                t1 = clock()
                reply = {"seconds": t1 - t0}
            except Exception as exc:
                reply = _error(exc)
        elif op == "check":
            try:
                ok = check(state, p) if check is not None else True
                reply = {"ok": True} if ok is not False else {"error": "check returned False"}
                if ok is not False and extras is not None:
                    reply["extras"] = dict(extras(state, p) or {})
            except Exception as exc:
                reply = _error(exc)
        elif op == "teardown":
            try:
                if teardown is not None:
                    teardown(state, p)
                reply = {"ok": True}
            except Exception as exc:
                reply = _error(exc)
            state = None
        elif op is not None:
            reply = {"error": "unknown request %r" % op}
        if "id" in msg:  # the request's id, echoed: a stale reply is never taken for it
            reply["id"] = msg["id"]
        replies.write(json.dumps(reply) + "\n")
        replies.flush()
