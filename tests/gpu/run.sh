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
col()  { awk -F, -v c="$2" 'NR==1{for(i=1;i<=NF;i++) if($i==c) k=i; next} {print $k}' "$1"; }
runexp() { "$BIN" --quiet --no-plots --output "$out" "tests/gpu/$1.yaml" >"$out/$1.log" 2>&1; }

runexp workloads
t="$out/gpu_workloads/latest/trials.csv"
n=$(($(wc -l <"$t") - 1))
notok=$(awk -F, 'NR==1{for(i=1;i<=NF;i++){if($i=="status")s=i; if($i=="reason")r=i; if($i=="case")c=i; if($i=="io")o=i}; next} $s!="ok"{print $c" io="$o": "$s" "$r}' "$t")
[ "$n" -eq 54 ] && [ -z "$notok" ] && ok "every workload x dtype x io mode matches the CPU reference ($n trials)" \
  || { bad "workloads: $n trials"; echo "$notok"; }

acc=$(awk -F, 'NR==1{for(i=1;i<=NF;i++){if($i=="case")c=i; if($i=="accuracy")a=i}; next} $c=="mlp"{print $a}' "$t" | sort -n | head -1)
awk -v a="${acc:-0}" 'BEGIN{exit !(a > 0.8)}' && ok "mlp_train on CUDA learns: accuracy $acc (> 0.8) in every io mode" \
  || bad "mlp_train on CUDA: accuracy ${acc:-none}"

runexp phases
t="$out/gpu_phases/latest/trials.csv"
awk -F, 'NR==1{for(i=1;i<=NF;i++){if($i=="median")m=i; if($i=="h2d")a=i; if($i=="compute")b=i; if($i=="d2h")c=i}; next}
  {s=$a+$b+$c; r=s/$m; printf "  size %s: h2d+compute+d2h = %.4g s, total %.4g s, ratio %.3f\n", $2, s, $m, r; if (r<0.9||r>1.1) bad=1}
  END{exit bad}' "$t" && ok "phases add up to the io: with total within 10 %" || bad "phases do not add up"

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
