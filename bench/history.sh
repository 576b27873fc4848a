#!/usr/bin/env bash
# bench/history.sh [DIR] - the history database at scale (doc/history.md#scale):
# a database of 10,000 runs x 100 trials (10 experiments of 1,000 runs on one
# machine, written with SQL), then
#   - recording a run of 100 trials into it (`runner history import`, the
#     recording a finished run does), median of 5;
#   - `runner history --experiment E` of one experiment (1,000 runs x 100
#     trial keys, change points found in each), without and with its charts;
#   - the database's size.
# Prints a table; not a test (timings; figures in bench/NOTES-history.md#scale).  RUNNER: the runner (default bin/runner).
set -eu
cd "$(dirname "$0")/.."
RUNNER=${RUNNER:-$PWD/bin/runner}
DIR=${1:-$(mktemp -d /tmp/runner-history-bench-XXXXXX)}
mkdir -p "$DIR"
DB=$DIR/history.sqlite
rm -f "$DB" "$DB"-wal "$DB"-shm

# a real run of 100 trials (noop: quick), the template of the recorded runs
cat >"$DIR/bench.yaml" <<'EOF'
name: bench
workload: noop
repeats: 3
sweep:
  size: {range: [1, 100, 1]}
EOF
if [ ! -d "$DIR/res/bench/latest" ]; then
    "$RUNNER" --quiet --no-plots --no-history --output "$DIR/res" "$DIR/bench.yaml" >/dev/null
fi
RUN=$(readlink -f "$DIR/res/bench/latest")
"$RUNNER" history import "$RUN" --history "$DB" 2>/dev/null

# 10,000 runs x 100 trials on the same machine: 10 experiments of 1,000 runs,
# each trial's median with 2 % noise and a 10 % step half way
t0=$(date +%s.%N)
sqlite3 "$DB" <<'EOF'
PRAGMA journal_mode = WAL;
BEGIN;
WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 10000)
INSERT INTO runs(id, experiment, keys_hash, run_id, run_dir, started, ended, runner_version,
                 revision, dirty, revision_time, machine, recorded)
SELECT 1000 + i, 'exp' || (i % 10), 'h', printf('R%05d', i), '/nowhere',
       strftime('%Y-%m-%dT%H:%M:%SZ', 1700000000 + i * 60, 'unixepoch'), NULL, '0.1.0',
       printf('%08x%032d', i, 0), 0, 1700000000 + i * 60, (SELECT machine FROM runs LIMIT 1),
       '2026-01-01T00:00:00Z'
FROM r;
WITH RECURSIVE t(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM t WHERE k < 99)
INSERT INTO trials(run, trial, key, workload, device, status, median, ci_low, ci_high, samples,
                   device_median, noise, busy, throttled)
SELECT r.id, t.k, 'size=' || (t.k + 1), 'noop', 'cpu', 'ok',
       1e-6 * (t.k + 1) * (1 + 0.02 * ((abs(random()) % 2001) - 1000) / 1000.0)
           * (CASE WHEN r.id >= 1000 + 5000 THEN 1.1 ELSE 1 END),
       NULL, NULL, 3, NULL, NULL, 0, 0
FROM runs r, t WHERE r.id > 1000;
COMMIT;
PRAGMA wal_checkpoint(TRUNCATE);
EOF
t1=$(date +%s.%N)
nruns=$(sqlite3 "$DB" 'SELECT count(*) FROM runs')
ntrials=$(sqlite3 "$DB" 'SELECT count(*) FROM trials')

# recording: a copy of the run under a new name each time (each is a new run)
rec=()
for k in 1 2 3 4 5; do
    copy="$DIR/res/bench/copy-$k-$$"
    cp -r "$RUN" "$copy"
    a=$(date +%s%N)
    "$RUNNER" history import "$copy" --history "$DB" 2>/dev/null
    b=$(date +%s%N)
    rec+=($(( (b - a) / 1000000 )))
    rm -rf "$copy"
done
rec_ms=$(printf '%s\n' "${rec[@]}" | sort -n | sed -n 3p)

q=()
for k in 1 2 3; do
    a=$(date +%s%N)
    "$RUNNER" history --history "$DB" --experiment exp3 --no-charts >/dev/null
    b=$(date +%s%N)
    q+=($(( (b - a) / 1000000 )))
done
q_ms=$(printf '%s\n' "${q[@]}" | sort -n | sed -n 2p)
a=$(date +%s%N)
"$RUNNER" history --history "$DB" --experiment exp3 --charts "$DIR/charts" >/dev/null 2>&1
b=$(date +%s%N)
qc_ms=$(( (b - a) / 1000000 ))
sqlite3 "$DB" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
size=$(stat -c %s "$DB")

printf '| what | figure | target |\n| --- | ---: | --- |\n'
printf '| runs x trials in the database | %s x %s (%s trial rows) | 10,000 x 100 |\n' \
    "$nruns" "$((ntrials / (nruns > 0 ? nruns : 1)))" "$ntrials"
printf '| writing them with SQL (setup) | %.1f s | |\n' "$(echo "$t1 - $t0" | bc)"
printf '| recording a run of 100 trials (median of 5: %s ms) | %s ms | < 50 ms |\n' "${rec[*]}" "$rec_ms"
printf '| runner history of one experiment (1,000 runs x 100 keys), no charts (median of 3: %s ms) | %s ms | < 1 s |\n' "${q[*]}" "$q_ms"
printf '| the same with its trend chart | %s ms | |\n' "$qc_ms"
printf '| database size | %s MB (%s bytes, %s bytes a trial row) | |\n' \
    "$(echo "scale=1; $size / 1048576" | bc)" "$size" "$((size / (ntrials > 0 ? ntrials : 1)))"
echo "bench/history.sh: database in $DB"
