#!/usr/bin/env bash
# bench/changepoint.sh [SERIES] - the change point detector and the gate on a
# seeded battery (doc/history.md#change-points, doc/history.md#runner-gate):
# run medians under log-normal noise (1, 3, 10 %), outlier runs (1 in 20,
# 30-100 % slower), two speed modes (50/50 and 80/20, 30 % apart) and
# quantised medians (1 ms ticks); no step, a step of +5/+10/+25/-10 %, a
# step and back, two steps, a drift, a step with 4 runs after it and one with
# 3; 20, 50 and 200 runs; SERIES series a case (default 200).  Prints the
# false change points per 100 no-step series, recall within 2 runs,
# precision and location error, then the gate's false alarms at 3, 5, 10 and
# 30 earlier runs and its misses at +5/+10/+25 % with 10, and what the gate's
# alpha trades (the tables: bench/NOTES-history.md).  Apache Otava is not run
# side by side here (it is no dependency of the project).  Not a test.
set -eu
cd "$(dirname "$0")/.."
CC=${CC:-gcc}
OUT=$(mktemp -d /tmp/runner-changepoint-XXXXXX)
trap 'rm -rf "$OUT"' EXIT
$CC -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -Irunner -o "$OUT/battery" \
    bench/changepoint.c runner/results/history/changepoint.c runner/results/history/gate_stats.c \
    runner/stats/quantile.c runner/stats/stats.c runner/base/util.c -lm
"$OUT/battery" "${1:-200}"
