#!/bin/sh
# bench/yaml-limits.sh - how long `runner validate` takes on hostile
# experiment files just under the 16 MiB cap (doc/experiment-file.md#errors):
# deep nesting (refused at the 65th level), the deepest nesting allowed
# repeated, a flat list, many keys, many anchors and aliases, many %TAG
# directives.  Each shape is one file of about SIZE MiB (default 15) whose
# content sits under an `x-` key (ignored by the loader once read), so the
# time is the YAML reading.  Prints one row per shape: bytes, exit status,
# of the run with the least CPU time of 3: wall and CPU (user + system)
# seconds and peak memory; and the first line of stderr.
#
#   sh bench/yaml-limits.sh [SIZE_MIB]      (RUNNER=path overrides bin/runner)
#
# The want: every row about a second of CPU or less.  Wall times on a
# shared machine move with what else runs: say what else ran.
set -eu
cd "$(dirname "$0")/.."
RUNNER=${RUNNER:-bin/runner}
MIB=${1:-15}
if [ ! -x "$RUNNER" ]; then
    make -s bin/runner >&2 || { echo "bench/yaml-limits.sh: no $RUNNER" >&2; exit 1; }
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 - "$tmp" "$MIB" <<'EOF'
import sys
out, mib = sys.argv[1], float(sys.argv[2])
size = int(mib * 1024 * 1024)
head = "workload: noop\n"
def rep(unit, lead="", tail=""):
    n = max(1, (size - len(head) - len(lead) - len(tail)) // len(unit))
    return head + lead + unit * n + tail
shapes = {
    "deep-flow-list": head + "x-a: " + "[" * (size // 2 - 20) + "]" * (size // 2 - 20) + "\n",
    "deep-flow-map": head + "x-a: " + "{a: " * (size // 8) + "1" + "}" * (size // 8) + "\n",
    "depth-64-lists": rep("[" * 62 + "1" + "]" * 62 + ",", "x-a: [", "]\n"),
    "depth-64-maps": rep("{a: " * 62 + "1" + "}" * 62 + ",", "x-a: [", "]\n"),
    "flat-list": rep("1,", "x-a: [", "1]\n"),
    "many-keys": head + "".join("x-k%d: 1\n" % i for i in range(size // 14)),
    "many-anchors": head + "x-a:\n" + "".join("  - &a%d 1\n" % i for i in range(size // 26))
                    + "x-b:\n" + "".join("  - *a%d\n" % i for i in range(size // 26)),
    "many-directives": "".join("%%TAG !t%d! tag:x,2000:\n" % i for i in range(size // 26))
                       + "---\n" + head,
}
for name, text in shapes.items():
    open("%s/%s.yaml" % (out, name), "w").write(text)
EOF

printf '%-16s %10s %3s %8s %8s %7s  %s\n' shape bytes rc wall_s cpu_s peak_MB "first line of stderr"
for f in "$tmp"/*.yaml; do
    name=$(basename "$f" .yaml)
    best=
    for _ in 1 2 3; do
        rc=0
        /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$RUNNER" validate "$f" >/dev/null 2>"$tmp/err" || rc=$?
        set -- $(tail -1 "$tmp/time")
        cpu=$(echo "$2 + $3" | bc)
        if [ -z "$best" ] || [ "$(echo "$cpu < $best" | bc)" = 1 ]; then
            best=$cpu wall=$1 mb=$(($4 / 1024))
        fi
    done
    printf '%-16s %10s %3s %8.2f %8.2f %7s  %s\n' "$name" "$(wc -c <"$f")" "$rc" "$wall" "$best" "$mb" \
        "$(head -1 "$tmp/err" | sed "s|$tmp/||" | cut -c1-60)"
done
