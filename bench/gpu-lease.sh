#!/usr/bin/env bash
# bench/gpu-lease.sh OUTDIR - one device call for the code that had never
# run on a GPU (bench/NOTES-gpu.md "Still never run on a GPU"): make
# test-gpu and the GPU halves of fuse, memcpy, parallel_modes and sumsq
# through bench/gpu-acceptance.sh, then models' concurrent pairs, a trace
# of warmup.yaml's CUDA trials, and compute-sanitizer over cnn_forward and
# fuse.  Carry bin, lib and .deps.tar.xz (make gpu-bundle).
set -u
cd "$(dirname "$0")/.."
OUT=$1; mkdir -p "$OUT"
export OPENBLAS_CORETYPE=SkylakeX
cudnn=$(ls -d /opt/torch/.venv/lib/python3*/site-packages/nvidia/cudnn/lib 2>/dev/null | head -1)
export LD_LIBRARY_PATH=${cudnn}
ACCEPTANCE_NO_BENCH=1 ACCEPTANCE_STUDIES="fuse memcpy parallel_modes sumsq" \
  ACCEPTANCE_SECONDS=${LEASE_ACCEPTANCE:-290} bash bench/gpu-acceptance.sh "$OUT"
export LD_LIBRARY_PATH=$PWD/build/deps/lib:$cudnn PATH=$PWD/build/deps/bin:$PATH \
  FONTCONFIG_FILE=$PWD/build/deps/fonts.conf
log=$OUT/lease.log
{
  echo "== models: concurrent pairs (bf16)"
  s=$(date +%s)
  timeout -k 5 80 bin/runner --quiet --no-plots --output /tmp/lease/models \
    --filter 'device=cuda*' --filter 'workload=concurrent' --filter 'precision=bf16' experiments/models.yaml
  echo "rc=$? $(( $(date +%s) - s )) s"
  cat /tmp/lease/models/*/latest/trials.csv 2>/dev/null
  echo "== trace of warmup.yaml's CUDA trials"
  s=$(date +%s)
  timeout -k 5 40 bin/runner --quiet --no-plots --output /tmp/lease/warmup \
    --trace /tmp/lease/trace.json --filter 'device=cuda' experiments/warmup.yaml
  echo "rc=$? $(( $(date +%s) - s )) s"
  echo "== compute-sanitizer memcheck: cnn_forward and fuse, size 3"
  s=$(date +%s)
  timeout -k 5 ${LEASE_SANITIZER:-75} compute-sanitizer --tool memcheck --target-processes all \
    --error-exitcode 99 bin/runner --quiet --no-plots --output /tmp/lease/sanit \
    --filter size=3 tests/gpu/cnn_fuse.yaml 2>&1 | tail -40
  echo "rc=${PIPESTATUS[0]} $(( $(date +%s) - s )) s"
  cat /tmp/lease/sanit/*/latest/trials.csv 2>/dev/null | cut -c1-200
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv
} >"$log" 2>&1
tar -C /tmp/lease -czf "$OUT/lease.tar.gz" . 2>/dev/null
tail -c 6000 "$log"
