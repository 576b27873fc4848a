# tests/gpu/checks.sh - the judgements of make test-gpu (tests/gpu/run.sh)
# and make gpu-first (bench/gpu-first.sh), one function per run: each takes
# the run's trials.csv (which need not exist), prints what it saw, and
# returns 0 only when the run had what the check needs.  A check never
# passes on a run that saw nothing: a missing trials.csv, no rows, or a row
# not ok (unless the check is about failing trials) fails it
# (tests/gpu/checks-test.sh tries each against fake run folders).
# Sourced; needs python3.

# newest OUT NAME: the trials.csv of the newest run of experiment NAME under
# OUT, ok or not (`latest` moves only with an ok trial: doc/results.md#results)
newest() { echo "$(ls -d "$1/$2"/2*/ 2>/dev/null | tail -1)trials.csv"; }

# col FILE COLUMN: one value per row; a real CSV reader (labels and reasons hold commas)
col()  { [ -f "$1" ] && python3 -c 'import csv,sys
for r in csv.DictReader(open(sys.argv[1])): print(r.get(sys.argv[2], ""))' "$1" "$2"; }
# rows FILE COL...: the named columns of every row, separated by "|"
rows() { [ -f "$1" ] && python3 -c 'import csv,sys
for r in csv.DictReader(open(sys.argv[1])): print("|".join(r.get(c, "") for c in sys.argv[2:]))' "$@"; }
# nrows FILE: its rows, 0 when it is missing
nrows() { if [ -f "$1" ]; then python3 -c 'import csv,sys; print(sum(1 for _ in csv.DictReader(open(sys.argv[1]))))' "$1"; else echo 0; fi; }

# all_ok FILE [N]: every row ok, at least one (exactly N when given); the
# rows that are not ok are printed
all_ok() {
  local n; n=$(nrows "$1")
  [ -f "$1" ] || { echo "  no trials.csv ($1): the run recorded no trial"; return 1; }
  [ "$n" -gt 0 ] || { echo "  no trial in $1"; return 1; }
  local notok; notok=$(rows "$1" label case size io status reason | awk -F'|' '$5!="ok"{print "  "($1!=""?$1:$2)" size "$3" io="$4": "$5" "$6}')
  [ -z "$notok" ] || { echo "$notok"; return 1; }
  [ -z "${2:-}" ] || [ "$n" -eq "$2" ] || { echo "  $n trials, $2 expected"; return 1; }
}

check_workloads() { all_ok "$1" 57; }

check_mlp_accuracy() {
  local acc; acc=$(rows "$1" case accuracy | awk -F'|' '$1=="mlp"{print $2}' | sort -n | head -1)
  echo "  mlp accuracy ${acc:-none}"
  awk -v a="${acc:-0}" 'BEGIN{exit !(a > 0.8)}'
}

# io: with: h2d + compute + d2h within 10 % of the total, in every trial
check_phases() {
  all_ok "$1" || return 1
  rows "$1" size median h2d compute d2h | awk -F'|' '
    {s=$3+$4+$5; r=($2>0)?s/$2:0; printf "  size %s: h2d+compute+d2h = %.4g s, total %.4g s, ratio %.3f\n", $1, s, $2, r; if (r<0.9||r>1.1) bad=1; n++}
    END{exit bad || n==0}'
}

# FILE: the run's own trials.csv (a run with no ok trial does not move latest)
check_oversized() {
  local r s; r=$(col "$1" reason | tail -1); s=$(col "$1" status | tail -1)
  echo "  $s $r"
  [ "$s" = skipped ] && echo "$r" | grep -q '^needs .* available'
}

check_faults() {
  local st; st=$(col "$1" status | tr '\n' ' ')
  col "$1" reason | grep -v '^$' | sed 's/^/  /'
  [ "$st" = "ok failed ok failed ok " ]
}

check_selftest() {
  local st; st=$(col "$1" status | tr '\n' ' ')
  col "$1" reason | grep -v '^$' | sed 's/^/  /'
  [ "$st" = "timeout ok failed ok failed ok failed ok " ]
}

# per batch size: the CPU's and CUDA's final loss, 1e-3 relative
check_mlp() {
  [ -f "$1" ] || { echo "  no trials.csv"; return 1; }
  rows "$1" size device status loss | awk -F'|' '
    $3!="ok"{print "  size "$1" on "$2": "$3; bad=1; next}
    {l[$1","$2]=$4; s[$1]=1}
    END{for (k in s) {c=l[k",cpu"]; g=l[k",cuda"]
          if (c=="" || g=="") {print "  size "k": no pair"; bad=1; continue}
          r=(g-c)/c; if (r<0) r=-r
          printf "  batch %s: loss cpu %s, cuda %s, relative difference %.2g\n", k, c, g, r
          if (!(r<=1e-3)) bad=1; n++}
        exit bad || n<2}'
}

check_concurrent() {
  [ -f "$1" ] || { echo "  no trials.csv"; return 1; }
  rows "$1" mode status reason median member1_seconds member2_seconds members_sum_seconds member1_alone_seconds member2_alone_seconds speedup | awk -F'|' '
    {printf "  %s: %s %s call %s s, member1 %s s, member2 %s s (alone %s, %s), speedup %s\n", $1, $2, $3, $4, $5, $6, $8, $9, $10
     if ($2!="ok" || !($4>0) || !($5>0) || !($6>0) || !($7>0) || !($8>0) || !($9>0) || !($10>0)) bad=1
     if ($1=="sequential" && ($4/$7<0.8 || $4/$7>1.25)) {print "  sequential call / (member1 + member2) = " $4/$7; bad=1}
     n++}
    END{exit bad || n!=3}'
}

check_cold_cache() {
  [ -f "$1" ] || { echo "  no trials.csv"; return 1; }
  rows "$1" case io cold_cache status reason samples batch_size median | awk -F'|' '
    {printf "  %s io=%s cold_cache=%s: %s %s %s samples, batch %s, median %s s\n", $1, $2, $3, $4, $5, $6, ($7==""?1:$7), $8
     if ($4!="ok" || $6!=5 || ($3=="true" && $7!="" && $7!=1)) bad=1; n++}
    END{exit bad || n!=12}'
}

check_large() {
  [ -f "$1" ] || { echo "  no trials.csv"; return 1; }
  rows "$1" case size status reason median | awk -F'|' '
    {printf "  %s, %s elements: %s %s %s s\n", $1, $2, $3, $4, $5; if ($3!="ok" || $2<2147483648) bad=1; n++}
    END{exit bad || n!=2}'
}

# the Lua tensor API: every trial ok; the same draws on both devices (rand
# exactly, randn within 1e-6 of the sum of |z|)
check_lua() {
  all_ok "$1" || return 1
  rows "$1" size device rand_sum randn_abs_sum err_sin err_exp err_pow25 err_matmul err_chain | awk -F'|' '
    {r[$1","$2]=$3; z[$1","$2]=$4; s[$1]=1
     if ($2!="cpu") printf "  size %s on %s: max rel. error sin %s exp %s pow(2.5) %s matmul %s chain %s\n", $1, $2, $5, $6, $7, $8, $9}
    END{for (k in s) {c=z[k",cpu"]; g=z[k",cuda"]; d=(c!=0)?(g-c)/c:1; if (d<0) d=-d
          printf "  size %s: rand sum cpu %s cuda %s; |randn| sum relative difference %.2g\n", k, r[k",cpu"], r[k",cuda"], d
          if (r[k",cpu"]=="" || r[k",cpu"]!=r[k",cuda"] || !(d<=1e-6)) bad=1; n++}
        exit bad || n!=2}'
}

check_cnn_fuse() {
  all_ok "$1" 14 || return 1
  rows "$1" case size logit_error compile_seconds | awk -F'|' '{printf "  %s size %s: logit_error %s compile_seconds %s\n", $1, $2, $3, $4}'
}
