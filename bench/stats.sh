#!/bin/bash
# bench/stats.sh - the figures of issue 15 ("Numbers a statistician would
# sign"), for one or more runner binaries side by side:
#   bench/stats.sh [LABEL=RUNNER ...]     (default: this tree's build/bin/runner)
# Rows: noop per call at the auto batch against a batch of 2^20 calls; axpb
# n=1e6 (batch 1) sequential against interleaved; the axpb 2-thread size-1
# trial's early samples; how often the first timed sample is the slowest
# (against the 1/n per trial chance predicts); intervals that miss their
# median or go negative.  The axpb pair is run STATS_PAIRS times (default 5)
# in turns, sequential then interleaved: a sequential trial's 30 samples are
# a 6 ms snapshot of a machine whose speed moves 10-50 % from one second to
# the next, so one pair says little; the median of the pairs' ratios says
# more.  The noop study runs as often, each batch size twice a run (seeds 1
# and 2: the same trial twice, an A/A control): how far two identical trials
# land apart in one run is the floor any auto-vs-2^20 difference must clear.
# Runs on the CPU only, about a minute per binary.
set -e
here=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || set -- "now=$here/../build/bin/runner"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# interleaved: a slow spell of the VM (a whole 6 ms noop trial at 2.0 ns a
# call against 1.3, one run in six, sequentially) lands on both batch sizes
cat >"$work/noop.yaml" <<'Y'
name: noop
workload: noop
threads: 1
repeats: 100
order: interleaved
sweep:
  batch: [auto, 1048576]
  seed: [1, 2]
Y
for order in sequential interleaved; do
cat >"$work/axpb-$order.yaml" <<Y
name: axpb-$order
workload: axpb
size: 1000000
threads: 1
batch: 1
repeats: 30
order: $order
sweep:
  seed: [1, 2, 3]
Y
done
cat >"$work/threads.yaml" <<'Y'
name: threads
workload: axpb
repeats: 30
sweep:
  size: [1, 16, 1024]
  threads: [1, 2]
Y
for spec in "$@"; do
    label=${spec%%=*} bin=${spec#*=}
    out=$work/$label
    "$bin" --quiet --no-plots --output "$out" "$work"/noop.yaml "$work"/axpb-*.yaml \
        "$work"/threads.yaml >/dev/null 2>&1 || true
    for k in $(seq 2 "${STATS_PAIRS:-5}"); do
        for order in sequential interleaved; do
            "$bin" --quiet --no-plots --output "$out/pair$k" "$work/axpb-$order.yaml" \
                >/dev/null 2>&1 || true
        done
        "$bin" --quiet --no-plots --output "$out/pair$k" "$work/noop.yaml" >/dev/null 2>&1 || true
    done
done
python3 - "$work" "$@" <<'PY'
import csv, os, sys
work, specs = sys.argv[1], sys.argv[2:]
def rows(out, name, f="trials.csv"):
    p = os.path.join(out, name, "latest", f)
    return list(csv.DictReader(open(p))) if os.path.exists(p) else []
def samples(out, name):
    by = {}
    for r in rows(out, name, "samples.csv"):
        by.setdefault(r["trial"], []).append(float(r["seconds"]))
    return by
def med(x):
    x = sorted(x); n = len(x)
    return x[n // 2] if n % 2 else 0.5 * (x[n // 2 - 1] + x[n // 2])
def unit(s):
    a = abs(s)
    return ("%.1f ns" % (s * 1e9) if a < 1e-6 else "%.2f us" % (s * 1e6) if a < 1e-3
            else "%.2f ms" % (s * 1e3) if a < 1 else "%.2f s" % s)
table = []
for spec in specs:
    label = spec.split("=", 1)[0]
    out = os.path.join(work, label)
    f = {}
    def noop_diffs(o):
        """auto vs 2^20 per seed, and the A/A differences (seed 1 vs 2 at one
        batch size), in % of the second"""
        m = {(r["batch"], r.get("seed", "1")): r for r in rows(o, "noop") if r["status"] == "ok"}
        ab = [100 * (float(m["auto", k]["median"]) / float(m["1048576", k]["median"]) - 1)
              for k in ("1", "2") if ("auto", k) in m and ("1048576", k) in m]
        aa = [100 * (float(m[b, "1"]["median"]) / float(m[b, "2"]["median"]) - 1)
              for b in ("auto", "1048576") if (b, "1") in m and (b, "2") in m]
        return m, ab, aa
    m, ab, aa = noop_diffs(out)
    if ("auto", "1") in m and ("1048576", "1") in m:
        a, b = float(m["auto", "1"]["median"]), float(m["1048576", "1"]["median"])
        f["noop per call, auto batch"] = "%s (batch %s)" % (unit(a), m["auto", "1"].get("batch_size", "1"))
        f["noop per call, batch 2^20"] = unit(b)
        f["noop auto vs 2^20"] = "%+.1f %%" % (100 * (a / b - 1))
        for d in sorted(os.listdir(out)):
            if d.startswith("pair"):
                _, ab2, aa2 = noop_diffs(os.path.join(out, d))
                ab += ab2
                aa += aa2
        if len(ab) > 1:
            f["  the same, median of %d (range)" % len(ab)] = "%+.1f %% (%+.1f to %+.1f)" % (
                med(ab), min(ab), max(ab))
        if aa:
            f["  A/A: one batch size twice, median |diff| (max)"] = "%.1f %% (%.1f)" % (
                med([abs(x) for x in aa]), max(abs(x) for x in aa))
    s = [float(r["median"]) for r in rows(out, "axpb-sequential") if r["status"] == "ok"]
    i = [float(r["median"]) for r in rows(out, "axpb-interleaved") if r["status"] == "ok"]
    if s and i:
        f["axpb 1e6 sequential"] = unit(med(s))
        f["axpb 1e6 interleaved"] = unit(med(i))
        f["interleaved / sequential"] = "%.2f" % (med(i) / med(s))
        # the machine's drift in that invocation: the sequential trials'
        # medians apart, and the interleaved rounds apart
        # (doc/results.md#plots-and-reports, drift: each round's median of sample / trial median)
        f["  sequential medians, slowest / fastest"] = "%.2f" % (max(s) / min(s))
        sm_i = [x for x in samples(out, "axpb-interleaved").values() if len(x) > 2]
        if len(sm_i) > 1:
            n_r = min(len(x) for x in sm_i)
            r_m = [med([x[k] / med(x) for x in sm_i]) for k in range(n_r)]
            f["  interleaved rounds, slowest / fastest"] = "%.2f" % (max(r_m) / min(r_m))
        ratios = [med(i) / med(s)]
        for d in sorted(os.listdir(out)):
            if d.startswith("pair"):
                s2 = [float(r["median"]) for r in rows(os.path.join(out, d), "axpb-sequential") if r["status"] == "ok"]
                i2 = [float(r["median"]) for r in rows(os.path.join(out, d), "axpb-interleaved") if r["status"] == "ok"]
                if s2 and i2:
                    ratios.append(med(i2) / med(s2))
        if len(ratios) > 1:
            f["the same, median of %d pairs (range)" % len(ratios)] = "%.2f (%.2f-%.2f)" % (
                med(ratios), min(ratios), max(ratios))
    t = rows(out, "threads")
    sm = samples(out, "threads")
    for r in t:
        if r["size"] == "1" and r["threads"] == "2" and r["trial"] in sm:
            x = sm[r["trial"]]
            f["axpb 2 thr size 1 (trial %s): max of first 5 / median" % r["trial"]] = \
                "%s / %s" % (unit(max(x[:5])), unit(med(x)))
    first = expect = 0.0
    miss = neg = total = 0
    lo_col = "median_ci_low" if t and "median_ci_low" in t[0] else "ci95_low"
    hi_col = lo_col.replace("low", "high")
    for name in ("noop", "axpb-sequential", "axpb-interleaved", "threads"):
        sm = samples(out, name)
        for r in rows(out, name):
            if r["status"] != "ok":
                continue
            x = sm.get(r["trial"], [])
            if len(x) > 1:
                # a first sample that ties k others for the slowest counts
                # 1/(k+1), as in bench/first-sample.sh
                first += (x[0] == max(x)) / x.count(max(x))
                expect += 1.0 / len(x)
            total += 1
            lo, hi, m = float(r[lo_col]), float(r[hi_col]), float(r["median"])
            miss += not (lo <= m <= hi)
            neg += lo < 0
            if "noise" in r and r["noise"] and name == "threads":
                f["noise: trial %s (size %s, %s thr)" % (r["trial"], r["size"], r["threads"])] = r["noise"][:60]
    f["first sample slowest (chance)"] = "%.1f (%.1f)" % (first, expect)
    f["interval misses its median"] = "%d of %d (%s)" % (miss, total, lo_col)
    f["interval below zero"] = "%d" % neg
    table.append((label, f))
keys = []
for _, f in table:
    keys += [k for k in f if k not in keys]
w = max(len(k) for k in keys)
print("%-*s  %s" % (w, "", "  ".join("%-28s" % l for l, _ in table)))
for k in keys:
    print("%-*s  %s" % (w, k, "  ".join("%-28s" % f.get(k, "-") for _, f in table)))
PY
