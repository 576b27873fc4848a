#!/bin/sh
# bench/lua.sh - what does Lua cost?  Runs bench/lua/*.yaml through bin/runner
# in one run and prints one table: the time of one tensor operation on a
# 1-element CPU tensor (100000 operations per sample: t:sin(), t + u, t * 0.5,
# t:sum():item(), and the bare Lua loop for reference), and lua/intensive.lua
# per iteration at length 1000 on one thread beside the built-in sumsq doing
# the same work.  Exit status 0 when every target is met, 1 otherwise.
#
#   sh bench/lua.sh            (from anywhere; RUNNER=path overrides bin/runner)
#
# Targets: a tensor operation < 1 us; intensive.lua < 5 us per iteration.
# Timings on a shared or virtual machine are noisy: run it twice before
# believing a failure.
set -eu
cd "$(dirname "$0")/.."
RUNNER=${RUNNER:-bin/runner}

if [ ! -x "$RUNNER" ]; then
    make -s bin/runner >&2 || {
        echo "bench/lua.sh: no $RUNNER and 'make bin/runner' failed" >&2
        exit 1
    }
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

echo "runner ..." >&2
"$RUNNER" --quiet --no-plots --output "$tmp/results" bench/lua/dispatch.yaml bench/lua/intensive.yaml >&2 ||
    echo "bench/lua.sh: the runner exited with status $? (failed trials show as 'no result')" >&2

. "$(dirname "$0")/lib.sh"

for name in dispatch intensive; do
    csv="$tmp/results/bench-lua-$name/latest/trials.csv"
    if [ -f "$csv" ]; then
        case $name in
        dispatch) csv_cols "$csv" op size status median min >"$tmp/$name.txt" ;;
        intensive) csv_cols "$csv" impl size status median min >"$tmp/$name.txt" ;;
        esac
    else
        echo "bench/lua.sh: no results for bench-lua-$name ($csv)" >&2
        : >"$tmp/$name.txt"
    fi
done

awk '
function row(measure, median, min, target, ok) {
    printf "%-36s %12s %12s %10s  %s\n", measure, median, min, target, ok
    if (ok == "fail") failed = 1
}
FILENAME ~ /dispatch.txt$/ { if ($3 == "ok") { d[$1] = $4 / $2; dmin[$1] = $5 / $2 }; next }
FILENAME ~ /intensive.txt$/ { if ($3 == "ok") { it[$1] = $4 / $2; itmin[$1] = $5 / $2 }; next }
END {
    printf "%-36s %12s %12s %10s  %s\n", "measure (1 CPU thread)", "median", "min", "target",
        "result"
    split("sin add scalar item none", ops, " ")
    label["sin"] = "t:sin(), 1 element, ns/op"
    label["add"] = "t + u, 1 element, ns/op"
    label["scalar"] = "t * 0.5, 1 element, ns/op"
    label["item"] = "t:sum():item(), 1 element, ns/iter"
    label["none"] = "bare Lua loop, ns/iteration"
    for (k = 1; k <= 5; k++) {
        o = ops[k]
        if (!(o in d)) { row(label[o], "no result", "-", o == "sin" ? "< 1000" : "-", o == "sin" ? "fail" : "-"); continue }
        tgt = o == "none" ? "-" : o == "item" ? "< 2000" : "< 1000"
        lim = o == "item" ? 2e-6 : 1e-6
        row(label[o], sprintf("%.0f", d[o] * 1e9), sprintf("%.0f", dmin[o] * 1e9), tgt,
            o == "none" ? "-" : d[o] < lim ? "pass" : "fail")
    }
    if ("lua" in it)
        row("intensive.lua, length 1000, us/iter", sprintf("%.3f", it["lua"] * 1e6),
            sprintf("%.3f", itmin["lua"] * 1e6), "< 5", it["lua"] < 5e-6 ? "pass" : "fail")
    else row("intensive.lua, length 1000, us/iter", "no result", "-", "< 5", "fail")
    if ("builtin" in it) {
        row("built-in sumsq, same work, us/iter", sprintf("%.3f", it["builtin"] * 1e6),
            sprintf("%.3f", itmin["builtin"] * 1e6), "-", "-")
        if ("lua" in it)
            row("Lua / built-in", sprintf("%.2f", it["lua"] / it["builtin"]), "-", "-", "-")
    }
    exit failed
}' "$tmp/dispatch.txt" "$tmp/intensive.txt"
