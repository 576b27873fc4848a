#!/usr/bin/env bash
# bench/gpu-acceptance.sh OUTDIR - the one-call GPU acceptance run
# (doc/contributing/testing.md#gpu-acceptance).  From a bare checkout on a GPU machine: set up
# (unpack .deps.tar.xz from bench/gpu-bundle.sh when the runner's libraries
# are missing, else build), then make test-gpu, every study of experiments/
# (CPU and GPU halves, so the crossovers can be read), bench/gpu.sh, and pack
# it all into at most 8 files under OUTDIR:
#   summary.txt      one line per part: status, seconds, what it found
#   acceptance.log   every part's output, the GPU and toolkit described
#   results.tar.gz   every run folder (trials.csv, samples.csv, meta.json,
#                    report, charts when gnuplot runs)
#   bench.txt        bench/gpu.sh's table
# Without a CUDA device each GPU part prints one skip line and the script
# exits 0, so `make test` runs it on machines with no GPU.  RUNNER_BIN names
# a runner already built (default bin/runner).
set -u
cd "$(dirname "$0")/.."
[ $# -eq 1 ] || { echo "usage: bench/gpu-acceptance.sh OUTDIR" >&2; exit 2; }
mkdir -p "$1" && OUT=$(cd "$1" && pwd) || exit 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log=$work/acceptance.log summary=$work/summary.txt
: >"$log"; : >"$summary"
say() { echo "gpu-acceptance: $*"; }
# record PART STATUS SECONDS DETAIL
record() { printf '%-12s %-8s %6s s  %s\n' "$1" "$2" "$3" "$4" >>"$summary"; say "$1: $2 ($3 s) $4"; }
section() { printf '\n===== %s =====\n' "$1" >>"$log"; }
t0=$(date +%s)
# the whole run fits one device call: each part gets at most what is left
budget=${ACCEPTANCE_SECONDS:-540}
left() { local l=$(( budget - ($(date +%s) - t0) )); [ "$l" -lt "$1" ] && echo $(( l > 5 ? l : 5 )) || echo "$1"; }

# --- set up -------------------------------------------------------------------
section setup
BIN=${RUNNER_BIN:-$PWD/bin/runner}
if [ -f .deps.tar.xz ] && ! "$BIN" --version >/dev/null 2>&1; then
  mkdir -p build/deps && tar -C build/deps -xJf .deps.tar.xz
fi
if [ -d build/deps/lib ]; then
  export LD_LIBRARY_PATH="$PWD/build/deps/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  if ! command -v gnuplot >/dev/null && [ -x build/deps/bin/gnuplot ]; then
    export PATH="$PWD/build/deps/bin:$PATH" FONTCONFIG_FILE="$PWD/build/deps/fonts.conf"
  fi
fi
if ! "$BIN" --version >/dev/null 2>&1; then
  make all >>"$log" 2>&1 || { record setup failed $(( $(date +%s) - t0 )) "no runner: see acceptance.log"; }
elif command -v nvcc >/dev/null && [ ! -f lib/runner-cuda.so ]; then
  make cuda >>"$log" 2>&1
fi
{ "$BIN" --version; "$BIN" list devices; command -v nvcc >/dev/null && nvcc --version | tail -1
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv
  nproc; uname -a; } >>"$log" 2>&1
plots=--no-plots
command -v gnuplot >/dev/null && gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1 && plots=
dev=$("$BIN" list devices 2>/dev/null | grep '^cuda' | head -1)
gpu=$(echo "$dev" | sed -n 's/^cuda:0 *//p')
record setup ok $(( $(date +%s) - t0 )) "runner $("$BIN" --version 2>/dev/null | head -1); charts: ${plots:-gnuplot}"

if [ -z "$gpu" ]; then
  why=${dev#*none: }; why=${why:-the runner does not run}
  for p in test-gpu bench studies; do record "$p" skipped 0 "no CUDA device: $why"; done
else
  # --- make test-gpu ------------------------------------------------------------
  section test-gpu; s=$(date +%s)
  RUNNER_BIN=$BIN timeout -k 10 $(left 200) bash tests/gpu/run.sh >"$work/test-gpu.log" 2>&1; rc=$?
  cat "$work/test-gpu.log" >>"$log"
  record test-gpu "$([ $rc -eq 0 ] && echo ok || echo FAILED)" $(( $(date +%s) - s )) "$(tail -1 "$work/test-gpu.log")"

  # --- bench/gpu.sh ---------------------------------------------------------------
  if [ -z "${ACCEPTANCE_NO_BENCH:-}" ]; then
    section bench; s=$(date +%s)
    mkdir -p "$work/results/bench"
    RUNNER_BIN=$BIN BENCH_KEEP="$work/results/bench" timeout -k 10 $(left 180) bash bench/gpu.sh >"$work/bench.txt" 2>&1; rc=$?
    cat "$work/bench.txt" >>"$log"
    record bench "$([ $rc -eq 0 ] && echo ok || echo FAILED)" $(( $(date +%s) - s )) "table in bench.txt"
  fi

  # --- every study: GPU halves first, then the CPU halves -------------------------
  # A lease is short and a study's CPU half can take minutes (models), so every
  # study's GPU trials run first, then each study is run again into the same
  # run folder (--run-dir continues it: doc/results.md#results), which adds the
  # trials still missing and draws the charts over both halves.
  # ACCEPTANCE_STUDIES="a b" runs only those studies of experiments/.
  section studies; s=$(date +%s)
  mkdir -p "$work/results"
  studies=()
  for f in experiments/*.yaml; do
    name=$(basename "$f" .yaml)
    [ -n "${ACCEPTANCE_STUDIES:-}" ] && ! [[ " $ACCEPTANCE_STUDIES " == *" $name "* ]] && continue
    studies+=("$f")
  done
  # status counts of a run folder's trials.csv: ok=N failed=N timeout=N skipped=N
  counts() { python3 - "$1/trials.csv" 2>/dev/null <<'PY'
import csv, sys
n = {k: 0 for k in ("ok", "failed", "timeout", "skipped")}
for r in csv.DictReader(open(sys.argv[1])):
    n[r["status"]] = n.get(r["status"], 0) + 1
print(" ".join(f"{k}={v}" for k, v in n.items()))
PY
}
  for half in gpu cpu; do
    hs=$(date +%s); bad=0 cut=0 ran=0
    for f in "${studies[@]}"; do
      name=$(basename "$f" .yaml); fs=$(date +%s); d="$work/results/$name"
      # matmul_gpu is matmul.yaml plus n = 32768: only that size runs here
      filter=(); [ "$name" = matmul_gpu ] && filter=(--filter size=32768)
      if [ $half = gpu ]; then
        filter+=(--filter 'device=cuda*')
        "$BIN" --dry-run "${filter[@]}" "$f" >/dev/null 2>&1 || continue   # no GPU trial
        extra=(--no-plots)
      else
        extra=($plots)
      fi
      ran=$((ran + 1))
      timeout -k 10 $(left $([ $half = gpu ] && echo 120 || echo 150)) \
        "$BIN" --quiet "${extra[@]}" --run-dir "$d" "${filter[@]}" "$f" >>"$log" 2>&1; rc=$?
      # a run cut short draws no charts: draw what it saved
      [ $rc -eq 124 ] && [ $half = cpu ] && [ -z "$plots" ] && timeout 30 "$BIN" plot "$d" >>"$log" 2>&1
      st=$(counts "$d")
      echo "  $name ($half half): rc=$rc $st ($(( $(date +%s) - fs )) s)" | tee -a "$log"
      # 124: the time budget ran out, the study is cut short, not failed
      case "$rc $st" in
        "0 "*"failed=0 timeout=0"*) ;;
        "124 "*) case "$st" in *"failed=0 timeout=0"*|"") cut=$((cut + 1)) ;; *) bad=$((bad + 1)) ;; esac ;;
        *) bad=$((bad + 1)) ;;
      esac
    done
    record "$half-studies" "$([ $bad -eq 0 ] && { [ $cut -eq 0 ] && echo ok || echo CUT; } || echo FAILED)" $(( $(date +%s) - hs )) \
      "$bad of $ran studies with a failed or timed-out trial, $cut cut short by the time budget"
  done
fi

# --- pack ---------------------------------------------------------------------
record total - $(( $(date +%s) - t0 )) "${gpu:-no GPU}"
cp "$summary" "$log" "$OUT/"
[ -f "$work/bench.txt" ] && cp "$work/bench.txt" "$OUT/"
[ -d "$work/results" ] && tar -C "$work/results" -czf "$OUT/results.tar.gz" .
cat "$summary"
! grep -Eq ' (FAILED|CUT) ' "$summary"
