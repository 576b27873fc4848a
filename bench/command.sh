#!/bin/bash
# bench/command.sh - what `workload: command` costs on this machine
# (doc/own-code.md#what-the-protocol-costs), as the runner reports it and
# against a bare C loop of the same calls (bench/command_bare.c):
#   bench/command.sh [RUNNER]     (default: this tree's build/bin/runner)
# Rows: per_call's start of an empty program (spawn_seconds: the median of 9
# starts of `true`), a whole per_call trial of `true` (its median call), and
# the persistent protocol's no-op round trip (protocol_seconds: the median
# of 5 `run` requests with k = 0) to the C example (examples/command/sumsq.c)
# and to a Python program on python/runner_workload.py.  The bare loops take
# the median of 200 (spawn) and 2000 (round trips).  A table, not a test:
# the figures move with the machine's load; rerun before believing one.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bin=${1:-$root/build/bin/runner}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -std=c11 -O2 -o "$work/bare" "$here/command_bare.c"
cc -std=c11 -O2 -o "$work/sumsq" "$root/examples/command/sumsq.c" -lm
cp "$root/tests/command/py_work.py" "$work/"
export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
printf 'name: pc\nworkload: command\ncommand: [true]\nprotocol: per_call\nrepeats: 21\nbatch: 1\n' \
    >"$work/per_call.yaml"
printf 'name: c\nworkload: command\ncommand: [./sumsq]\nprotocol: persistent\nsize: 1\nrepeats: 21\n' \
    >"$work/c.yaml"
printf 'name: py\nworkload: command\ncommand: [python3, py_work.py]\nprotocol: persistent\nsize: 1\nrepeats: 21\n' \
    >"$work/py.yaml"
for f in per_call c py; do
    "$bin" --quiet --no-plots --run-dir "$work/run-$f" "$work/$f.yaml" 2>"$work/err" ||
        { cat "$work/err"; exit 1; }
done
col() { # col RUN COLUMN: the first trial's value
    python3 -c 'import csv,sys; r=next(csv.DictReader(open(sys.argv[1]))); print(r.get(sys.argv[2]) or "nan")' \
        "$work/run-$1/trials.csv" "$2"
}
us() { python3 -c 'import sys; v=float(sys.argv[1]); print("%8.1f us" % (v*1e6) if v==v else "       -")' "$1"; }
spawn_bare=$("$work/bare" spawn 200 true)
c_bare=$(cd "$work" && "$work/bare" trip 2000 ./sumsq)
py_bare=$(cd "$work" && "$work/bare" trip 2000 python3 py_work.py)
printf '%-50s %12s %12s\n' "per call, on $(nproc) CPUs (load $(cut -d' ' -f1 /proc/loadavg))" runner "bare loop"
printf '%-50s %12s %12s\n' "per_call: start of an empty program (spawn_seconds)" "$(us "$(col per_call spawn_seconds)")" "$(us "$spawn_bare")"
printf '%-50s %12s %12s\n' "per_call: a call of true (median)" "$(us "$(col per_call median)")" "$(us "$spawn_bare")"
printf '%-50s %12s %12s\n' "persistent, C: no-op round trip (protocol_seconds)" "$(us "$(col c protocol_seconds)")" "$(us "$c_bare")"
printf '%-50s %12s %12s\n' "persistent, Python: no-op round trip" "$(us "$(col py protocol_seconds)")" "$(us "$py_bare")"
printf '%-50s %12s %12s\n' "persistent, Python: a call's round trip (size 1)" "$(us "$(col py round_trip_seconds)")" "-"
