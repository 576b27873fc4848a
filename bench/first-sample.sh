#!/bin/bash
# bench/first-sample.sh - issue 15's warmup criterion over every CPU study:
# how many ok trials have their first timed sample as their slowest, against
# the sum of 1/n (n samples a trial) that chance predicts (a first sample
# that ties k others for the slowest counts 1/(k+1)).  Beside it, the same
# count for the second and the last sample: no warmup touches the last, so
# it shows how far a machine's drift alone moves such counts (a drifting
# machine makes the ends of a run its extremes), and the share of trials
# whose first sample is above the median of the others (0.5 by chance).
#   bench/first-sample.sh [LABEL=RUNNER ...]   rerun experiments/*.yaml with each
#   bench/first-sample.sh --count RUN_DIR ...  count runs already made
# (default: this tree's bin/runner).  A rerun takes about 2.5 minutes on a
# 2-core machine; CUDA trials are skipped without a GPU and not counted.
# Several labels (or RUN_DIRs) end with their sum over all reruns.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$here/..
count() {
    python3 - "$@" <<'PY'
import csv, glob, math, os, sys
def trials(d):
    """(study, trial rows, samples by trial) of every run folder under d"""
    found = [d] if os.path.exists(os.path.join(d, "trials.csv")) else sorted(
        p for p in glob.glob(os.path.join(d, "*", "*"))
        if os.path.basename(p) != "latest" and os.path.exists(os.path.join(p, "trials.csv")))
    for run in found:
        by = {}
        with open(os.path.join(run, "samples.csv")) as f:
            for r in csv.DictReader(f):
                by.setdefault(r["trial"], []).append((int(r["sample"]), float(r["seconds"])))
        with open(os.path.join(run, "trials.csv")) as f:
            rows = [r for r in csv.DictReader(f) if r["status"] == "ok"]
        yield os.path.basename(os.path.dirname(run)), rows, by
def share(x, i):
    """x[i]'s share of being the slowest (ties split)"""
    return 1.0 / x.count(x[i]) if x[i] == max(x) else 0.0
def above(x):
    """1 if the first sample is above the median of the others, 0.5 on a tie"""
    rest = sorted(x[1:])
    m = len(rest)
    med = rest[m // 2] if m % 2 else (rest[m // 2 - 1] + rest[m // 2]) / 2
    return 1.0 if x[0] > med else 0.5 if x[0] == med else 0.0
def z(count, mean, var):
    return (count - mean) / math.sqrt(var) if var > 0 else 0.0
pool = [0.0] * 6  # first, second, last, chance, variance, trials
pool_above = 0.0
for d in sys.argv[1:]:
    print("%s\n| study | ok trials | first slowest | second slowest | last slowest | chance |\n"
          "| --- | --- | --- | --- | --- | --- |" % d)
    tot = [0.0] * 6
    up = 0.0
    for study, rows, by in trials(d):
        t = [0.0] * 6
        for r in rows:
            x = [s for _, s in sorted(by.get(r["trial"], []))]
            if len(x) < 2:
                continue
            p = 1.0 / len(x)
            t = [t[0] + share(x, 0), t[1] + share(x, 1), t[2] + share(x, len(x) - 1),
                 t[3] + p, t[4] + p * (1 - p), t[5] + 1]
            up += above(x)
        print("| %s | %d | %.1f | %.1f | %.1f | %.1f |" % (study, t[5], t[0], t[1], t[2], t[3]))
        tot = [a + b for a, b in zip(tot, t)]
    print("| all | %d | %.1f | %.1f | %.1f | %.1f +- %.1f |" % (tot[5], tot[0], tot[1], tot[2],
                                                            tot[3], math.sqrt(tot[4])))
    print("first sample above the median of the others: %.1f of %d trials (%.1f %%; 50 %% by chance)\n"
          % (up, tot[5], 100 * up / tot[5] if tot[5] else 0))
    pool = [a + b for a, b in zip(pool, tot)]
    pool_above += up
if len(sys.argv) > 2:
    n = pool[5]
    print("all %d reruns: first slowest %.1f, second %.1f, last %.1f; chance %.1f +- %.1f "
          "(first: z = %.2f)" % (len(sys.argv) - 1, pool[0], pool[1], pool[2], pool[3],
                                 math.sqrt(pool[4]), z(pool[0], pool[3], pool[4])))
    print("first sample above the median of the others: %.1f %% of %d trials; "
          "sign test z = %.2f" % (100 * pool_above / n, n, z(pool_above, n / 2, n / 4)))
PY
}
if [ "$1" = --count ]; then
    shift
    count "$@"
    exit
fi
[ $# -gt 0 ] || set -- "now=$root/bin/runner"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dirs=()
for spec in "$@"; do
    label=${spec%%=*} bin=${spec#*=}
    (cd "$root" && "$bin" --quiet --no-plots --output "$work/$label" experiments/*.yaml \
        >/dev/null 2>&1) || true
    count "$work/$label" | sed "1s|.*|$label|"
    dirs+=("$work/$label")
done
[ ${#dirs[@]} -lt 2 ] || count "${dirs[@]}" | sed -n '/^all [0-9]* reruns/,$p'
