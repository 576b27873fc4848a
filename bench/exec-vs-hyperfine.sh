#!/bin/bash
# bench/exec-vs-hyperfine.sh - `runner exec` against hyperfine on the same
# commands (doc/own-code.md#one-line-mode): `sleep 0.05` and a 2 ms C
# program (bench/spin.c), each timed by both in turns, the order swapped
# every round, and the ratio of their medians (runner / hyperfine) printed:
#   bench/exec-vs-hyperfine.sh [ROUNDS] [RUNNER]   (default: 5, build/bin/runner)
# Both start the program without a shell (hyperfine -N), take 3 warmup runs
# and 30 timed runs.  Needs hyperfine (Debian: apt-get install hyperfine).
# A table, not a test: the figures move with the machine's load; compare the
# rounds, and rerun before believing one (bench/NOTES-exec.md).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
rounds=${1:-5}
bin=${2:-$root/build/bin/runner}
command -v hyperfine >/dev/null || { echo "exec-vs-hyperfine: no hyperfine (apt-get install hyperfine)"; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -std=c11 -O2 -o "$work/spin" "$here/spin.c"
cd "$work"
median() { # median FILE.json: the first result's median, in ms
    python3 -c 'import json,sys; print("%.4f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1e3))' "$1"
}
hf() { hyperfine -N --warmup 3 --runs 30 --style none --export-json hf.json "$*" >/dev/null 2>&1; median hf.json; }
rx() {
    "$bin" exec --quiet --no-plots --no-history --output "$work/results" -w 3 -r 30 \
        --export-json rx.json -- "$@" >/dev/null 2>rx.err || { cat rx.err >&2; exit 1; }
    median rx.json
}
printf '%-12s %5s %14s %14s %8s\n' command round hyperfine_ms runner_ms ratio
for target in "sleep 0.05" "./spin 2"; do
    ratios=""
    for r in $(seq 1 "$rounds"); do
        # in turns: odd rounds hyperfine first, even rounds the runner first
        if [ $((r % 2)) = 1 ]; then h=$(hf $target); x=$(rx $target)
        else x=$(rx $target); h=$(hf $target); fi
        ratio=$(python3 -c "print('%.4f' % ($x / $h))")
        ratios="$ratios $ratio"
        printf '%-12s %5d %14s %14s %8s\n' "$target" "$r" "$h" "$x" "$ratio"
    done
    python3 -c 'import statistics,sys; v=[float(a) for a in sys.argv[2:]]; print("%-12s median ratio %.4f (rounds %.4f to %.4f)" % (sys.argv[1], statistics.median(v), min(v), max(v)))' "$target" $ratios
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
