#!/usr/bin/env bash
# bench/gpu.sh - the runner's GPU numbers against bare CUDA loops and PyTorch,
# measured in one run.  Needs a CUDA device; prints one table.
set -u
cd "$(dirname "$0")/.."
make -s bin/runner cuda >/dev/null || exit 1
if ! ./bin/runner list devices | grep -q '^cuda:'; then
  echo "bench/gpu.sh: no CUDA device: $(./bin/runner list devices | grep '^cuda')"; exit 0
fi
mkdir -p build/bench
nvcc -O2 -std=c++17 -gencode=arch=compute_90,code=sm_90 bench/bare_gpu.cu -o build/bench/bare_gpu -lcublas || exit 1
out=$(mktemp -d)
./bin/runner --quiet --no-plots --output "$out" bench/gpu/matmul.yaml bench/gpu/sin.yaml bench/gpu/noop.yaml
bare=$(build/bench/bare_gpu)
torch=$(python3 bench/gpu/torch_ref.py 2>/dev/null || true)
med() { awk -F, -v s="$2" -v c="${3:-median}" 'NR==1{for(i=1;i<=NF;i++){if($i=="size")z=i; if($i==c)m=i}; next} s==""||$z==s{print $m}' "$out/$1/latest/trials.csv" | head -1; }
get() { echo "$1" | awk -v k="$2" -v s="$3" '$1==k && $2==s {print $3}'; }
printf '%-44s %12s %12s %8s %s\n' measure runner reference ratio target
row() { awk -v m="$1" -v a="$2" -v b="$3" -v t="$4" -v inv="${5:-0}" 'BEGIN{r=(a>0&&b>0)?(inv?a/b:b/a):0; printf "%-44s %12.4g %12.4g %8.3f %s\n", m, a, b, r, t}'; }
for n in 4096 8192; do
  r=$(med bench_gpu_matmul $n); b=$(get "$bare" sgemm $n)
  row "sgemm n=$n GFLOP/s (runner vs bare cuBLAS)" "$(awk -v n=$n -v s=$r 'BEGIN{print 2*n^3/s/1e9}')" "$(awk -v n=$n -v s=$b 'BEGIN{print 2*n^3/s/1e9}')" ">= 0.95" 1
  t=$(get "$torch" torch_matmul $n); [ -n "$t" ] && row "sgemm n=$n seconds (runner vs PyTorch)" "$r" "$t" ">= 1 (no slower)"
done
s=$(med bench_gpu_sin 268435456); d=$(get "$bare" d2d 1073741824)
row "fused 4x sin 2^28 GB/s (vs d2d copy GB/s)" "$(awk -v s=$s 'BEGIN{print 2*4*2^28/s/1e9}')" "$(awk -v s=$d 'BEGIN{print 2*2^30/s/1e9}')" ">= 0.80" 1
t=$(get "$torch" torch_sin4 268435456); [ -n "$t" ] && row "4x sin 2^28 seconds (runner vs PyTorch)" "$s" "$t" ">= 1 (no slower)"
row "empty launch + sync, us (runner vs bare)" "$(awk -v s=$(med bench_gpu_noop '') 'BEGIN{print s*1e6}')" "$(awk -v s=$(get "$bare" launch_sync 1) 'BEGIN{print s*1e6}')" "info" 1
# event vs host time for kernels of 1 ms and more
awk -F, 'NR>1 && $4>=0.001 && $3>0 {d=($3-$4)/$4; if(d<0)d=-d; if(d>w)w=d; n++} END{printf "%-44s %12s %12s %8.3f %s\n", "event vs host time, worst rel. diff (>= 1 ms)", n" samples", "", w, "<= 0.05"}' "$out/bench_gpu_matmul/latest/samples.csv"
rm -rf "$out"
