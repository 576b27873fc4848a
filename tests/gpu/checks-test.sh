#!/usr/bin/env bash
# tests/gpu/checks-test.sh - make test-gpu's checks (tests/gpu/checks.sh)
# against fake run folders, no GPU needed: each check fails on a run that
# recorded nothing (no trials.csv, as when no trial was ok and `latest`
# never moved), on one with no rows, and on one whose trials all failed;
# and passes on a good run where one is easy to write.  Run by make test.
set -u
cd "$(dirname "$0")/../.."
. tests/gpu/checks.sh
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail=0 n=0
expect() { # WANT(pass|fail) CHECK FILE WHAT
  n=$((n + 1))
  if "check_$2" "$3" >"$d/said" 2>&1; then got=pass; else got=fail; fi
  [ "$got" = "$1" ] || { echo "checks-test: FAILED: check_$2 on $4: $got, expected $1"; sed 's/^/  /' "$d/said"; fail=1; }
}
# trials.csv files
printf 'case,size,io,status,reason,median,h2d,compute,d2h,logit_error,compile_seconds\n' >"$d/empty.csv"
{ cat "$d/empty.csv"; echo 'matmul,2048,with,failed,cudaErrorIllegalAddress,,,,,,'; echo 'matmul,4096,with,timeout,,,,,,,'; } >"$d/failed.csv"
{ cat "$d/empty.csv"; echo 'matmul,2048,with,ok,,0.010,0.004,0.002,0.004,,'; echo 'matmul,4096,with,ok,,0.040,0.015,0.010,0.0149,,'; } >"$d/phases-ok.csv"
{ cat "$d/empty.csv"; echo 'matmul,2048,with,ok,,0.010,0.001,0.002,0.001,,'; } >"$d/phases-short.csv"
{ cat "$d/empty.csv"; for c in "cnn f32" "cnn f16" "cnn bf16" "cnn amp f16" "cnn amp bf16" fuse unfused; do
    for s in 3 1000; do echo "$c,$s,without,ok,,0.001,,,,0.0001,0.2"; done; done; } >"$d/cnn-ok.csv"
{ head -13 "$d/cnn-ok.csv"; echo 'unfused,1000,without,failed,"lua: check: y[3] = 1, want 2",,,,,,'; } >"$d/cnn-onefailed.csv"
missing="$d/gpu_x/latest/trials.csv"
for c in workloads phases cnn_fuse lua large mlp concurrent cold_cache mlp_accuracy faults selftest oversized; do
  expect fail $c "$missing" "a run with no trials.csv"
  expect fail $c "$d/empty.csv" "a trials.csv with no rows"
  expect fail $c "$d/failed.csv" "a run whose trials all failed"
done
expect pass phases "$d/phases-ok.csv" "two ok trials whose phases add up"
expect fail phases "$d/phases-short.csv" "phases 40 % short of the total"
expect pass cnn_fuse "$d/cnn-ok.csv" "14 ok trials"
expect fail cnn_fuse "$d/cnn-onefailed.csv" "13 ok trials and a failed one"
[ $fail -eq 0 ] && echo "checks-test: make test-gpu's checks fail on runs with no ok trial ($n cases against fake run folders)"
exit $fail
