#!/bin/sh
# bench/cpu.sh - does the runner cost anything on the CPU?  Runs the
# experiments in bench/cpu/ through bin/runner and the same work in bare loops
# (bench/bare.c), and prints one table: measure, runner, bare, ratio, target,
# result.  Exit status 0 when every target is met, 1 otherwise.
#
#   sh bench/cpu.sh            (from anywhere; RUNNER=path overrides bin/runner)
#
# Targets: noop per-sample overhead < 1 us; matmul >= 97% of bare sgemm
# GFLOP/s at each n; fused nested_sin within 1.2x of the bare loop; sumsq
# <= 3 us per iteration.  Timings on a shared or virtual machine are noisy:
# run it twice before believing a failure.
set -eu
cd "$(dirname "$0")/.."
RUNNER=${RUNNER:-bin/runner}
CC=${CC:-gcc}

mkdir -p build/bench
# shellcheck disable=SC2046 # pkg-config output is meant to be split
$CC -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -fopenmp -pthread -Irunner -Ibackends \
    $(pkg-config --cflags openblas) bench/bare.c -o build/bench/bare \
    $(pkg-config --libs openblas) -lm

if [ ! -x "$RUNNER" ]; then
    make -s bin/runner >&2 || {
        echo "bench/cpu.sh: no $RUNNER and 'make bin/runner' failed" >&2
        exit 1
    }
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

echo "bare loops ..." >&2
build/bench/bare >"$tmp/bare.txt"
echo "runner ..." >&2
"$RUNNER" --quiet --no-plots --output "$tmp/results" bench/cpu/*.yaml >&2 ||
    echo "bench/cpu.sh: the runner exited with status $? (failed trials show as 'no result')" >&2

. "$(dirname "$0")/lib.sh"

for name in noop matmul nested-sin sumsq; do
    csv="$tmp/results/bench-$name/latest/trials.csv"
    if [ -f "$csv" ]; then
        csv_cols "$csv" size status median >"$tmp/$name.txt"
    else
        echo "bench/cpu.sh: no results for bench-$name ($csv)" >&2
        : >"$tmp/$name.txt"
    fi
done

awk '
function row(measure, runner, bare, ratio, target, ok) {
    printf "%-22s %14s %14s %8s %14s  %s\n", measure, runner, bare, ratio, target, ok
    if (ok != "pass") failed = 1
}
function missing(measure, target) { row(measure, "no result", "-", "-", target, "fail") }
FILENAME ~ /bare.txt$/  { bare[$1 " " $2] = $3; next }
FILENAME ~ /noop.txt$/  { if ($2 == "ok") noop = $3; next }
FILENAME ~ /matmul.txt$/ { if ($2 == "ok") mm[$1] = $3; next }
FILENAME ~ /nested-sin.txt$/ { if ($2 == "ok") sin_t = $3; next }
FILENAME ~ /sumsq.txt$/ { if ($2 == "ok") { sq = $3; sq_n = $1 }; next }
END {
    printf "%-22s %14s %14s %8s %14s  %s\n", "measure", "runner", "bare", "ratio", "target",
        "result"
    if (noop != "")
        row("noop us/sample", sprintf("%.3f", noop * 1e6), sprintf("%.3f", bare["noop 0"] * 1e6),
            bare["noop 0"] > 0 ? sprintf("%.1f", noop / bare["noop 0"]) : "-", "< 1 us",
            noop < 1e-6 ? "pass" : "fail")
    else missing("noop us/sample", "< 1 us")
    for (n = 256; n <= 2048; n *= 2) {
        label = sprintf("matmul f32 %d GFLOP/s", n)
        if (!(n in mm) || !(("sgemm " n) in bare)) { missing(label, ">= 0.97"); continue }
        f = 2 * n * n * n / 1e9
        r = f / mm[n]; b = f / bare["sgemm " n]
        row(label, sprintf("%.1f", r), sprintf("%.1f", b), sprintf("%.3f", r / b), ">= 0.97",
            r / b >= 0.97 ? "pass" : "fail")
    }
    b = bare["nested_sin 4194304"]
    if (sin_t != "" && b > 0)
        row("nested_sin fused ms", sprintf("%.3f", sin_t * 1e3), sprintf("%.3f", b * 1e3),
            sprintf("%.3f", sin_t / b), "<= 1.2", sin_t / b <= 1.2 ? "pass" : "fail")
    else missing("nested_sin fused ms", "<= 1.2")
    b = bare["sumsq 2000"] / 2000 * 1e6
    if (sq != "" && sq_n > 0) {
        r = sq / sq_n * 1e6
        row("sumsq us/iteration", sprintf("%.3f", r), b > 0 ? sprintf("%.3f", b) : "-",
            b > 0 ? sprintf("%.3f", r / b) : "-", "<= 3 us", r <= 3 ? "pass" : "fail")
    } else missing("sumsq us/iteration", "<= 3 us")
    exit failed
}' "$tmp/bare.txt" "$tmp/noop.txt" "$tmp/matmul.txt" "$tmp/nested-sin.txt" "$tmp/sumsq.txt"
