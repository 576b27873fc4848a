#!/usr/bin/env bash
# bench/gpu.sh - the runner's GPU numbers against bare CUDA loops and PyTorch,
# measured in one run.  Needs a CUDA device; prints one table.
# RUNNER_BIN names a runner already built (the acceptance script sets it);
# otherwise this builds bin/runner.
set -u
cd "$(dirname "$0")/.."
BIN=${RUNNER_BIN:-bin/runner}
[ -n "${RUNNER_BIN:-}" ] || make -s bin/runner cuda >/dev/null || exit 1
if ! "$BIN" list devices | grep -q '^cuda:'; then
  echo "bench/gpu.sh: skipped: no CUDA device: $("$BIN" list devices | grep '^cuda')"; exit 0
fi
mkdir -p build/bench
nvcc -O2 -std=c++17 -gencode=arch=compute_90,code=sm_90 -gencode=arch=compute_80,code=sm_80 \
  bench/bare_gpu.cu -o build/bench/bare_gpu -lcublas || exit 1
out=$(mktemp -d)
"$BIN" --quiet --no-plots --output "$out" bench/gpu/matmul.yaml bench/gpu/sin.yaml bench/gpu/noop.yaml \
  bench/gpu/sin_torch.yaml bench/gpu/sin_10us.yaml
# 200 tiny CUDA trials (matmul n = 1..200, 5 repeats each): what a sweep of
# short trials costs end to end (workers, warmups, writing results)
t0=$(date +%s.%N)
"$BIN" --quiet --no-plots --output "$out" bench/gpu/tiny_matmul.yaml
tiny=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{print b-a}')
bare=$(build/bench/bare_gpu) || { echo "bench/gpu.sh: bare_gpu failed"; exit 1; }
torch=$(python3 bench/gpu/torch_ref.py 2>/dev/null || true)
# med STUDY KEY VALUE [COLUMN]: a trials.csv value of the trial whose KEY is VALUE
# (these trials.csv files hold no commas inside fields; nothing when the column is absent)
med() { awk -F, -v k="$2" -v v="$3" -v c="${4:-median}" 'NR==1{for(i=1;i<=NF;i++){if($i==k)z=i; if($i==c)m=i}; next} m&&(k==""||$z==v){print $m}' "$out/$1/latest/trials.csv" | head -1; }
get() { echo "$1" | awk -v k="$2" -v s="$3" '$1==k && $2==s {print $3}'; }
printf '%-46s %12s %12s %8s %s\n' measure runner reference ratio target
row() { awk -v m="$1" -v a="$2" -v b="$3" -v t="$4" -v inv="${5:-0}" 'BEGIN{r=(a>0&&b>0)?(inv?a/b:b/a):0; printf "%-46s %12.4g %12.4g %8.3f %s\n", m, a, b, r, t}'; }
gf() { awk -v n="$1" -v s="$2" 'BEGIN{if (s>0) print 2*n^3/s/1e9; else print 0}'; }
for n in 1024 2048 4096 8192; do
  r=$(med bench_gpu_matmul size $n); b=$(get "$bare" sgemm $n)
  row "sgemm n=$n GFLOP/s (runner vs bare cuBLAS)" "$(gf $n "$r")" "$(gf $n "$b")" ">= 0.95" 1
  rd=$(med bench_gpu_matmul size $n device_median)
  [ -n "$rd" ] && row "sgemm n=$n GFLOP/s device time vs bare" "$(gf $n "$rd")" "$(gf $n "$b")" ">= 0.95" 1
  t=$(get "$torch" torch_matmul $n); [ -n "$t" ] && row "sgemm n=$n seconds (runner vs PyTorch)" "$r" "$t" ">= 0.95 (no slower)"
done
n28=268435456
s=$(med bench_gpu_sin fused true); d=$(get "$bare" d2d 1073741824)
row "fused 4x sin 2^28 GB/s (vs d2d copy GB/s)" "$(awk -v s="$s" 'BEGIN{print 2*4*2^28/s/1e9}')" "$(awk -v s="$d" 'BEGIN{print 2*2^30/s/1e9}')" ">= 0.80" 1
b4=$(get "$bare" sin4 $n28)
row "fused 4x sin 2^28 seconds (runner vs bare)" "$s" "$b4" ">= 0.95"
u=$(med bench_gpu_sin fused false)
t=$(get "$torch" torch_sin4_unfused $n28); [ -n "$t" ] && row "unfused 4x sin 2^28 seconds (runner vs PyTorch)" "$u" "$t" ">= 0.95 (no slower)"
# device time against PyTorch timed as it times itself: one pair of events
# around back-to-back calls (doc/timing.md#how-a-trial-is-timed, step 6)
n24=16777216
for z in "$n24 bench_gpu_sin_torch" "$n28 bench_gpu_sin"; do
  set -- $z
  if [ "$1" = "$n28" ]; then u=$(med "$2" fused false device_median); else u=$(med "$2" size "$1" device_median); fi
  t=$(get "$torch" torch_sin4_out_b2b "$1")
  [ -n "$t" ] && row "unfused 4x sin 2^$(awk -v n="$1" 'BEGIN{print log(n)/log(2)}'), device s vs torch out=" "$u" "$t" ">= 0.95 (no slower)"
done
t=$(get "$torch" torch_matmul_b2b 1024)
[ -n "$t" ] && row "sgemm n=1024 device s (vs PyTorch b2b events)" "$(med bench_gpu_matmul size 1024 device_median)" "$t" ">= 0.95 (no slower)"
t=$(get "$torch" torch_sin1_out_b2b 4194304)
[ -n "$t" ] && row "~10 us kernel: sin 2^22 device s (runner vs torch)" "$(med bench_gpu_sin_10us '' '' device_median)" "$t" ">= 0.95 (no slower)"
ntiny=$(awk -F, 'NR==1{for(i=1;i<=NF;i++) if($i=="status") c=i; next} c && $c=="ok"{n++} END{print n+0}' \
  "$out/bench_gpu_tiny_matmul/latest/trials.csv" 2>/dev/null)
printf '%-46s %12.4g %12s %8s %s\n' "tiny matmul sweep, 200 trials x 5: wall s" "$tiny" "$ntiny ok" "" "info"
row "empty launch + sync, us (runner vs bare)" "$(awk -v s="$(med bench_gpu_noop '' '')" 'BEGIN{print s*1e6}')" "$(awk -v s="$(get "$bare" launch_sync 1)" 'BEGIN{print s*1e6}')" "info" 1
# event vs host time for samples of 1 ms and more
awk -F, 'NR==1{for(i=1;i<=NF;i++){if($i=="seconds")w=i; if($i=="device_seconds")e=i}; next}
  $e>=0.001 && $w>0 {d=($w-$e)/$e; if(d<0)d=-d; if(d>x)x=d; n++}
  END{printf "%-46s %12s %12s %8.3f %s\n", "event vs host time, worst rel. diff (>= 1 ms)", n" samples", "", x, "<= 0.05"}' \
  "$out/bench_gpu_matmul/latest/samples.csv"
[ -n "${BENCH_KEEP:-}" ] && cp -r "$out"/. "$BENCH_KEEP"/
rm -rf "$out"
