#!/bin/bash
# tests/plugin-install.sh - a plugin as a user makes one
# (doc/own-code-plugins.md): `make install` into a temporary PREFIX installs
# <runner/workload.h> and runner.pc; `runner new workload` writes a plugin
# that builds against the INSTALLED header (pkg-config, PKG_CONFIG_PATH) and
# runs in a sweep, every trial ok and checked.  With --cuda, its .cu compiles
# with nvcc and, without a GPU, its CUDA trials are skipped with the CUDA
# backend's reason (a skip line where nvcc is missing).  `make test` runs it.
set -u
cd "$(dirname "$0")/.." || exit 1
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "plugin-install: $*"; exit 1; }

# NVCC= : the CUDA backend is not built here (it is not what this tests)
make -s -C "$root" install PREFIX="$tmp/prefix" NVCC= >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; fail "make install failed"; }
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
cmp -s include/runner/workload.h "$tmp/prefix/include/runner/workload.h" || fail "the header is not installed"
[ "$(pkg-config --cflags runner | xargs)" = "-I$tmp/prefix/include" ] ||
    fail "pkg-config --cflags runner: '$(pkg-config --cflags runner)'"
want=$(sed -n 's/^VERSION *:= *//p' Makefile)
[ "$(pkg-config --modversion runner)" = "$want" ] || fail "runner.pc's version is not $want"
iface=$(sed -n 's/^#define RN_WORKLOAD_INTERFACE //p' include/runner/workload.h)
[ "$(pkg-config --variable=workload_interface runner)" = "$iface" ] || fail "runner.pc's workload_interface"
runner="$tmp/prefix/bin/runner"

# trials.csv of RUN: "status reason" of each row whose device is DEV
rows() {
    awk -F, -v dev="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["device"] ~ dev { print $c["status"] }' "$1/trials.csv"
}

cd "$tmp" || exit 1
"$runner" new workload demo >new.out 2>&1 || { cat new.out; fail "runner new workload failed"; }
make -s -C demo >make.out 2>&1 || { cat make.out; fail "the plugin does not build against the installed header"; }
"$runner" --quiet --no-plots --run-dir run demo/demo.yaml >run.out 2>&1 || { cat run.out; fail "its sweep failed"; }
n=$(rows run cpu | grep -c '^ok$')
[ "$n" -ge 5 ] && [ "$n" = "$(rows run . | wc -l)" ] || { cat run/trials.csv; fail "not every trial ok ($n)"; }
echo "plugin-install: runner new workload demo: built against the installed header, $n trials ok"

nvcc=${NVCC:-$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)}
if [ -z "$nvcc" ]; then
    echo "plugin-install: --cuda skipped: no nvcc"
    exit 0
fi
"$runner" new workload demo_gpu --cuda --dir gpu >new.out 2>&1 || { cat new.out; fail "runner new workload --cuda failed"; }
make -s -C gpu NVCC="$nvcc" >make.out 2>&1 || { cat make.out; fail "the CUDA plugin does not build with $nvcc"; }
"$runner" --quiet --no-plots --run-dir run-gpu gpu/demo_gpu.yaml >run.out 2>&1 || { cat run.out; fail "its sweep failed"; }
[ "$(rows run-gpu cpu | grep -vc '^ok$')" = 0 ] || { cat run-gpu/trials.csv; fail "a CPU trial of the CUDA plugin is not ok"; }
if "$runner" list devices | grep -q '^cuda:'; then
    [ "$(rows run-gpu cuda | grep -vc '^ok$')" = 0 ] || { cat run-gpu/trials.csv; fail "a CUDA trial is not ok"; }
    echo "plugin-install: --cuda: built with nvcc, its CUDA trials ok"
else
    why=$("$runner" list devices | sed -n 's/^cuda *none: //p')
    [ -n "$why" ] || fail "runner list devices gives no reason"
    awk -F, 'NR > 1 && $0 ~ /,cuda,/' run-gpu/trials.csv | grep -vF "skipped,$why" &&
        fail "a CUDA trial is not skipped with the backend's reason ($why)"
    echo "plugin-install: --cuda: built with nvcc; its CUDA trials skipped: $why"
fi
