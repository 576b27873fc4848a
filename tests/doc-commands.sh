#!/usr/bin/env bash
# doc-commands.sh - runs the commands the guide shows, as written
# (doc/contributing/testing.md#the-guides-commands).  In README.md and
# doc/*.md, a fenced block right after a line `<!-- doc-test -->` is a
# terminal session: each line that starts with `$ ` is a command (a line
# ending in `\` goes on with the next), the other lines are the output it
# shows, not compared; after `<!-- doc-test: status N -->` each command
# must exit N instead of 0 (a command the guide shows failing on purpose).
# A block right after `<!-- doc-test: file PATH -->`
# is written to PATH first, as a reader saves it.  Each chapter's files and
# commands run in order in one bash, as a reader types them (a `cd` stays),
# in a fresh copy of the tree (its tracked files, bin/ and lib/) with bin/
# on PATH and HOME in the copy; every command must exit 0 (or its block's N).
# BUILD: the build folder whose bin/runner to use (default build).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
root=$PWD
[ -x "$BUILD/bin/runner" ] || { echo "doc-commands: $BUILD/bin/runner is not built"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# A chapter's marked blocks as a bash script, on stdout.
script_of() { # FILE
    awk -v file="$1" '
    function q(s) { gsub(/\047/, "\047\\\047\047", s); return "\047" s "\047" }
    /^<!-- doc-test -->$/ { want = "run"; status = 0; next }
    /^<!-- doc-test: status [0-9]+ -->$/ { want = "run"; status = $4 + 0; next }
    /^<!-- doc-test: file [^ ]+ -->$/ { want = "file"; path = $4; next }
    !in_b && /^```/ {
        match($0, /^`+/); fence = substr($0, 1, RLENGTH)
        if (want == "") { skip = 1; in_b = 1; next }
        in_b = 1; kind = want; want = ""; skip = 0
        if (kind == "file")
            printf "mkdir -p \"$(dirname %s)\" && cat > %s <<\047DOC_TEST_EOF\047\n", q(path), q(path)
        next
    }
    in_b && $0 == fence {
        if (!skip && kind == "file") print "DOC_TEST_EOF"
        in_b = 0; kind = ""; next
    }
    in_b && skip { next }
    in_b && kind == "file" { print; next }
    in_b && kind == "run" {
        if (cont != "") { line = cont "\n" $0 } else if (/^\$ /) { line = substr($0, 3); at = NR } else next
        if (line ~ /\\$/) { cont = line; next }
        cont = ""
        printf "echo %s >&2\n", q("doc-commands: " file ":" at ": $ " line)
        printf "%s\n", line
        printf "rc=$?; [ $rc = %d ] || { echo %s\" exited $rc, not %d\"; exit 1; }\n", status, \
            q("doc-commands: " file ":" at ": \047" line "\047"), status
    }' "$1"
}

fails=0 ran=0
for f in README.md doc/*.md doc/*/*.md; do
    grep -q '^<!-- doc-test' "$f" || continue
    tree="$tmp/${f//\//_}"
    mkdir -p "$tree/home"
    git ls-files -z | xargs -0 cp --parents -a -t "$tree" 2>/dev/null || true
    mkdir -p "$tree/bin"
    cp -a "$BUILD/bin/runner" "$tree/bin/runner"
    [ -d lib ] && cp -a lib "$tree/"
    script_of "$f" > "$tree/.doc-test.sh"
    n=$(grep -c '^rc=' "$tree/.doc-test.sh")
    ran=$((ran + n))
    if ! (cd "$tree" && PATH="$tree/bin:$PATH" HOME="$tree/home" \
            XDG_CACHE_HOME="${XDG_CACHE_HOME:-$tree/home/.cache}" \
            timeout -k 10 900 bash .doc-test.sh >"$tree/.doc-test.out" 2>&1); then
        echo "doc-commands: $f: a command failed:"
        tail -n 25 "$tree/.doc-test.out"
        fails=$((fails + 1))
    fi
done
[ "$ran" -gt 0 ] || { echo "doc-commands: no block marked <!-- doc-test --> in README.md or doc/"; exit 1; }
[ $fails -eq 0 ] || exit 1
echo "doc-commands: the $ran commands the guide marks ran as written (each with its status)"
