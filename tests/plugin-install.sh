#!/bin/bash
# tests/plugin-install.sh - a plugin as a user makes one
# (doc/own-code-plugins.md): from the source tree, not installed, `runner new
# workload`'s "next:" line builds it against the tree's header
# (lib/pkgconfig/runner-uninstalled.pc) and sweeps it, as printed; `make
# install` into a temporary PREFIX installs <runner/workload.h>, runner.pc
# and the LICENSE; the installed runner writes a plugin that builds against
# the INSTALLED header (pkg-config, its Makefile's RUNNER_PC_DIR) and runs in
# a sweep, every trial ok and checked.  With --cuda, its .cu compiles
# with nvcc and, without a GPU, its CUDA trials are skipped with the CUDA
# backend's reason (a skip line where nvcc is missing).  `make test` runs it.
set -u
cd "$(dirname "$0")/.." || exit 1
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "plugin-install: $*"; exit 1; }

# trials.csv of RUN: "status reason" of each row whose device is DEV
rows() {
    awk -F, -v dev="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["device"] ~ dev { print $c["status"] }' "$1/trials.csv"
}

# Not installed: the tree's bin/runner writes a plugin whose Makefile finds
# the tree's header through lib/pkgconfig/runner-uninstalled.pc, and the
# "next:" line it prints runs as printed, with no PKG_CONFIG_PATH set
(cd "$tmp" && env -u PKG_CONFIG_PATH "$root/bin/runner" new workload fresh >new.out 2>&1) ||
    { cat "$tmp/new.out"; fail "runner new workload failed in the tree"; }
next=$(sed -n 's/^next: //p' "$tmp/new.out")
[ -n "$next" ] || { cat "$tmp/new.out"; fail "runner new workload prints no next step"; }
(cd "$tmp" && env -u PKG_CONFIG_PATH bash -c "$next --quiet --no-plots --run-dir ../run-fresh" \
    >"$tmp/fresh.out" 2>&1) || { cat "$tmp/fresh.out"; fail "'$next' fails in a tree not installed"; }
n=$(rows "$tmp/run-fresh" cpu | grep -c '^ok$')
[ "$n" -ge 5 ] || { cat "$tmp/run-fresh/trials.csv"; fail "not every trial ok ($n)"; }
echo "plugin-install: not installed, '$next': built against the tree's header, $n trials ok"

# NVCC= : the CUDA backend is not built here (it is not what this tests)
make -s -C "$root" install PREFIX="$tmp/prefix" NVCC= >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; fail "make install failed"; }
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
cmp -s include/runner/workload.h "$tmp/prefix/include/runner/workload.h" || fail "the header is not installed"
cmp -s LICENSE "$tmp/prefix/share/doc/runner/LICENSE" || fail "the LICENSE is not installed"
"$tmp/prefix/bin/runner" --version | grep -q '^MIT License' || fail "runner --version does not name the licence"
[ "$(pkg-config --cflags runner | xargs)" = "-I$tmp/prefix/include" ] ||
    fail "pkg-config --cflags runner: '$(pkg-config --cflags runner)'"
want=$(sed -n 's/^VERSION *:= *//p' Makefile)
[ "$(pkg-config --modversion runner)" = "$want" ] || fail "runner.pc's version is not $want"
iface=$(sed -n 's/^#define RN_WORKLOAD_INTERFACE //p' include/runner/workload.h)
[ "$(pkg-config --variable=workload_interface runner)" = "$iface" ] || fail "runner.pc's workload_interface"
runner="$tmp/prefix/bin/runner"

cd "$tmp" || exit 1
"$runner" new workload demo >new.out 2>&1 || { cat new.out; fail "runner new workload failed"; }
grep -qx "RUNNER_PC_DIR ?= $tmp/prefix/lib/pkgconfig" demo/Makefile || fail "the plugin's Makefile does not name the installed runner.pc's folder"
# the Makefile finds the installed runner.pc by itself, and so does pkg-config on PKG_CONFIG_PATH
env -u PKG_CONFIG_PATH make -s -C demo >make.out 2>&1 || { cat make.out; fail "the plugin does not build against the installed header"; }
env -u PKG_CONFIG_PATH make -s -C demo -B --dry-run | grep -q -- "-I$tmp/prefix/include" ||
    fail "the plugin is not built against the installed header"
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
