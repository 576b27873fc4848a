#!/usr/bin/env bash
# make test-gpu: the GPU checks.  Without a CUDA device: one skip line, exit 0.
set -u
cd "$(dirname "$0")/../.."
BIN=${RUNNER_BIN:-bin/runner}
dev=$("$BIN" list devices | grep '^cuda')
case "$dev" in
  cuda:*) ;;
  *) echo "test-gpu: skipped: ${dev#*none: }"; exit 0 ;;
esac
echo "test-gpu on: $dev"
out=$(mktemp -d)
pass=0 fail=0
ok()   { pass=$((pass + 1)); echo "PASS $1"; }
bad()  { fail=$((fail + 1)); echo "FAIL $1"; }
# col FILE COLUMN: one value per row; a real CSV reader (labels and reasons hold commas)
col()  { python3 -c 'import csv,sys
for r in csv.DictReader(open(sys.argv[1])): print(r.get(sys.argv[2], ""))' "$1" "$2"; }
# rows FILE COL...: the named columns of every row, separated by "|"
rows() { python3 -c 'import csv,sys
for r in csv.DictReader(open(sys.argv[1])): print("|".join(r.get(c, "") for c in sys.argv[2:]))' "$@"; }
runexp() { "$BIN" --quiet --no-plots --output "$out" "tests/gpu/$1.yaml" >"$out/$1.log" 2>&1; }

runexp workloads
t="$out/gpu_workloads/latest/trials.csv"
n=$(($(wc -l <"$t") - 1))
notok=$(rows "$t" case io status reason | awk -F'|' '$3!="ok"{print $1" io="$2": "$3" "$4}')
[ "$n" -eq 54 ] && [ -z "$notok" ] && ok "every workload x dtype x io mode matches the CPU reference ($n trials)" \
  || { bad "workloads: $n trials"; echo "$notok"; }

acc=$(rows "$t" case accuracy | awk -F'|' '$1=="mlp"{print $2}' | sort -n | head -1)
awk -v a="${acc:-0}" 'BEGIN{exit !(a > 0.8)}' && ok "mlp_train on CUDA learns: accuracy $acc (> 0.8) in every io mode" \
  || bad "mlp_train on CUDA: accuracy ${acc:-none}"

runexp phases
t="$out/gpu_phases/latest/trials.csv"
rows "$t" size median h2d compute d2h | awk -F'|' '
  {s=$3+$4+$5; r=s/$2; printf "  size %s: h2d+compute+d2h = %.4g s, total %.4g s, ratio %.3f\n", $1, s, $2, r; if (r<0.9||r>1.1) bad=1}
  END{exit bad}' && ok "phases add up to the io: with total within 10 %" || bad "phases do not add up"

runexp oversized
t="$out/gpu_oversized/latest/trials.csv"
r=$(col "$t" reason | tail -1); s=$(col "$t" status | tail -1)
[ "$s" = skipped ] && echo "$r" | grep -q '^needs .* available' && ok "oversized trial skipped: $r" || bad "oversized: $s $r"

runexp faults
t="$out/gpu_faults/latest/trials.csv"
st=$(col "$t" status | tr '\n' ' ')
[ "$st" = "ok failed ok failed ok " ] && ok "a faulting kernel fails its trial, the next passes" || bad "faults: $st"
col "$t" reason | grep -v '^$' | sed 's/^/  /'

runexp selftest
t="$out/gpu_selftest/latest/trials.csv"
st=$(col "$t" status | tr '\n' ' ')
[ "$st" = "timeout ok failed ok failed ok failed ok " ] \
  && ok "a spinning kernel stops at its timeout; segfault, abort, exit recorded; the next trial passes" \
  || bad "selftest: $st"
col "$t" reason | grep -v '^$' | sed 's/^/  /'

if [ -f tests/gpu/lua.yaml ]; then
  runexp lua
  t="$out/gpu_lua/latest/trials.csv"
  st=$(col "$t" status | sort -u | tr '\n' ' ')
  [ "$st" = "ok " ] && ok "Lua tensor API on CUDA matches the CPU" || bad "lua on cuda: $st"
fi
rm -rf "$out"
echo "test-gpu: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
