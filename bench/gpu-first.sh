#!/usr/bin/env bash
# bench/gpu-first.sh [OUTDIR] - the first call on a GPU machine (make
# gpu-first; doc/contributing/testing.md#gpu-first): what has never run on a
# GPU, checked before anything else, in under 5 minutes, on one screen:
#   1. memcheck   every element-wise path (bench/gpu/first-ewise.yaml:
#                 nested_sin unfused and fused, axpb; f32, f64; io with,
#                 without, overlap; sizes 1 to 4095) under compute-sanitizer,
#                 each trial's output checked against the CPU's;
#   2. workloads, large, lua   tests/gpu's runs of those names, every trial
#                 ok (tests/gpu/checks.sh);
#   3. bench      bench/gpu.sh, its device-time rows against PyTorch.
# OUTDIR (default build/gpu-first) gets at most 8 files: summary.txt (the
# screen), gpu-first.log (every part's output), bench.txt, results.tar.gz
# (the run folders).  Without a GPU: one line, exit 3, nothing run.  From a
# bare checkout: the runner from .deps.tar.xz (make gpu-bundle) or a build.
# RUNNER_BIN names a runner already built; GPU_FIRST_SECONDS the budget (285).
set -u
cd "$(dirname "$0")/.."
t0=$(date +%s)
if ! nvidia-smi -L >/dev/null 2>&1 && [ ! -e /dev/nvidia0 ]; then
  echo "gpu-first: needs a CUDA GPU; this machine has none (nvidia-smi finds no device, no /dev/nvidia0): nothing was checked"
  exit 3
fi
OUT=${1:-build/gpu-first}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || exit 2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
log=$OUT/gpu-first.log summary=$OUT/summary.txt
: >"$log"; : >"$summary"
budget=${GPU_FIRST_SECONDS:-285}
left() { local l=$(( budget - ($(date +%s) - t0) )); [ "$l" -lt "$1" ] && echo $(( l > 5 ? l : 5 )) || echo "$1"; }
say() { echo "$*" | tee -a "$summary"; }
section() { printf '\n===== %s =====\n' "$1" >>"$log"; }
bad=0
. tests/gpu/checks.sh

# --- set up: the carried runner (bench/gpu-bundle.sh) or a build ---------------
section setup
BIN=${RUNNER_BIN:-$PWD/bin/runner}
if [ -f .deps.tar.xz ] && ! "$BIN" --version >/dev/null 2>&1; then
  mkdir -p build/deps && tar -C build/deps -xJf .deps.tar.xz
fi
[ -d build/deps/lib ] && export LD_LIBRARY_PATH="$PWD/build/deps/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
"$BIN" --version >/dev/null 2>&1 || make -s all >>"$log" 2>&1
[ -f lib/runner-cuda.so ] || make -s cuda >>"$log" 2>&1
# cuDNN for cnn_forward: the image's PyTorch carries one
cudnn=$(ls -d /opt/torch/.venv/lib/python3*/site-packages/nvidia/cudnn/lib 2>/dev/null | head -1)
[ -n "$cudnn" ] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$cudnn"
{ "$BIN" --version; "$BIN" list devices; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,power.limit --format=csv
  command -v nvcc >/dev/null && nvcc --version | tail -1; } >>"$log" 2>&1
dev=$("$BIN" list devices 2>/dev/null | grep '^cuda' | head -1)
gpu=$(echo "$dev" | sed -n 's/^cuda:0 *//p')
if [ -z "$gpu" ]; then
  say "gpu-first: a GPU is here but the runner sees none: ${dev:-the runner does not run} (gpu-first.log)"
  cp "$log" "$OUT/" 2>/dev/null; exit 1
fi
say "gpu-first on $gpu, $("$BIN" --version 2>/dev/null | head -1)"
# part NAME STATUS DETAIL
part() { say "$(printf '%-10s %-6s %4s s  %s' "$1" "$2" "$3" "$4")"; [ "$2" = ok ] || bad=$((bad + 1)); }
# detail FILE: at most 6 lines of what a check said
detail() { head -6 "$1" | tee -a "$summary"; }

# --- 1. the element-wise paths under compute-sanitizer's memcheck -------------
section memcheck; s=$(date +%s)
res=$work/results
san=(compute-sanitizer --tool memcheck --target-processes all --error-exitcode 99)
command -v compute-sanitizer >/dev/null || san=()
timeout -k 5 "$(left 90)" "${san[@]}" "$BIN" --quiet --no-plots --output "$res" \
  bench/gpu/first-ewise.yaml >"$work/memcheck.out" 2>&1; rc=$?
cat "$work/memcheck.out" >>"$log"
t=$(newest "$res" gpu_first_ewise)
errs=$(grep -o 'ERROR SUMMARY: [0-9]* error' "$work/memcheck.out" | awk '{n+=$3} END{print n+0}')
all_ok "$t" 126 >"$work/said" 2>&1; okrc=$?
if [ ${#san[@]} -eq 0 ]; then
  part memcheck "$([ $okrc -eq 0 ] && echo NOSAN || echo FAILED)" $(( $(date +%s) - s )) \
    "no compute-sanitizer here: ran without it, $(nrows "$t") trials (126 expected), rc=$rc"
elif grep -q 'Device not supported' "$work/memcheck.out"; then
  part memcheck NOSAN $(( $(date +%s) - s )) "compute-sanitizer refuses this device (gVisor?): see gpu-first.log"
else
  part memcheck "$([ $rc -eq 0 ] && [ $okrc -eq 0 ] && [ "$errs" = 0 ] && echo ok || echo FAILED)" $(( $(date +%s) - s )) \
    "$(nrows "$t") trials (126 expected), memcheck errors: $errs, rc=$rc"
fi
detail "$work/said"
grep -m3 -A3 '========= Invalid\|========= Program hit' "$work/memcheck.out" | head -8 | tee -a "$summary"

# --- 2. tests/gpu: workloads, large, lua -----------------------------------------
for name in workloads large lua; do
  section "$name"; s=$(date +%s)
  cap=$(case $name in workloads) echo 60 ;; large) echo 40 ;; *) echo 25 ;; esac)
  timeout -k 5 "$(left $cap)" "$BIN" --quiet --no-plots --output "$res" "tests/gpu/$name.yaml" >"$work/$name.out" 2>&1; rc=$?
  cat "$work/$name.out" >>"$log"
  t=$(newest "$res" "gpu_$name")
  "check_$name" "$t" >"$work/said" 2>&1; okrc=$?
  cat "$work/said" >>"$log"
  part "$name" "$([ $okrc -eq 0 ] && echo ok || echo FAILED)" $(( $(date +%s) - s )) \
    "$(nrows "$t") trials, $(col "$t" status 2>/dev/null | sort | uniq -c | awk '{printf "%s%s %s", (NR>1?", ":""), $1, $2}'); rc=$rc"
  [ $okrc -eq 0 ] || detail "$work/said"
done

# --- 3. bench/gpu.sh: the device rows against PyTorch ---------------------------
section bench; s=$(date +%s)
RUNNER_BIN=$BIN timeout -k 5 "$(left 75)" bash bench/gpu.sh >"$OUT/bench.txt" 2>&1; rc=$?
cat "$OUT/bench.txt" >>"$log"
rowsn=$(grep -c 'PyTorch\|torch\|device' "$OUT/bench.txt")
part bench "$([ $rc -eq 0 ] && [ "$rowsn" -gt 0 ] && echo ok || echo FAILED)" $(( $(date +%s) - s )) \
  "bench/gpu.sh rc=$rc; its device rows (bench.txt has all):"
grep -m1 '^measure' "$OUT/bench.txt" | tee -a "$summary"
grep 'PyTorch\|torch\|device' "$OUT/bench.txt" | head -10 | tee -a "$summary"

[ -d "$res" ] && tar -C "$res" -czf "$OUT/results.tar.gz" . 2>/dev/null
say "gpu-first: $((5 - bad)) of 5 parts ok in $(( $(date +%s) - t0 )) s; all output in $OUT"
[ $bad -eq 0 ]
