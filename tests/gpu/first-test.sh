#!/usr/bin/env bash
# tests/gpu/first-test.sh - make gpu-first on a machine without a GPU: one
# line that says it needs one, nothing built or run, make's exit 0 (and the
# script's own 3).  On a machine with a GPU: a skip line (the real run is
# make gpu-first itself).  Run by make test.
set -u
cd "$(dirname "$0")/../.."
if nvidia-smi -L >/dev/null 2>&1 || [ -e /dev/nvidia0 ]; then
  echo "gpu-first-test: skipped: this machine has a GPU (run make gpu-first)"; exit 0
fi
# a make of its own (not the caller's jobserver, whose descriptors it does not
# get: "jobserver unavailable" would be a second line)
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
out=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory gpu-first OUT="$d/out" 2>&1); rc=$?
bash bench/gpu-first.sh "$d/out2" >/dev/null 2>&1; rc2=$?
lines=$(printf '%s\n' "$out" | wc -l)
if [ $rc -eq 0 ] && [ $rc2 -eq 3 ] && [ "$lines" -eq 1 ] && echo "$out" | grep -q '^gpu-first: needs a CUDA GPU.*nothing was checked$' \
   && [ ! -e "$d/out" ] && [ ! -e "$d/out2" ]; then
  echo "gpu-first-test: without a GPU make gpu-first says so in one line and runs nothing"
else
  echo "gpu-first-test: FAILED: make gpu-first without a GPU: exit $rc (script $rc2), $lines lines:"; echo "$out"; exit 1
fi
