#!/usr/bin/env bash
# adding-workload.sh - follows doc/contributing/adding-a-workload.md on a copy
# of the tree: the workload file and the registry entry are the text of its two
# code blocks, nothing else is touched; the copy must build, list the new
# workload and run it (ok, checked).  Object files are copied along, so only
# what changed is compiled.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
git ls-files -z | xargs -0 cp --parents -a -t "$tmp" 2>/dev/null || true
[ -d "$BUILD" ] && cp -a "$BUILD" "$tmp/" 
# the section's code blocks: the first is the file, the second the entry
awk '/^# Adding a workload/ {in_s = 1; next} in_s && /^##/ {exit}
     in_s && /^```c$/ {n++; out = n; next} in_s && /^```$/ {out = 0; next}
     out == 1 {print > "'"$tmp"'/backends/cpu/scale.c"} out == 2 {print > "'"$tmp"'/entry.txt"}' doc/contributing/adding-a-workload.md
[ -s "$tmp/backends/cpu/scale.c" ] && [ -s "$tmp/entry.txt" ] ||
    { echo "adding-workload: doc/contributing/adding-a-workload.md lost its two code blocks"; exit 1; }
# the entry goes last in the registry's table
awk -v entry="$(cat "$tmp/entry.txt")" '
    /^static const workload_desc registry\[\] = \{/ {in_t = 1}
    in_t && /^\};/ {print entry; in_t = 0}
    {print}' runner/experiment/registry/workloads.c > "$tmp/runner/experiment/registry/workloads.c"
grep -q '"scale"' "$tmp/runner/experiment/registry/workloads.c" ||
    { echo "adding-workload: the registry table was not found"; exit 1; }
(cd "$tmp" && make -s "$BUILD/bin/runner" BUILD="$BUILD" >/dev/null 2>"$tmp/build.err") ||
    { echo "adding-workload: the copy does not build:"; cat "$tmp/build.err"; exit 1; }
"$tmp/$BUILD/bin/runner" list workloads | grep -q '^scale  *yes' ||
    { echo "adding-workload: 'runner list workloads' does not list scale on the CPU"; exit 1; }
cat > "$tmp/scale.yaml" <<'YAML'
name: scale
workload: scale
repeats: 3
sweep:
  size: [1024, 65536]
YAML
"$tmp/$BUILD/bin/runner" --quiet --no-plots --output "$tmp/results" "$tmp/scale.yaml" >/dev/null 2>&1 ||
    { echo "adding-workload: the run of scale failed"; exit 1; }
ok=$(grep -c ',ok,' "$tmp/results/scale/latest/trials.csv" || true)
[ "$ok" = 2 ] || { echo "adding-workload: expected 2 ok trials, got $ok"; cat "$tmp/results/scale/latest/trials.csv"; exit 1; }
echo "adding-workload: doc/contributing/adding-a-workload.md's two steps add a workload that builds, is listed and runs (2 trials ok)"
