#!/bin/sh
# bench/runner.sh - how fast is the runner's own machinery?  Times bin/runner
# on the inputs in bench/runner/ and prints one table: measure, value,
# target, result.  Exit status 0 when every target is met, 1 otherwise.
#
#   sh bench/runner.sh          (from anywhere; RUNNER=path overrides bin/runner,
#                                REPS=N the runs per measure, default 3)
#
# Measures (each the whole command, wall clock, median of REPS runs):
#   expand    `runner --dry-run` of a 1,000,000-trial sweep, output to
#             /dev/null (bench/runner/expand.yaml)               target < 2 s
#   validate  `runner validate` of a 10,000-trial file
#             (bench/runner/validate.yaml)                       target < 50 ms
#   resume    `runner --resume --quiet --no-plots --no-history` of a run
#             whose trials.csv holds 100,000 finished rows (generated with
#             awk) and whose meta.json says it is unfinished: nothing is
#             left to run, so this is the lookup of what finished plus the
#             work the runner does at the end of any run, the report
#             (bench/runner/resume.yaml)                         target < 0.5 s
#   resume + history  the same with the history on: the record of the
#             100,000 trials in OUTPUT/history.sqlite as well (doc/history.md;
#             the target above predates the history).  The database is
#             removed before each run: a killed run was never recorded
#             (only a finished run is), so its resume records it anew; kept,
#             the next run would replace the record instead      target < 1 s
#   per trial `runner --quiet --no-plots` of 20,000 noop trials, 1 sample,
#             no warm-up, divided by 20,000 (bench/runner/write.yaml):
#             everything a trial costs - the round trip to the worker
#             process (one for a batch of such small trials:
#             doc/timing.md#batches-of-small-trials), the statistics,
#             the appends to trials.csv and
#             samples.csv - plus the start-up and end-of-run work spread
#             over the trials                                    target < 20 us
#   The "info" row is the same run's sweep loop alone (the time the runner
#   prints in its summary line), divided by 20,000: no target.
# Timings on a shared or virtual machine are noisy: run it twice before
# believing a failure.
set -eu
cd "$(dirname "$0")/.."
RUNNER=${RUNNER:-bin/runner}
REPS=${REPS:-3}
IN=bench/runner

if [ ! -x "$RUNNER" ]; then
    make -s bin/runner >&2 || {
        echo "bench/runner.sh: no $RUNNER and 'make bin/runner' failed" >&2
        exit 1
    }
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

now() { date +%s.%N; }
# secs START END: the difference, in seconds
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f\n", b - a }'; }
# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# timed FILE CMD...: runs CMD (stdout to /dev/null, stderr to $tmp/err),
# appends its wall time to FILE; a failing command appends "fail"
timed() {
    timed_to=$1
    shift
    t0=$(now)
    if "$@" >/dev/null 2>"$tmp/err"; then
        t1=$(now)
        secs "$t0" "$t1" >>"$timed_to"
    else
        echo "bench/runner.sh: '$*' failed:" >&2
        sed 's/^/  /' "$tmp/err" >&2
        echo fail >>"$timed_to"
    fi
}

# result FILE: the median of FILE's times, or "fail" when any run failed
result() {
    if grep -q fail "$1"; then echo fail; else median <"$1"; fi
}

# ---- expansion of 1,000,000 trials --------------------------------------------
echo "expand: --dry-run of 1,000,000 trials ..." >&2
n=$("$RUNNER" --dry-run "$IN/expand.yaml" | awk 'END { print NR - 1 }')
[ "$n" = 1000000 ] || echo "bench/runner.sh: expand.yaml gave $n trials, not 1000000" >&2
: >"$tmp/expand.t"
i=0
while [ $i -lt "$REPS" ]; do
    timed "$tmp/expand.t" "$RUNNER" --dry-run "$IN/expand.yaml"
    i=$((i + 1))
done

# ---- validate of 10,000 trials -------------------------------------------------
echo "validate: 10,000 trials ..." >&2
: >"$tmp/validate.t"
i=0
while [ $i -lt $((REPS < 5 ? 5 : REPS)) ]; do
    timed "$tmp/validate.t" "$RUNNER" validate "$IN/validate.yaml"
    i=$((i + 1))
done

# ---- resume over 100,000 finished rows --------------------------------------------
echo "resume: writing a run with 100,000 finished rows ..." >&2
out="$tmp/resume-out"
# a real one-trial run gives the run folder, meta.json and the exact header
"$RUNNER" --quiet --no-plots --output "$out" --filter size=0 --filter seed=0 \
    "$IN/resume.yaml" >/dev/null 2>"$tmp/err" || {
    cat "$tmp/err" >&2
    exit 1
}
run=$(cd "$out/bench-resume" && cd "$(readlink latest)" && pwd)
{
    head -n 1 "$run/trials.csv"
    # dry-run rows are the key columns in trials.csv order; number them, add
    # a finished noop trial's statistics and an empty cell for each column
    # the workload adds after gbps (no header here holds a quoted comma)
    "$RUNNER" --dry-run "$IN/resume.yaml" |
        awk -v hdr="$(head -n 1 "$run/trials.csv")" '
        NR == 1 { extra = split(hdr, h, ",") - 1 - split($0, k, ",") - 16
                  tail = ""; for (i = 0; i < extra; i++) tail = tail "," }
        NR > 1 { printf "%d,%s,ok,,1,,1e-07,1e-07,1e-07,,1e-07,,,,,,,%s\n", NR - 2, $0, tail }'
} >"$run/trials.new"
mv "$run/trials.new" "$run/trials.csv"
awk 'BEGIN { print "trial,sample,seconds,device_seconds"
             for (i = 0; i < 100000; i++) printf "%d,0,1e-07,\n", i }' >"$run/samples.csv"
rows=$(($(wc -l <"$run/trials.csv") - 1))
[ "$rows" = 100000 ] || echo "bench/runner.sh: the run has $rows rows, not 100000" >&2
unfinish() { sed -i -E 's/^( *)"finished": *true/\1"finished": false/' "$run/meta.json"; }
: >"$tmp/resume.t"
: >"$tmp/resume-h.t"
i=0
while [ $i -lt $((2 * REPS)) ]; do
    # in turns: without the history, then with it
    if [ $((i % 2)) = 0 ]; then t="$tmp/resume.t" h=--no-history; else t="$tmp/resume-h.t" h=; fi
    unfinish
    rm -f "$out"/history.sqlite*
    grep -q '"finished": false' "$run/meta.json" || echo "bench/runner.sh: cannot mark $run unfinished" >&2
    # shellcheck disable=SC2086 # $h is one option or none
    timed "$t" "$RUNNER" --resume --quiet --no-plots $h --output "$out" "$IN/resume.yaml"
    # nothing may have run, and no new run folder may have appeared
    if ! grep -q ': 0 ok, 0 failed, 0 timeout, 0 skipped' "$tmp/err" ||
        [ "$(ls "$out/bench-resume" | grep -c '^[0-9]')" != 1 ]; then
        echo "bench/runner.sh: --resume ran trials or started a new run:" >&2
        sed 's/^/  /' "$tmp/err" >&2
        echo fail >>"$t"
    fi
    i=$((i + 1))
done
if [ -f "$out/history.sqlite" ] && command -v sqlite3 >/dev/null; then
    n=$(sqlite3 "$out/history.sqlite" 'SELECT count(*) FROM trials' 2>/dev/null || echo "?")
    [ "$n" = 100000 ] || echo "bench/runner.sh: the history holds $n trials, not 100000" >&2
fi

# ---- per-trial cost over 20,000 noop trials ---------------------------------------
echo "per trial: 20,000 noop trials ..." >&2
: >"$tmp/write.t"
: >"$tmp/loop.t"
i=0
while [ $i -lt "$REPS" ]; do
    rm -rf "$tmp/write-out"
    timed "$tmp/write.t" "$RUNNER" --quiet --no-plots --output "$tmp/write-out" "$IN/write.yaml"
    # "bench-write: 20000 ok, ... in 585.12 ms; results in ...": the loop alone
    sed -n 's/.*: 20000 ok, 0 failed, 0 timeout, 0 skipped in \([0-9.]*\) \([a-z]*\);.*/\1 \2/p' \
        "$tmp/err" | awk '{ f = $2 == "s" ? 1 : $2 == "ms" ? 1e-3 : $2 == "us" ? 1e-6 : $2 == "ns" ? 1e-9 : 0
                           if (f) printf "%.6f\n", $1 * f }' >>"$tmp/loop.t"
    grep -q ': 20000 ok' "$tmp/err" || echo fail >>"$tmp/write.t"
    i=$((i + 1))
done

# ---- the table ------------------------------------------------------------------------
awk -v expand="$(result "$tmp/expand.t")" -v validate="$(result "$tmp/validate.t")" \
    -v resume="$(result "$tmp/resume.t")" -v resumeh="$(result "$tmp/resume-h.t")" -v write="$(result "$tmp/write.t")" \
    -v loop="$(median <"$tmp/loop.t")" -v reps="$REPS" '
function row(measure, v, unit, scale, target, limit,    val, ok) {
    if (v == "fail" || v == "nan" || v == "") { val = "no result"; ok = "fail" }
    else { val = sprintf("%.3f %s", v * scale, unit); ok = v < limit ? "pass" : "fail" }
    if (limit == "") ok = "info"
    printf "%-44s %14s %10s  %s\n", measure, val, target, ok
    if (ok == "fail") failed = 1
}
BEGIN {
    printf "%-44s %14s %10s  %s\n", "measure (wall clock, median of " reps ")", "value", "target", "result"
    row("expand 1,000,000 trials (--dry-run)", expand, "s", 1, "< 2 s", 2)
    row("validate 10,000 trials", validate, "ms", 1e3, "< 50 ms", 0.050)
    row("resume over 100,000 finished rows", resume, "s", 1, "< 0.5 s", 0.5)
    row("the same, recorded in the history", resumeh, "s", 1, "< 1 s", 1)
    row("per trial, 20,000 noop trials, whole run", write == "fail" ? write : write / 20000,
        "us", 1e6, "< 20 us", 20e-6)
    row("per trial, sweep loop only", loop == "nan" ? loop : loop / 20000, "us", 1e6, "-", "")
    exit failed
}'
