#!/bin/sh
# bench/aa.sh - A/A calibration of `runner compare`
# (doc/compare.md#comparing-runs; issue 16).  Runs bench/aa.yaml (14 trials) N times unchanged
# (default 5), compares every pair of runs (N (N - 1) / 2 pairs: A/A, a
# `slower` or `faster` verdict is a false positive), then every pair again with
# the NEW run's samples scaled by 1.10 and by 1.25 (an injected slowdown that
# should be found).  Prints, per case, the pairs with any flagged trial, the
# trials flagged, and the rates; trials that compare calls `busy` or
# `throttled` (run on a busy machine or a throttled CPU or GPU: no verdict)
# are counted apart and are in neither rate (AA_COMPARE_ARGS=--busy-ok
# judges them too).
#
#   sh bench/aa.sh [N]          (from anywhere; RUNNER=path overrides bin/runner;
#                                AA_COMPARE_ARGS adds options, e.g. --noise-floor 5;
#                                AA_KEEP=DIR keeps the runs there; AA_BUSY=K runs K
#                                busy loops during the even-numbered runs, a busy
#                                machine for half of each pair or more)
#
# The last line gives compare's exit statuses per case: on unchanged code a
# gate must never see 1 (slower); 3 (busy or throttled, none slower) is
# what a busy machine should give.
#
# Exit status 0 when at most 1 pair in 10 has a false positive and 1.25x is
# detected in every judged (not `busy` or `throttled`) trial of every pair, 1
# otherwise (also when no trial was judged).  On a shared machine
# the figures move from one invocation to the next: say what else ran.
set -eu
cd "$(dirname "$0")/.."
RUNNER=${RUNNER:-bin/runner}
N=${1:-5}
ARGS=${AA_COMPARE_ARGS:-}
if [ ! -x "$RUNNER" ]; then
    make -s bin/runner >&2 || { echo "bench/aa.sh: no $RUNNER" >&2; exit 1; }
fi
# the busy loops of AA_BUSY, stopped after each run and on any exit
hogs=""
stop_hogs() {
    for h in $hogs; do kill "$h" 2>/dev/null || true; done
    hogs=""
}
if [ -n "${AA_KEEP:-}" ]; then
    tmp=$AA_KEEP
    mkdir -p "$tmp"
    trap 'stop_hogs' EXIT
else
    tmp=$(mktemp -d)
    trap 'stop_hogs; rm -rf "$tmp"' EXIT
fi
trap 'exit 130' INT TERM
rm -f "$tmp/status.txt"

i=1
while [ "$i" -le "$N" ]; do
    echo "bench/aa.sh: run $i of $N ..." >&2
    if [ "${AA_BUSY:-0}" -gt 0 ] && [ $((i % 2)) -eq 0 ]; then
        k=0
        while [ "$k" -lt "$AA_BUSY" ]; do
            sh -c 'while :; do :; done' &
            hogs="$hogs $!"
            k=$((k + 1))
        done
    fi
    [ -n "${AA_REUSE:-}" ] && [ -f "$tmp/run$i/trials.csv" ] ||
        "$RUNNER" --quiet --no-plots --run-dir "$tmp/run$i" bench/aa.yaml >&2
    stop_hogs
    for f in 1.10 1.25; do
        # a copy whose every sample is f times slower; the medians are
        # recomputed by compare from samples.csv (median column emptied)
        d="$tmp/run$i-x$f"
        mkdir -p "$d"
        awk -F, -v OFS=, -v f="$f" 'NR == 1 { print; next } $3 != "" { $3 = $3 * f } { print }' \
            "$tmp/run$i/samples.csv" >"$d/samples.csv"
        awk -F, -v OFS=, 'NR == 1 { for (c = 1; c <= NF; c++) if ($c == "median") m = c; print; next }
            { if (m) $m = ""; print }' "$tmp/run$i/trials.csv" >"$d/trials.csv"
    done
    i=$((i + 1))
done

# compare OLD NEW: prints "flagged compared busy" (trials slower or faster
# among those judged, and those `busy` or `throttled`)
cmp() {
    # shellcheck disable=SC2086 # ARGS holds several options
    rc=0
    "$RUNNER" compare "$1" "$2" --format csv $ARGS >"$tmp/cmp.csv" 2>"$tmp/cmp.err" || rc=$?
    echo "$3 $rc" >>"$tmp/status.txt"
    awk -F, 'NR == 1 { for (c = 1; c <= NF; c++) if ($c == "verdict") v = c; next }
        $v == "same" { n++ } $v == "slower" || $v == "faster" { n++; k++ } $v == "busy" || $v == "throttled" { b++ }
        END { printf "%d %d %d\n", k + 0, n + 0, b + 0 }' "$tmp/cmp.csv"
}

pairs=0
for case in aa 1.10 1.25; do
    eval "pf_$(echo $case | tr . _)=0; tf_$(echo $case | tr . _)=0; tn_$(echo $case | tr . _)=0; tb_$(echo $case | tr . _)=0"
done
i=1
while [ "$i" -le "$N" ]; do
    j=$((i + 1))
    while [ "$j" -le "$N" ]; do
        pairs=$((pairs + 1))
        for case in aa 1.10 1.25; do
            new="$tmp/run$j"
            [ "$case" = aa ] || new="$tmp/run$j-x$case"
            set -- $(cmp "$tmp/run$i" "$new" "$case")
            v=$(echo $case | tr . _)
            eval "tf_$v=\$((tf_$v + $1)); tn_$v=\$((tn_$v + $2)); tb_$v=\$((tb_$v + $3))"
            [ "$1" -gt 0 ] && eval "pf_$v=\$((pf_$v + 1))"
            [ "$case" = aa ] && [ "$1" -gt 0 ] &&
                echo "bench/aa.sh: A/A run$i vs run$j: $1 of $2 trials flagged" >&2
        done
        j=$((j + 1))
    done
    i=$((i + 1))
done

rate() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f %%", b ? 100 * a / b : 0 }'; }
echo "A/A calibration: $N runs of bench/aa.yaml, $pairs pairs${ARGS:+, compare $ARGS}"
printf '%-22s %-28s %-30s %s\n' case "pairs with a flagged trial" "trials flagged" "busy or throttled (no verdict)"
printf '%-22s %-28s %-30s %s\n' "A/A (false positive)" "$pf_aa of $pairs" "$tf_aa of $tn_aa ($(rate "$tf_aa" "$tn_aa"))" "$tb_aa"
printf '%-22s %-28s %-30s %s\n' "x1.10 (detection)" "$pf_1_10 of $pairs" "$tf_1_10 of $tn_1_10 ($(rate "$tf_1_10" "$tn_1_10"))" "$tb_1_10"
printf '%-22s %-28s %-30s %s\n' "x1.25 (detection)" "$pf_1_25 of $pairs" "$tf_1_25 of $tn_1_25 ($(rate "$tf_1_25" "$tn_1_25"))" "$tb_1_25"
for case in aa 1.10 1.25; do
    printf '%s ' "exit status, $case:"
    awk -v c="$case" '$1 == c { n[$2]++ } END { for (s in n) printf "%s: %d pair(s)  ", s, n[s]; print "" }' \
        "$tmp/status.txt"
done
[ $((pf_aa * 10)) -le "$pairs" ] && [ "$tf_1_25" -eq "$tn_1_25" ] && [ "$tn_1_25" -gt 0 ]
