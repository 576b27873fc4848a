#!/usr/bin/env python3
"""Writes the small run folders that tests/test_compare.c compares.

    python3 tests/fixtures_compare/make_fixtures.py   (from the repository root)

base      OLD run: matmul on cpu at sizes 64, 128, 256, and a skipped cuda trial
slower    cpu 64 20 % slower, 128 the same, 256 20 % faster, cuda now ok;
          columns in another order, trial numbers in another order, and a
          key (cold_cache) that base does not have, false in every trial
within    cpu 64 3 % slower (significant), 128 9 % slower but overlapping
          (not significant), 256 identical samples
faster    every cpu trial 20 % faster
unmatched cpu 64 failed, 128 the same, 256 gone, 512 new, cuda skipped again
varying   a key (threads) that base does not have, with two values
broken    a trials.csv that is not the runner's
"""
import json
import math
import os
import statistics

ROOT = os.path.dirname(os.path.abspath(__file__))
BASE_COLS = ["workload", "device", "size", "repeats"]
STATS = ["status", "reason", "samples", "cold", "min", "median", "mean", "stddev", "max",
         "ci95_low", "ci95_high", "h2d", "compute", "d2h", "gflops", "gbps"]
T975 = {4: 2.776}


def ms(*v):
    return [x * 1e-3 for x in v]


def row_stats(status, reason, s):
    if status != "ok" or not s:
        return [status, reason, "0"] + [""] * 13
    n = len(s)
    mean = statistics.mean(s)
    sd = statistics.stdev(s) if n > 1 else float("nan")
    h = T975[n - 1] * sd / math.sqrt(n)
    g = lambda v: "%.9g" % v
    return [status, reason, str(n), g(s[0] * 1.1), g(min(s)), g(statistics.median(s)), g(mean),
            g(sd), g(max(s)), g(mean - h), g(mean + h), "", "", "", "", ""]


def write_run(name, cols, trials, host):
    """trials: list of (trial id, {key: value}, status, reason, samples)."""
    d = os.path.join(ROOT, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "trials.csv"), "w") as f:
        f.write(",".join(["trial"] + cols + STATS) + "\n")
        for tid, keys, status, reason, s in sorted(trials, key=lambda t: t[0]):
            f.write(",".join([str(tid)] + [keys[c] for c in cols] +
                             row_stats(status, reason, s)) + "\n")
    with open(os.path.join(d, "samples.csv"), "w") as f:
        f.write("trial,sample,seconds,device_seconds\n")
        for tid, keys, status, reason, s in sorted(trials, key=lambda t: t[0]):
            if status == "ok":
                for i, v in enumerate(s):
                    f.write("%d,%d,%.9g,\n" % (tid, i, v))
    meta = {"runner": {"version": "0.1.0"}, "host": {"hostname": host},
            "start": "2026-01-0%dT00:00:00Z" % (1 + len(host) % 9), "finished": True}
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")


def k(device, size, **extra):
    d = {"workload": "matmul", "device": device, "size": str(size), "repeats": "5"}
    d.update({a: str(b) for a, b in extra.items()})
    return d


S64 = ms(1.000, 1.001, 1.002, 1.003, 1.004)
S128 = ms(8.00, 8.10, 8.20, 8.30, 8.40)
S256 = ms(64.0, 64.1, 64.2, 64.3, 64.4)
SKIP = ("skipped", "no CUDA device", [])

write_run("base", BASE_COLS, [
    (0, k("cpu", 64), "ok", "", S64),
    (1, k("cpu", 128), "ok", "", S128),
    (2, k("cpu", 256), "ok", "", S256),
    (3, k("cuda", 64)) + SKIP,
], "alpha")

write_run("slower", ["size", "device", "cold_cache", "workload", "repeats"], [
    (2, k("cpu", 64, cold_cache="false"), "ok", "", ms(1.200, 1.201, 1.202, 1.203, 1.204)),
    (1, k("cpu", 128, cold_cache="false"), "ok", "", ms(8.05, 8.15, 8.25, 8.35, 8.45)),
    (0, k("cpu", 256, cold_cache="false"), "ok", "", ms(51.0, 51.1, 51.2, 51.3, 51.4)),
    (3, k("cuda", 64, cold_cache="false"), "ok", "", ms(0.50, 0.51, 0.52, 0.53, 0.54)),
], "beta")

write_run("within", BASE_COLS, [
    (0, k("cpu", 64), "ok", "", ms(1.030, 1.031, 1.032, 1.033, 1.034)),
    (1, k("cpu", 128), "ok", "", ms(7.90, 8.15, 8.95, 9.00, 9.10)),
    (2, k("cpu", 256), "ok", "", S256),
    (3, k("cuda", 64)) + SKIP,
], "alpha")

write_run("faster", BASE_COLS, [
    (0, k("cpu", 64), "ok", "", [x * 0.8 for x in S64]),
    (1, k("cpu", 128), "ok", "", [x * 0.8 for x in S128]),
    (2, k("cpu", 256), "ok", "", [x * 0.8 for x in S256]),
    (3, k("cuda", 64)) + SKIP,
], "gamma")

write_run("unmatched", BASE_COLS, [
    (0, k("cpu", 64), "failed", "wrong result", []),
    (1, k("cpu", 128), "ok", "", S128),
    (2, k("cpu", 512), "ok", "", ms(512.0, 512.1, 512.2, 512.3, 512.4)),
    (3, k("cuda", 64)) + SKIP,
], "alpha")

write_run("varying", BASE_COLS + ["threads"], [
    (0, k("cpu", 64, threads=1), "ok", "", S64),
    (1, k("cpu", 64, threads=2), "ok", "", S64),
], "alpha")

os.makedirs(os.path.join(ROOT, "broken"), exist_ok=True)
with open(os.path.join(ROOT, "broken", "trials.csv"), "w") as f:
    f.write("hello,world\n1,2\n")
with open(os.path.join(ROOT, "broken", "samples.csv"), "w") as f:
    f.write("trial,sample,seconds,device_seconds\n")
