#!/bin/bash
# bench/first-sample.sh - issue 15's warmup criterion over every CPU study:
# how many ok trials have their first timed sample as their slowest, against
# the sum of 1/n (n samples a trial) that chance predicts (a first sample
# that ties k others for the slowest counts 1/(k+1)).
#   bench/first-sample.sh [LABEL=RUNNER ...]   rerun experiments/*.yaml with each
#   bench/first-sample.sh --count RUN_DIR ...  count runs already made
# (default: this tree's bin/runner).  A rerun takes about ten minutes on a
# 2-core machine; CUDA trials are skipped without a GPU and not counted.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$here/..
count() {
    python3 - "$@" <<'PY'
import csv, glob, os, sys
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
for d in sys.argv[1:]:
    print("%s\n| study | ok trials | first sample slowest | chance |\n| --- | --- | --- | --- |" % d)
    tf = tc = tn = 0
    for study, rows, by in trials(d):
        first = chance = 0.0
        n = 0
        for r in rows:
            x = [s for _, s in sorted(by.get(r["trial"], []))]
            if len(x) < 2:
                continue
            n += 1
            chance += 1.0 / len(x)
            if x[0] == max(x):  # a tie for the slowest: its share
                first += 1.0 / x.count(x[0])
        print("| %s | %d | %.1f | %.1f |" % (study, n, first, chance))
        tf, tc, tn = tf + first, tc + chance, tn + n
    print("| all | %d | %.1f | %.1f |\n" % (tn, tf, tc))
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
for spec in "$@"; do
    label=${spec%%=*} bin=${spec#*=}
    (cd "$root" && "$bin" --quiet --no-plots --output "$work/$label" experiments/*.yaml \
        >/dev/null 2>&1) || true
    count "$work/$label" | sed "1s|.*|$label|"
done
