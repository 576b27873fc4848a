#!/bin/bash
# tests/completion.sh - completion/runner.bash: it registers for `runner`
# and completes commands, command words, options and workload names.
# RUNNER_BIN: the runner used for `runner list workloads`.
set -u
cd "$(dirname "$0")/.." || exit 1
fails=0
check() { # NAME EXPECTED-WORD WORDS...
    local name=$1 want=$2
    shift 2
    COMP_WORDS=("$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _runner
    local got=" ${COMPREPLY[*]} "
    if [[ "$got" == *" $want "* ]]; then :; else
        echo "completion: $name: expected '$want' in [${COMPREPLY[*]}]"
        fails=$((fails + 1))
    fi
}
source completion/runner.bash || { echo "completion: sourcing failed"; exit 1; }
complete -p runner >/dev/null || { echo "completion: complete -p runner failed"; exit 1; }
bash -c 'source completion/runner.bash; complete -p runner' >/dev/null ||
    { echo "completion: complete -p runner failed in a fresh bash"; exit 1; }
check "runner li" list runner li
# in a folder with no file beginning with li: only the command
empty=$(mktemp -d)
(cd "$empty" && COMP_WORDS=(runner li) && COMP_CWORD=1 && _runner &&
    [ "${COMPREPLY[*]}" = list ]) || { echo "completion: runner li did not give just list"; fails=$((fails + 1)); }
rmdir "$empty"
check "runner ex" export runner ex
check "runner list w" workloads runner list w
check "runner --no" --no-plots runner --no
check "export --format" json runner export results --format ''
check "compare --format" md runner compare a b --format ''
check "runner hi" history runner hi
check "history import" import runner history im
check "history --format" csv runner history --format ''
check "gate --window" --window runner gate results --win
check "--no-history" --no-history runner --no-hi
check "a yaml file" experiments/matmul.yaml runner experiments/matm
check "runner ne" new runner ne
check "runner new w" workload runner new w
check "runner new workload x --c" --cuda runner new workload x --c
check "runner exe" exec runner exe
check "exec --par" --parameter-list runner exec --par
check "exec --protocol" persistent runner exec --protocol pers
check "exec -- prog" sleep runner exec -r 3 -- slee
bin=${RUNNER_BIN:-bin/runner}
if [ -x "$bin" ]; then
    check "workload names" workload=matmul "$bin" --filter workload=mat
fi
if [ $fails -eq 0 ]; then echo "completion: ok"; else echo "completion: $fails failed"; exit 1; fi
