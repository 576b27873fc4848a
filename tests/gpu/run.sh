#!/usr/bin/env bash
# make test-gpu: the GPU checks.  Without a CUDA device: one skip line, exit 0.
set -u
cd "$(dirname "$0")/../.."
BIN=${RUNNER_BIN:-bin/runner}
# a runner that cannot start is a failure, not "no GPU"
"$BIN" --version >/dev/null 2>&1 || { echo "test-gpu: FAILED: $BIN does not run"; "$BIN" --version; exit 1; }
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
# runexp NAME: runs tests/gpu/NAME.yaml; t: its latest trials.csv
runexp() { "$BIN" --quiet --no-plots --output "$out" "tests/gpu/$1.yaml" >"$out/$1.log" 2>&1
           t="$out/gpu_$1/latest/trials.csv"; }
# said LINES PASS FAIL: PASS when the check just before it exited 0, else
# FAIL; then the lines the check wrote
said() { local rc=$?; [ "$rc" -eq 0 ] && ok "$2" || bad "$3"; echo "$1"; }

runexp workloads
n=$(($(wc -l <"$t") - 1))
notok=$(rows "$t" case io status reason | awk -F'|' '$3!="ok"{print $1" io="$2": "$3" "$4}')
[ "$n" -eq 57 ] && [ -z "$notok" ] && ok "every workload x dtype x io mode matches the CPU reference ($n trials)" \
  || { bad "workloads: $n trials"; echo "$notok"; }

acc=$(rows "$t" case accuracy | awk -F'|' '$1=="mlp"{print $2}' | sort -n | head -1)
awk -v a="${acc:-0}" 'BEGIN{exit !(a > 0.8)}' && ok "mlp_train on CUDA learns: accuracy $acc (> 0.8) in every io mode" \
  || bad "mlp_train on CUDA: accuracy ${acc:-none}"

runexp phases
rows "$t" size median h2d compute d2h | awk -F'|' '
  {s=$3+$4+$5; r=s/$2; printf "  size %s: h2d+compute+d2h = %.4g s, total %.4g s, ratio %.3f\n", $1, s, $2, r; if (r<0.9||r>1.1) bad=1}
  END{exit bad}' && ok "phases add up to the io: with total within 10 %" || bad "phases do not add up"

runexp oversized
# a run with no ok trial does not move latest (doc/results.md#results): its own folder
t="$(ls -d "$out"/gpu_oversized/2*/ 2>/dev/null | tail -1)trials.csv"
r=$(col "$t" reason | tail -1); s=$(col "$t" status | tail -1)
[ "$s" = skipped ] && echo "$r" | grep -q '^needs .* available' && ok "oversized trial skipped: $r" || bad "oversized: $s $r"

runexp faults
st=$(col "$t" status | tr '\n' ' ')
[ "$st" = "ok failed ok failed ok " ] && ok "a faulting kernel fails its trial, the next passes" || bad "faults: $st"
col "$t" reason | grep -v '^$' | sed 's/^/  /'

runexp selftest
st=$(col "$t" status | tr '\n' ' ')
[ "$st" = "timeout ok failed ok failed ok failed ok " ] \
  && ok "a spinning kernel stops at its timeout; segfault, abort, exit recorded; the next trial passes" \
  || bad "selftest: $st"
col "$t" reason | grep -v '^$' | sed 's/^/  /'

runexp mlp
# per batch size: the CPU's and CUDA's final loss, 1e-3 relative
mlp=$(rows "$t" size device status loss | awk -F'|' '
  $3!="ok"{print "  size "$1" on "$2": "$3; bad=1; next}
  {l[$1","$2]=$4; s[$1]=1}
  END{for (k in s) {c=l[k",cpu"]; g=l[k",cuda"]
        if (c=="" || g=="") {print "  size "k": no pair"; bad=1; continue}
        r=(g-c)/c; if (r<0) r=-r
        printf "  batch %s: loss cpu %s, cuda %s, relative difference %.2g\n", k, c, g, r
        if (!(r<=1e-3)) bad=1; n++}
      if (n<2) bad=1; exit bad}')
said "$mlp" "mlp_train on CUDA ends at the CPU's final loss (1e-3 relative; same seed, weights, shuffles, AdamW)" \
  "mlp_train: CUDA and CPU final loss differ"

runexp concurrent
conc=$(rows "$t" mode status reason median member1_seconds member2_seconds members_sum_seconds member1_alone_seconds member2_alone_seconds speedup | awk -F'|' '
  {printf "  %s: %s %s call %s s, member1 %s s, member2 %s s (alone %s, %s), speedup %s\n", $1, $2, $3, $4, $5, $6, $8, $9, $10
   if ($2!="ok" || !($4>0) || !($5>0) || !($6>0) || !($7>0) || !($8>0) || !($9>0) || !($10>0)) bad=1
   # in turn, a call is the two members one after the other
   if ($1=="sequential" && ($4/$7<0.8 || $4/$7>1.25)) {print "  sequential call / (member1 + member2) = " $4/$7; bad=1}
   n++}
  END{exit bad || n!=3}')
said "$conc" "concurrent: two matmul members on cuda:0 in modes sequential / threads / streams: ok (outputs checked), member times recorded, a sequential call = member1 + member2 within 25 %" \
  "concurrent with CUDA members"

runexp cold_cache
cc=$(rows "$t" case io cold_cache status reason samples batch_size median | awk -F'|' '
  {printf "  %s io=%s cold_cache=%s: %s %s %s samples, batch %s, median %s s\n", $1, $2, $3, $4, $5, $6, ($7==""?1:$7), $8
   if ($4!="ok" || $6!=5 || ($3=="true" && $7!="" && $7!=1)) bad=1; n++}
  END{exit bad || n!=12}')
said "$cc" "cold_cache on CUDA (L2 overwritten before each sample): matmul, nested_sin, axpb, io with/without: ok (outputs checked), 5 samples of one call each" \
  "cold_cache on CUDA"

runexp large
lg=$(rows "$t" case size status reason median | awk -F'|' '
  {printf "  %s, %s elements: %s %s %s s\n", $1, $2, $3, $4, $5; if ($3!="ok" || $2<2147483648) bad=1; n++}
  END{exit bad || n!=2}')
said "$lg" "2^31 + 7 f32 elements (nested_sin unfused, axpb; io: without): ok, sampled check with both ends" \
  "more than 2^31 elements"

if [ -f tests/gpu/lua.yaml ]; then
  runexp lua
  st=$(col "$t" status | sort -u | tr '\n' ' ')
  [ "$st" = "ok " ] && ok "Lua tensor API on CUDA matches the CPU element by element (per-op max relative error)" \
    || { bad "lua on cuda: $st"; col "$t" reason | grep -v '^$' | sed 's/^/  /'; }
  # the same draws on both devices: rand exactly, randn (Box-Muller, f32 on
  # CUDA, double on the CPU) within 1e-6 of the sum of |z|
  lua=$(rows "$t" size device rand_sum randn_abs_sum err_sin err_exp err_pow25 err_matmul err_chain | awk -F'|' '
    {r[$1","$2]=$3; z[$1","$2]=$4; s[$1]=1
     if ($2!="cpu") printf "  size %s on %s: max rel. error sin %s exp %s pow(2.5) %s matmul %s chain %s\n", $1, $2, $5, $6, $7, $8, $9}
    END{for (k in s) {c=z[k",cpu"]; g=z[k",cuda"]; d=(g-c)/c; if (d<0) d=-d
          printf "  size %s: rand sum cpu %s cuda %s; |randn| sum relative difference %.2g\n", k, r[k",cpu"], r[k",cuda"], d
          if (r[k",cpu"]=="" || r[k",cpu"]!=r[k",cuda"] || !(d<=1e-6)) bad=1; n++}
        exit bad || n!=2}')
  said "$lua" "Lua ctx:rand draws are identical on CPU and CUDA, ctx:randn within 1e-6" \
    "Lua draws differ between CPU and CUDA"
fi
runexp cnn_fuse
notok=$(rows "$t" case size status reason | awk -F'|' '$3!="ok"{print "  "$1" size "$2": "$3" "$4}')
[ -z "$notok" ] && ok "cnn_forward (f32, f16, bf16, amp) within its tolerance of the f32 model; ctx:fuse on CUDA equals the unfused kernels" \
  || { bad "cnn_forward / ctx:fuse on CUDA"; echo "$notok"; }
rows "$t" case size logit_error compile_seconds | awk -F'|' '{printf "  %s size %s: logit_error %s compile_seconds %s\n", $1, $2, $3, $4}'
rm -rf "$out"
echo "test-gpu: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
