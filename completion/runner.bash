# bash completion for runner (installed by `make install` to
# $(PREFIX)/share/bash-completion/completions/runner).
# Completes the commands (`runner new workload` too), their options and values (after
# `runner exec ... --`, programs and files), workload names (from
# `runner list workloads`) after `--filter workload=`, experiment files
# (*.yaml, *.yml) and run folders.

_runner_workloads()
{
    "${COMP_WORDS[0]:-runner}" list workloads 2>/dev/null |
        awk 'NR > 1 && /^[A-Za-z0-9_]/ { print $1 }'
}

_runner()
{
    local cur prev cmd i
    COMPREPLY=()
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev=""
    [ "$COMP_CWORD" -gt 0 ] && prev="${COMP_WORDS[COMP_CWORD-1]}"

    local commands="validate plot report export list merge submit status compare machine history gate new exec help"
    local run_opts="--output --filter --resume --shard --run-dir --trace --no-plots --quiet
        --allow-unsafe-lua --history --no-history --revision --dry-run --help --version"

    # the command: the first word after `runner` that is not an option
    cmd=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${COMP_WORDS[i]}" in
        -*) ;;
        *)
            case " $commands " in
            *" ${COMP_WORDS[i]} "*) cmd="${COMP_WORDS[i]}" ;;
            esac
            break
            ;;
        esac
    done

    # values of options
    case "$prev" in
    --output | --run-dir | --dir | --charts)
        COMPREPLY=($(compgen -d -- "$cur"))
        return 0
        ;;
    --config)
        COMPREPLY=($(compgen -f -X '!*.y*ml' -- "$cur") $(compgen -d -- "$cur"))
        return 0
        ;;
    --trace)
        COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
        return 0
        ;;
    --history)
        COMPREPLY=($(compgen -f -X '!*.sqlite' -- "$cur") $(compgen -d -- "$cur"))
        return 0
        ;;
    --format)
        if [ "$cmd" = compare ] || [ "$cmd" = history ]; then
            COMPREPLY=($(compgen -W "text md csv json" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "json csv spreadsheet" -- "$cur"))
        fi
        return 0
        ;;
    --filter)
        if [[ "$cur" == workload=* ]]; then
            COMPREPLY=($(compgen -P workload= -W "$(_runner_workloads)" -- "${cur#workload=}"))
        else
            COMPREPLY=($(compgen -W "workload= device= size= threads= dtype= target=" -- "$cur"))
            compopt -o nospace 2>/dev/null
        fi
        return 0
        ;;
    --protocol)
        COMPREPLY=($(compgen -W "per_call persistent" -- "$cur"))
        return 0
        ;;
    --shell)
        COMPREPLY=($(compgen -W "none" -- "$cur"))
        return 0
        ;;
    --export-json)
        COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
        return 0
        ;;
    --shard | --shards | --partition | --time | --gpus-per-shard | --sbatch-arg | \
        --threshold | --noise-floor | --ignore | --revision | --experiment | --machine | --window | \
        --warmup | -w | --runs | -r | --min-runs | -m | --max-runs | -M | --parameter-list | -L | \
        --parameter-scan | -P | --parameter-step-size | -D | --command-name | -n | --timeout)
        return 0
        ;;
    esac

    case "$cmd" in
    "")
        if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "$run_opts" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$commands" -- "$cur")
                $(compgen -f -X '!*.y*ml' -- "$cur") $(compgen -d -- "$cur"))
        fi
        ;;
    validate)
        COMPREPLY=($(compgen -f -X '!*.y*ml' -- "$cur") $(compgen -d -- "$cur"))
        ;;
    list)
        COMPREPLY=($(compgen -W "workloads devices" -- "$cur"))
        ;;
    machine)
        COMPREPLY=($(compgen -W "--show --reprobe --json --help" -- "$cur"))
        ;;
    plot | report | merge | status | export | gate)
        if [[ "$cur" == -* ]]; then
            local o="--quiet"
            [ "$cmd" = merge ] && o="--quiet --history --no-history --revision"
            [ "$cmd" = gate ] && o="--window --threshold --history"
            [ "$cmd" = plot ] && o="--config --quiet"
            [ "$cmd" = export ] && o="--format"
            COMPREPLY=($(compgen -W "$o" -- "$cur"))
        else
            COMPREPLY=($(compgen -d -- "$cur"))
        fi
        ;;
    submit)
        if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "--shards --partition --time --gpus-per-shard --sbatch-arg
                --output --resume" -- "$cur"))
        else
            COMPREPLY=($(compgen -f -X '!*.y*ml' -- "$cur") $(compgen -d -- "$cur"))
        fi
        ;;
    new)
        # runner new workload NAME [--cuda] [--dir DIR]
        if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "--cuda --dir" -- "$cur"))
        elif [ "$prev" = new ]; then
            COMPREPLY=($(compgen -W "workload" -- "$cur"))
        fi
        ;;
    exec)
        # runner exec [OPTIONS] -- PROGRAM [ARG...]: after `--`, the program's words
        for ((i = 1; i < COMP_CWORD; i++)); do
            if [ "${COMP_WORDS[i]}" = -- ]; then
                if [ "$i" -eq $((COMP_CWORD - 1)) ]; then
                    COMPREPLY=($(compgen -c -- "$cur") $(compgen -f -- "$cur"))
                else
                    COMPREPLY=($(compgen -f -- "$cur"))
                fi
                return 0
            fi
        done
        if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "--warmup --runs --min-runs --max-runs --parameter-list
                --parameter-scan --parameter-step-size --command-name --protocol --timeout
                --prepare --export-json --yaml --no-shell --shell --output --no-plots --quiet --history
                --no-history --revision --help --" -- "$cur"))
        fi
        ;;
    history)
        if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "--experiment --machine --filter --format --charts --no-charts
                --history --revision" -- "$cur"))
        elif [ "$prev" = history ]; then
            COMPREPLY=($(compgen -W "import" -- "$cur"))
        else
            COMPREPLY=($(compgen -d -- "$cur"))
        fi
        ;;
    compare)
        if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "--threshold --noise-floor --ignore --busy-ok --format --history --no-history --" -- "$cur"))
        else
            COMPREPLY=($(compgen -d -- "$cur"))
        fi
        ;;
    esac
    return 0
}

complete -F _runner runner
