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
. tests/gpu/checks.sh
ok()   { pass=$((pass + 1)); echo "PASS $1"; }
bad()  { fail=$((fail + 1)); echo "FAIL $1"; }
# runexp NAME: runs tests/gpu/NAME.yaml; t: its trials.csv (the run's own
# folder: a run with no ok trial does not move latest)
runexp() { "$BIN" --quiet --no-plots --output "$out" "tests/gpu/$1.yaml" >"$out/$1.log" 2>&1
           t=$(newest "$out" "gpu_$1"); }
# judge CHECK PASS FAIL: PASS when check_CHECK "$t" returns 0, else FAIL;
# then the lines it wrote
judge() { local said; said=$("check_$1" "$t" 2>&1) && ok "$2" || bad "$3"; [ -z "$said" ] || echo "$said"; }

runexp workloads
judge workloads "every workload x dtype x io mode matches the CPU reference (57 trials)" "workloads"
judge mlp_accuracy "mlp_train on CUDA learns: accuracy > 0.8 in every io mode" "mlp_train on CUDA: accuracy"

runexp phases
judge phases "phases add up to the io: with total within 10 %" "phases do not add up"

runexp oversized
judge oversized "oversized trial skipped" "oversized"

runexp faults
judge faults "a faulting kernel fails its trial, the next passes" "faults"

runexp selftest
judge selftest "a spinning kernel stops at its timeout; segfault, abort, exit recorded; the next trial passes" "selftest"

runexp mlp
judge mlp "mlp_train on CUDA ends at the CPU's final loss (1e-3 relative; same seed, weights, shuffles, AdamW)" \
  "mlp_train: CUDA and CPU final loss differ"

runexp concurrent
judge concurrent "concurrent: two matmul members on cuda:0 in modes sequential / threads / streams: ok (outputs checked), member times recorded, a sequential call = member1 + member2 within 25 %" \
  "concurrent with CUDA members"

runexp cold_cache
judge cold_cache "cold_cache on CUDA (L2 overwritten before each sample): matmul, nested_sin, axpb, io with/without: ok (outputs checked), 5 samples of one call each" \
  "cold_cache on CUDA"

runexp large
judge large "2^31 + 7 f32 elements (nested_sin unfused, axpb; io: without): ok, sampled check with both ends and past 2^31" \
  "more than 2^31 elements"

runexp lua
judge lua "Lua tensor API on CUDA matches the CPU element by element; ctx:rand draws identical on CPU and CUDA, ctx:randn within 1e-6" \
  "Lua tensor API on CUDA"

runexp cnn_fuse
judge cnn_fuse "cnn_forward (f32, f16, bf16, amp) within its tolerance of the f32 model; ctx:fuse on CUDA equals the unfused kernels" \
  "cnn_forward / ctx:fuse on CUDA"
rm -rf "$out"
echo "test-gpu: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
