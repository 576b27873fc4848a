#!/bin/sh
# bench/ceilings.sh - the CPU probe of `runner machine` (doc/ceilings.md#the-ceilings):
# how long it takes (goal: under 10 s for the whole CPU probe), and its figures
# against bare references: OpenBLAS SGEMM and DGEMM at n = 2048 (a GEMM
# reaches 80-95 % of the FMA peak, never more) and a plain OpenMP triad.
# Prints one table: figure, probe, reference, probe/reference, nominal.
# Exit status 0 when the probe took under 10 s and no reference beat the
# probe's ceiling by more than 5 %; 1 otherwise.  Timings on a shared or
# virtual machine are noisy: run it twice before believing a failure.
#
#   sh bench/ceilings.sh       (from anywhere; RUNNER=path overrides bin/runner)
set -eu
cd "$(dirname "$0")/.."
RUNNER=${RUNNER:-bin/runner}
CC=${CC:-gcc}
mkdir -p build/bench
# shellcheck disable=SC2046 # pkg-config output is meant to be split
$CC -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -fopenmp $(pkg-config --cflags openblas) \
    bench/ceilings_ref.c -o build/bench/ceilings_ref $(pkg-config --libs openblas) -lm
[ -x "$RUNNER" ] || make -s bin/runner >&2

cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
start=$(date +%s.%N)
XDG_CACHE_HOME=$cache "$RUNNER" machine --json >"$cache/c.json" 2>/dev/null
end=$(date +%s.%N)
secs=$(echo "$end $start" | awk '{printf "%.2f", $1 - $2}')
build/bench/ceilings_ref >"$cache/ref.txt"

# the measured and nominal figure of a ceiling, from the JSON
fig() {
    python3 -c 'import json,sys
c = json.load(open(sys.argv[1]))["devices"]["cpu"]["ceilings"].get(sys.argv[2], {})
print(c.get("measured") or "", c.get("nominal") or "")' "$cache/c.json" "$1"
}
ref() { awk -v k="$1" '$1 == k {print $2}' "$cache/ref.txt"; }

fail=0
printf '%-18s %12s %12s %10s %12s\n' figure probe reference "probe/ref" nominal
for pair in fp32_1core:sgemm_1core fp64_1core:dgemm_1core fp32:sgemm fp64:dgemm bandwidth:triad; do
    what=${pair%%:*}
    r=$(ref "${pair#*:}")
    set -- $(fig "$what")
    p=${1:-}
    n=${2:--}
    ratio=$(awk -v p="$p" -v r="$r" 'BEGIN {if (r > 0) printf "%.2f", p / r; else print "-"}')
    printf '%-18s %12s %12s %10s %12s\n' "$what" "$p" "$r (${pair#*:})" "$ratio" "$n"
    # a GEMM above the FMA ceiling means the probe read low
    case $what in fp*) awk -v p="$p" -v r="$r" 'BEGIN {exit !(r > 1.05 * p)}' && fail=1 ;; esac
done
printf '%-18s %12s s (goal: under 10 s)\n' "probe time" "$secs"
awk -v s="$secs" 'BEGIN {exit !(s >= 10)}' && fail=1
uptime | sed 's/^/load: /'
exit $fail
