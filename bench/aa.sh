#!/bin/sh
# bench/aa.sh - what one run can show on this machine: A/A calibration of
# `runner compare` (doc/compare.md#what-one-run-can-show).
#
# Runs bench/aa/aa.yaml (the built-in matmul at three sizes, a Lua loop and a
# persistent Python function, one thread each, 15 repeats) K times unchanged
# (default 6), and K times as a second revision whose Lua loop does 1.5x the
# work (scale 1.5), then compares:
#   A/A            every pair of unchanged runs, one run a side (K (K-1) / 2
#                  pairs): a `slower` or `faster` verdict is a false positive;
#                  exit 1 is a gate failing for nothing
#   A/A, 3 runs   the 10 splits of the first six unchanged runs into two
#                  threes (K >= 6): a `slower` or `faster` verdict is a false
#                  positive (not a target: a figure for doc/compare.md)
#   1.5x, 3 runs   K (K-1) / 2 pairs of three unchanged runs against three of
#                  the second revision: the Lua trial must be `slower`
#   1.5x, 1 run    every unchanged run i against the second revision's run j
#                  (i < j): exit 1 or 3, never 0
#   x1.25          every pair with the NEW run's samples scaled by 1.25: exit 1
#                  or 3, never 0
# and prints one table: per case, the pairs by exit status and the trial
# verdicts (slower, faster, same, inconclusive, busy).
#
#   sh bench/aa.sh [K]      (from anywhere; RUNNER=path overrides bin/runner;
#                            AA_BUSY=1 keeps one core busy (`yes`) during every
#                            run, AA_BUSY=pin pins it to the first CPU;
#                            AA_KEEP=DIR keeps the runs, AA_REUSE=1 compares kept
#                            runs again; AA_COMPARE_ARGS adds compare options)
#
# Exit status 0 when the targets hold (A/A: at most 1 pair in 15 exits 1 and
# at most 5 % of the trial verdicts are slower or faster; 1.5x with 3 runs:
# the Lua trial slower in at least 14 pairs of 15; 1.5x with 1 run and x1.25:
# no pair exits 0), 1 otherwise.  On a shared machine the figures move from
# one invocation to the next: say what else ran.
set -eu
cd "$(dirname "$0")/.."
RUNNER=${RUNNER:-bin/runner}
K=${1:-6}
ARGS=${AA_COMPARE_ARGS:-}
if [ ! -x "$RUNNER" ]; then
    make -s bin/runner >&2 || { echo "bench/aa.sh: no $RUNNER" >&2; exit 1; }
fi
hog=""
stop_hog() { [ -z "$hog" ] || kill "$hog" 2>/dev/null || true; hog=""; }
if [ -n "${AA_KEEP:-}" ]; then
    tmp=$AA_KEEP
    mkdir -p "$tmp"
    trap 'stop_hog' EXIT
else
    tmp=$(mktemp -d)
    trap 'stop_hog; rm -rf "$tmp"' EXIT
fi
trap 'exit 130' INT TERM
t0=$(date +%s)
case "${AA_BUSY:-0}" in
0) ;;
pin) taskset -c "$(taskset -pc $$ | sed 's/.*: //; s/[-,].*//')" yes >/dev/null & hog=$! ;;
*) yes >/dev/null & hog=$! ;;
esac
sed 's/scale: 1}/scale: 1.5}/' bench/aa/aa.yaml >bench/aa/aa-slow.yaml
trap 'stop_hog; rm -f bench/aa/aa-slow.yaml; [ -n "${AA_KEEP:-}" ] || rm -rf "$tmp"' EXIT
i=1
while [ "$i" -le "$K" ]; do
    for rev in a b; do
        d="$tmp/$rev$i"
        y=bench/aa/aa.yaml
        [ "$rev" = b ] && y=bench/aa/aa-slow.yaml
        if [ -z "${AA_REUSE:-}" ] || [ ! -f "$d/trials.csv" ]; then
            echo "bench/aa.sh: run $rev$i of $K ..." >&2
            rm -rf "$d"
            "$RUNNER" --quiet --no-plots --no-history --run-dir "$d" "$y" >&2
        fi
    done
    # x1.25: every sample 1.25 times slower, medians recomputed by compare
    d="$tmp/a$i-x1.25"
    mkdir -p "$d"
    awk -F, -v OFS=, 'NR == 1 { print; next } $3 != "" { $3 = $3 * 1.25 } { print }' \
        "$tmp/a$i/samples.csv" >"$d/samples.csv"
    awk -F, -v OFS=, 'NR == 1 { for (c = 1; c <= NF; c++) if ($c == "median") m = c; print; next } { if (m) $m = ""; print }' \
        "$tmp/a$i/trials.csv" >"$d/trials.csv"
    cp "$tmp/a$i/meta.json" "$d/meta.json"
    i=$((i + 1))
done
stop_hog
t1=$(date +%s)

: >"$tmp/status.txt"
# cmp CASE OLD... -- NEW...: one line "CASE rc slower faster same inconclusive busy lua"
cmp() {
    c=$1
    shift
    rc=0
    # shellcheck disable=SC2086 # ARGS holds several options
    "$RUNNER" compare "$@" --ignore scale --format csv $ARGS >"$tmp/cmp.csv" 2>"$tmp/cmp.err" || rc=$?
    awk -F, -v c="$c" -v rc="$rc" 'NR == 1 { for (k = 1; k <= NF; k++) { if ($k == "verdict") v = k; if ($k == "target") t = k }; next }
        { n[$v]++ } $t == "lua loop" { lua = $v }
        END { printf "%s %d %d %d %d %d %d %s\n", c, rc, n["slower"], n["faster"], n["same"],
              n["inconclusive"], n["busy"] + n["throttled"], lua ? lua : "-" }' "$tmp/cmp.csv" \
        >>"$tmp/status.txt"
}
i=1
while [ "$i" -le "$K" ]; do
    j=$((i + 1))
    while [ "$j" -le "$K" ]; do
        cmp aa "$tmp/a$i" "$tmp/a$j"
        cmp x1.25 "$tmp/a$i" "$tmp/a$j-x1.25"
        cmp slow1 "$tmp/a$i" "$tmp/b$j"
        m=1
        while [ "$m" -eq "$i" ] || [ "$m" -eq "$j" ]; do m=$((m + 1)); done
        cmp slow3 "$tmp/a$i" "$tmp/a$j" "$tmp/a$m" -- "$tmp/b$i" "$tmp/b$j" "$tmp/b$m"
        j=$((j + 1))
    done
    i=$((i + 1))
done
# A/A with 3 runs a side: the 10 ways of splitting the first six unchanged
# runs into two threes (the three holding run 1 is OLD)
if [ "$K" -ge 6 ]; then
    for j in 2 3 4 5 6; do
        for m in 3 4 5 6; do
            [ "$m" -gt "$j" ] || continue
            rest=""
            for k in 2 3 4 5 6; do
                [ "$k" = "$j" ] || [ "$k" = "$m" ] || rest="$rest $tmp/a$k"
            done
            # shellcheck disable=SC2086 # rest holds three folders
            cmp aa3 "$tmp/a1" "$tmp/a$j" "$tmp/a$m" -- $rest
        done
    done
fi
t2=$(date +%s)

echo "bench/aa.sh: K = $K runs a revision of bench/aa/aa.yaml, busy: ${AA_BUSY:-0}${ARGS:+, compare $ARGS};" \
    "runs $((t1 - t0)) s, compares $((t2 - t1)) s"
printf '%-28s %-8s %-8s %-8s %-8s  %-7s %-7s %-7s %-7s %-7s  %s\n' case pairs "exit 0" "exit 1" "exit 3" \
    slower faster same inconcl busy "lua trial slower"
awk '{ p[$1]++; e[$1, $2]++; s[$1] += $3; f[$1] += $4; m[$1] += $5; q[$1] += $6; b[$1] += $7; if ($8 == "slower") l[$1]++ }
    END { split("aa aa3 x1.25 slow1 slow3", cs, " ");
          name["aa"] = "A/A, 1 run a side"; name["aa3"] = "A/A, 3 runs a side"; name["x1.25"] = "x1.25 samples, 1 run a side";
          name["slow1"] = "Lua 1.5x, 1 run a side"; name["slow3"] = "Lua 1.5x, 3 runs a side";
          for (i = 1; i <= 5; i++) { c = cs[i]; if (!p[c]) continue;
              printf "%-28s %-8d %-8d %-8d %-8d  %-7d %-7d %-7d %-7d %-7d  %d of %d\n", name[c], p[c],
                  e[c, 0], e[c, 1], e[c, 3], s[c], f[c], m[c], q[c], b[c], l[c], p[c] } }' "$tmp/status.txt"
awk '$1 == "aa" { pairs++; if ($2 == 1) e1++; v += $3 + $4; n += $3 + $4 + $5 + $6 + $7 }
    $1 == "slow3" { s3++; if ($8 == "slower") l3++ }
    ($1 == "slow1" || $1 == "x1.25") && $2 == 0 { zero++ }
    END { ok = e1 * 15 <= pairs && v * 20 <= n && l3 * 15 >= 14 * s3 && !zero
          printf "targets: A/A exit 1 in %d of %d pairs (at most 1 in 15), %d of %d verdicts slower/faster (at most 5 %%); " \
                 "Lua 1.5x slower in %d of %d pairs of 3 runs (at least 14 in 15); %d pairs of 1.5x or x1.25 exit 0 (none): %s\n",
                 e1, pairs, v, n, l3, s3, zero + 0, ok ? "met" : "NOT met"
          exit !ok }' "$tmp/status.txt"
