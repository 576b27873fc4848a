#!/usr/bin/env bash
# check-docs.sh - the rules of the user guide (doc/contributing/architecture.md#architecture),
# checked by tests/check-layout.sh (`make check-layout`, `make test`):
#
#  1. every `doc/FILE.md` or `README.md` a source file cites exists, and so
#     does the section a `#anchor` after it names (the heading's GitHub slug:
#     lower case, spaces to hyphens, other punctuation but - and _ dropped);
#     the same for the links between the guide's own pages;
#  2. README.md is at most 250 lines;
#  3. every page under doc/ is reachable from README.md through the guide's
#     links (directly or through doc/README.md);
#  4. the man page runner.1 names every long option of the option tables in
#     runner/cli/, and every option it names is in one of them.
# Prints one line per finding and exits 1 if there is any.
set -u
cd "$(dirname "$0")/.."
fail=0
say() { echo "check-docs: $*"; fail=1; }

# the files of the tree, tracked or new (not the ignored build outputs)
files() { git ls-files --cached --others --exclude-standard -- "$@" 2>/dev/null | sort -u; }

# the pages of the guide, and each page's anchors: one per heading outside
# code blocks, its GitHub slug; printed as PAGE and PAGE#ANCHOR
pages=$(printf '%s\n' README.md $(files doc | grep '\.md$'))
# the bench notes that the guide links to for its measurements
# (doc/contributing/architecture.md#architecture): their sections are checked as the guide's
notes=$(files bench | grep '\.md$')
known() {
    for f in $pages $notes; do
        [ -f "$f" ] || continue
        echo "$f"
        awk -v f="$f" '/^```/ {fence = !fence; next}
             !fence && /^#+ / {
                 h = $0; sub(/^#+ +/, "", h); sub(/ +#* *$/, "", h)
                 h = tolower(h); gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h)
                 print f "#" h }' "$f"
    done
}

# --- 1. cited files and sections ----------------------------------------------
cited=$(mktemp); trap 'rm -f "$cited" "$cited".*' EXIT
known > "$cited.known"
files runner backends tests bench lua experiments completion plots .ci Makefile runner.1 |
    grep -vx 'tests/check-docs.sh' | while read -r f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
    xargs -0 grep -noE '(doc/[A-Za-z0-9_/-]+\.md|README\.md)(#[A-Za-z0-9_-]+)?' > "$cited"
# the guide's own links: ](path.md#anchor) relative to the page, ](#anchor) within it
for f in $pages $notes; do
    [ -f "$f" ] || continue
    d=$(dirname "$f")
    grep -noE '\]\([^):#]+\.md(#[A-Za-z0-9_-]+)?\)' "$f" | while IFS=: read -r n link; do
        t=${link#](}; t=${t%)}
        p=$(realpath -m --relative-to=. "$d/${t%%#*}")
        case "$t" in *'#'*) p="$p#${t#*#}" ;; esac
        echo "$f:$n:$p"
    done
    grep -noE '\]\(#[A-Za-z0-9_-]+\)' "$f" | while IFS=: read -r n link; do
        t=${link#](#}; echo "$f:$n:$f#${t%)}"
    done
done >> "$cited"
awk -F: 'NR == FNR {known[$0] = 1; next}
         { c = $3; for (i = 4; i <= NF; i++) c = c ":" $i
           doc = c; sub(/#.*/, "", doc)
           if (!(doc in known)) print $1 ":" $2 " cites " doc ", which does not exist"
           else if (!(c in known)) print $1 ":" $2 " cites " c ": " doc " has no such section" }' \
    "$cited.known" "$cited" > "$cited.bad"
while read -r l; do say "$l"; done < "$cited.bad"

# --- 2. README.md's length ------------------------------------------------------
n=$(wc -l < README.md)
[ "$n" -le 250 ] || say "README.md has $n lines (more than 250)"

# --- 3. every page of doc/ reachable from README.md ------------------------------
reached="$cited.reached"
echo README.md > "$reached"
todo=README.md
while [ -n "$todo" ]; do
    next=""
    for f in $todo; do
        d=$(dirname "$f")
        for t in $(grep -oE '\]\([^):#]+\.md(#[^)]*)?\)' "$f" | sed -E 's/^\]\(//; s/[#)].*$//'); do
            p=$(realpath -m --relative-to=. "$d/$t")
            [ -f "$p" ] || continue
            grep -qxF "$p" "$reached" && continue
            echo "$p" >> "$reached"
            next="$next $p"
        done
    done
    todo=$next
done
for f in $(files doc | grep '\.md$'); do
    grep -qxF "$f" "$reached" || say "$f is not reachable from README.md (link it from README.md or doc/README.md)"
done

# --- 4. the man page against the option tables ----------------------------------
# the tables: {"--name", short, kind, id} in runner/cli/*.c
opts=$(grep -hoE '\{"--[a-z][a-z-]*"' runner/cli/*.c | sed 's/^{"//; s/"$//' | sort -u)
# the man page spells options \-\-name\-part; --opt=VALUE is the syntax, not an option
man=$(grep -oE '\\-\\-[a-z]+(\\-[a-z]+)*' runner.1 | sed 's/\\-/-/g' | grep -vx -- '--opt' | sort -u)
for o in $opts; do
    echo "$man" | grep -qxF -- "$o" || say "runner.1 does not describe $o (an option of runner/cli/)"
done
for o in $man; do
    echo "$opts" | grep -qxF -- "$o" || say "runner.1 names $o, which no command of runner/cli/ takes"
done

if [ $fail = 0 ]; then
    echo "check-docs: $(wc -l < "$cited") citations of the guide resolve; README.md $n lines; $(($(wc -l < "$reached") - 1)) pages of doc/ reachable from it; runner.1 names the $(echo "$opts" | wc -l) long options"
fi
exit $fail
