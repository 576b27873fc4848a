#!/usr/bin/env bash
# check-layout.sh BUILD_DIR - the house rules of doc/contributing/architecture.md#architecture, checked
# against the code as built (`make check-layout` runs it; `make test` too).
#
#  1. no circle among runner modules (a module: runner/DIR/NAME.c with its
#     NAME.h): neither in the includes (the compiler's -MMD lists) nor in the
#     calls (symbols one object takes from another, read with nm);
#  2. no circle among the folders of runner/ either;
#  3. no prototype or extern declaration of another file's function or
#     object written in a .c file (it belongs in that file's header);
#  4. only runner/rundir/ names the run folder's files (help text aside);
#  5. no C file in runner/ over 600 lines unless it is one cohesive table;
#  6. no comment cites the SPEC (not in the repository); no *.orig tracked;
#  7. the user guide's rules (tests/check-docs.sh): every cited doc file and
#     section exists, README.md is short, every chapter is reachable, and the
#     man page names the options the commands take.
#  8. every header of a folder of runner/ says, on the line after its
#     include guard, whether it is the folder's public header or internal to
#     it, and no file of runner/ or backends/ outside that folder includes
#     an internal one (tests may: they test the parts).
# Prints one line per finding and exits 1 if there is any.
set -u
BUILD=${1:-build}
cd "$(dirname "$0")/.."
fail=0
say() { echo "check-layout: $*"; fail=1; }

# runner/a/b.c, runner/a/b.h -> runner/a/b ; runner/backend.h -> runner/backend
module() { local p=${1#./}; p=${p%.c}; p=${p%.h}; echo "$p"; }

# the objects of today's sources (a build folder may hold objects of moved files)
objs=$(for c in $(git ls-files 'runner/**/*.c'); do [ -f "$BUILD/${c%.c}.o" ] && echo "$BUILD/${c%.c}.o"; done)
[ -n "$objs" ] || { echo "check-layout: no objects under $BUILD/runner (build first)"; exit 2; }

edges=$(mktemp); trap 'rm -f "$edges" "$edges".*' EXIT

# --- include edges: from the .d files ---------------------------------------
for o in $objs; do
    d=${o%.o}.d
    [ -f "$d" ] || { say "$d missing (build with -MMD)"; continue; }
    src=${o#"$BUILD"/}; src=${src%.o}.c
    from=$(module "$src")
    # the first rule only: "obj: src hdr hdr ..." (continued lines)
    sed -n '1,/[^\\]$/p' "$d" | tr ' \\' '\n\n' | grep -E '^runner/.*\.h$' |
        while read -r h; do
            to=$(module "$h")
            [ "$to" != "$from" ] && echo "$from $to"
        done
done > "$edges.inc"
# a header's own includes: runner/x/y.h including runner/z/w.h
for h in $(git ls-files 'runner/*.h' 'runner/**/*.h'); do
    from=$(module "$h")
    grep -oE '^#include "[^"]+\.h"' "$h" | sed -E 's/^#include "(.*)"/runner\/\1/' |
        while read -r inc; do
            [ -f "$inc" ] && [ "$(module "$inc")" != "$from" ] && echo "$from $(module "$inc")"
        done
done >> "$edges.inc"

# --- call edges: undefined symbols of one object defined by another ----------
for o in $objs; do
    m=${o#"$BUILD"/}; m=$(module "${m%.o}.c")
    nm --defined-only -g "$o" | awk -v m="$m" 'NF==3 {print $3, m}'
done | sort -u > "$edges.def"
for o in $objs; do
    m=${o#"$BUILD"/}; m=$(module "${m%.o}.c")
    nm -u "$o" | awk -v m="$m" '{print $2, m}'
done | sort -u > "$edges.use"
join "$edges.use" "$edges.def" | awk '$2 != $3 {print $2, $3}' | sort -u > "$edges.call"

cat "$edges.inc" "$edges.call" | sort -u > "$edges"
[ -n "${LAYOUT_EDGES:-}" ] && cp "$edges" "$LAYOUT_EDGES"

cycles() { # stdin: "a b" edges; prints the members of each loop tsort finds
    tsort 2>&1 >/dev/null | sed -n 's/^tsort: //p' | grep -v 'input contains a loop'
}
loop=$(cycles < "$edges")
[ -z "$loop" ] || say "a circle among modules:" $loop
loop=$(awk '{split($1,a,"/"); split($2,b,"/"); if (a[2] != b[2] && a[3] != "" && b[3] != "") print a[2], b[2]}' \
    "$edges" | sort -u | cycles)
[ -z "$loop" ] || say "a circle among folders of runner/:" $loop

# --- prototypes of other files' functions in .c files ------------------------
# a declaration at file scope (column 0) that ends in ");" and is not static,
# or an `extern` declaration
for f in $(git ls-files 'runner/**/*.c' 'backends/*.c' 'backends/**/*.c'); do
    awk -v f="$f" '
        /^[A-Za-z_][A-Za-z_0-9]*:/ { next }   # a label
        /^[A-Za-z_]/ && !decl { decl = 1; text = ""; line = NR }
        decl { text = text " " $0
               if ($0 ~ /[;{]/ || $0 ~ /\)$/ && $0 !~ /,$/) {
                   if (text ~ /\);[ \t]*(\/\*.*)?$/ && text ~ /\(/ && text !~ /^ (static|typedef|return)/ &&
                       text !~ /=/ && text !~ /__attribute__\(\(simd/)
                       printf "%s:%d: a prototype in a .c file:%s\n", f, line, substr(text, 1, 90)
                   else if (text ~ /^ extern / && text !~ /extern char \*\*environ;/)
                       printf "%s:%d: an extern declaration in a .c file:%s\n", f, line, substr(text, 1, 90)
                   decl = 0 } }' "$f"
done > "$edges.proto"
while read -r l; do say "$l"; done < "$edges.proto"

# --- the run folder's files are named in rundir/ only ------------------------
# help and usage text (what a user reads) may name them
help_files='runner/cli/help.c'
for f in $(grep -rlE 'trials\.csv|samples\.csv|trials\.more\.csv|meta\.json' runner | sort); do
    case "$f" in runner/results/rundir/*) continue ;; esac
    case " $help_files " in *" $f "*) continue ;; esac
    say "$f names a run folder file (only runner/rundir/ may: doc/contributing/architecture.md#architecture)"
done

# --- file sizes ---------------------------------------------------------------
# one cohesive table each: the run keys, the built-in workloads
tables='runner/experiment/keys.c runner/experiment/registry/workloads.c'
for f in $(git ls-files 'runner/**/*.c'); do
    n=$(wc -l < "$f")
    case " $tables " in *" $f "*) continue ;; esac
    [ "$n" -le 600 ] || say "$f has $n lines (more than 600)"
done
# a test file is one topic (doc/contributing/testing.md#the-test-files)
for f in $(git ls-files 'tests/*.c'); do
    n=$(wc -l < "$f")
    [ "$n" -le 800 ] || say "$f has $n lines (more than 800: split it by topic)"
done

# --- the SPEC and stray files --------------------------------------------------
grep -rn "SPEC section" runner backends >/dev/null && say "a comment cites the SPEC: $(grep -rln 'SPEC section' runner backends | tr '\n' ' ')"
[ -z "$(git ls-files '*.orig')" ] || say "tracked *.orig files: $(git ls-files '*.orig' | tr '\n' ' ')"

# --- the user guide --------------------------------------------------------------
bash tests/check-docs.sh || fail=1
# --- public and internal headers ---------------------------------------------
npub=0; nint=0
for h in $(git ls-files 'runner/*/*.h'); do
    rel=${h#runner/}; dir=${rel%/*}
    mark=$(grep -A1 -m1 '^#define RUNNER_[A-Z0-9_]*_H$' "$h" | sed -n 2p)
    case "$mark" in
    "/* public header of runner/$dir/ */") npub=$((npub + 1)) ;;
    "/* internal header of runner/$dir/: other folders may not include it */")
        nint=$((nint + 1))
        for f in $(git grep -lF "#include \"$rel\"" -- 'runner/*' 'backends/*'); do
            case "$f" in runner/"$dir"/*) ;; *) say "$f includes $h, internal to runner/$dir/" ;; esac
        done ;;
    *) say "$h does not say whether it is public or internal (the line after its include guard)" ;;
    esac
done

if [ $fail = 0 ]; then
    echo "check-layout: $(echo "$objs" | wc -l) modules in $(ls -d runner/*/ | wc -l) folders: no circle, no hidden prototype, one owner of the run folder, $npub public and $nint internal headers"
fi
exit $fail
