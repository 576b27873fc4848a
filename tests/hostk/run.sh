#!/usr/bin/env bash
# tests/hostk/run.sh BUILD - the CUDA backend's GPU code on the CPU
# (doc/contributing/testing.md#gpu-code-on-the-cpu), no GPU needed:
#   1. the element-wise kernels compiled as host code (ew_host.cc) under
#      AddressSanitizer and UBSan (alignment included): must pass;
#   2. the same with each seeded fault (elementwise.h RN_SEED_FAULT):
#        1 the tail one element short   -> a mismatch
#        2 the vector path on 4 bytes   -> UBSan: misaligned address
#        3 a missing bound check        -> ASan: heap-buffer-overflow
#      each must fail, and for its own reason;
#   3. mlp_train's kernels (mlp_kernels.h) the same way (mlp_host.cc);
#   4. the batch timer (timer.cu) against a mock device clock
#      (timer_host.cc), replaying a trial's warm-ups, batch probes, steady
#      rounds and timed batches;
#   5. 2^31 + 7 floats through the kernels in place (--large), when the
#      machine has the memory (HOSTK_LARGE=0 skips it, =1 insists).
# Prints one line per part; exit 0 when all hold.
set -u
cd "$(dirname "$0")/../.."
B=${1:-build}/hostk
mkdir -p "$B"
CXX=${CXX:-g++}
SAN="-fsanitize=address,undefined,alignment -fno-sanitize-recover=all -fno-omit-frame-pointer"
FLAGS="-std=c++20 -O2 -g -Wall -Wextra -Werror -Wno-unknown-pragmas -DRN_HOST_KERNELS -Ibackends -Irunner"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fail=0
build() { # OUT SRC EXTRA...
  local out=$1 src=$2; shift 2
  $CXX $FLAGS $SAN "$@" "$src" -o "$out" 2>"$out.log" || { echo "hostk: FAILED: cannot build $out"; cat "$out.log"; return 1; }
}
# the four builds of ew_host in parallel (make -j runs this script as one job)
EW="-DRN_EW_MAX_BLOCKS=rn_host_max_blocks"
pids=()
for f in 0 1 2 3; do
  build "$B/ew_host_$f" tests/hostk/ew_host.cc $EW -DRN_SEED_FAULT=$f & pids+=($!)
done
build "$B/timer_host" tests/hostk/timer_host.cc -Itests/hostk/mock -Ibackends/cuda & pids+=($!)
build "$B/mlp_host" tests/hostk/mlp_host.cc -Ibackends/cuda & pids+=($!)
for p in "${pids[@]}"; do wait "$p" || fail=1; done
[ $fail -eq 0 ] || exit 1

s=$(date +%s)
if "$B/ew_host_0" >"$B/ew_host_0.out" 2>&1; then
  echo "hostk: element-wise kernels on the host: $(tail -1 "$B/ew_host_0.out") ($(( $(date +%s) - s )) s)"
else
  echo "hostk: FAILED: element-wise kernels on the host"; tail -30 "$B/ew_host_0.out"; fail=1
fi
want=("" "y\[[0-9]*\] = -*nan, want" "misaligned address" "heap-buffer-overflow")
what=("" "the tail one element short" "the vector path on 4-byte alignment" "a missing bound check")
for f in 1 2 3; do
  "$B/ew_host_$f" >"$B/ew_host_$f.out" 2>&1; rc=$?
  if [ $rc -ne 0 ] && grep -q "${want[$f]}" "$B/ew_host_$f.out"; then
    echo "hostk: seeded fault $f (${what[$f]}) caught: $(grep -m1 -o "${want[$f]}.*" "$B/ew_host_$f.out" | cut -c1-90)"
  else
    echo "hostk: FAILED: seeded fault $f (${what[$f]}) not caught (exit $rc)"; tail -20 "$B/ew_host_$f.out"; fail=1
  fi
done
if "$B/mlp_host" >"$B/mlp_host.out" 2>&1; then
  echo "hostk: $(tail -1 "$B/mlp_host.out")"
else
  echo "hostk: FAILED: mlp_train's kernels on the host"; tail -20 "$B/mlp_host.out"; fail=1
fi
if "$B/timer_host" >"$B/timer_host.out" 2>&1; then
  echo "hostk: batch timer on a mock device clock: $(tail -1 "$B/timer_host.out")"
else
  echo "hostk: FAILED: batch timer on a mock device clock"; tail -30 "$B/timer_host.out"; fail=1
fi

# 2^31 + 7 floats: 8.6 GB in place; without the sanitizers (their shadow
# would add more), UBSan's alignment check kept
avail=$(awk '/^MemAvailable:/{print int($2 / 1048576)}' /proc/meminfo 2>/dev/null || echo 0)
if [ "${HOSTK_LARGE:-auto}" = 0 ] || { [ "${HOSTK_LARGE:-auto}" = auto ] && [ "$avail" -lt 14 ]; }; then
  echo "hostk: 2^31 + 7 elements: skipped (HOSTK_LARGE=${HOSTK_LARGE:-auto}, ${avail} GiB available, 14 wanted; HOSTK_LARGE=1 insists)"
else
  s=$(date +%s)
  $CXX $FLAGS -fsanitize=alignment -fno-sanitize-recover=all tests/hostk/ew_host.cc -o "$B/ew_large" \
    && "$B/ew_large" --large >"$B/ew_large.out" 2>&1 \
    && echo "hostk: 2^31 + 7 elements: $(grep -c 'every element right' "$B/ew_large.out") paths right, none past the end written ($(( $(date +%s) - s )) s)" \
    || { echo "hostk: FAILED: 2^31 + 7 elements"; cat "$B/ew_large.out"; fail=1; }
fi
[ $fail -eq 0 ]
