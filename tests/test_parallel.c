/* test_parallel.c - issue 18: `parallel: processes` (barrier timing, real
 * overlap, a crashing process, split and replicate, a teardown's error),
 * `warmup_curve` (with the fake CUDA backend's phases and a fresh worker
 * per trial) and the trace-event file (its structure, and its sample spans
 * against samples.csv). */
#include "base/csv.h"
#include "runproc.h"

#include <criterion/criterion.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --- parallel: processes ----------------------------------------------- */

Test(parallel, processes_start_together_on_the_barrier_and_overlap, .timeout = 60)
{
    /* two processes each sleep 50 ms: together 50 ms, not 100 */
    proc_out r;
    csv_table t;
    char *d = run_trials("workload: selftest\nparams: {action: sleep, seconds: 0.05}\n"
                         "parallel: processes\nthreads: 2\nshare: replicate\n"
                         "repeats: 5\nbatch: 1\nwarmup_time: 0\n",
                         0, &r, &t);
    expect_trial(&t, 1, "ok", NULL);
    cr_assert_str_eq(cell(&t, 1, "processes"), "2");
    double med = cell_num(&t, 1, "median"), skew = cell_num(&t, 1, "barrier_skew_seconds");
    cr_assert(med >= 0.05 && med < 0.075, "barrier to last finish: %g s for two 50 ms sleeps", med);
    cr_assert(skew >= 0 && skew < 0.005, "the processes left the barrier %g s apart", skew);
    cr_assert(cell_num(&t, 1, "overlap") > 0.9, "overlap %s", cell(&t, 1, "overlap"));
    double up = cell_num(&t, 1, "startup_seconds"), fork_up = cell_num(&t, 1, "startup_fork_seconds");
    cr_assert(up > 0 && up < 5 && fork_up > 0 && fork_up <= up, "start-up %g s, fork %g s", up,
              fork_up);
    trials_done(&t, d);
}

/* shared_cpu_calls (doc/timing.md#processes-and-threads): counted when the
 * worker has a CPU for each process, left empty when it has fewer */
Test(parallel, shared_cpu_calls_is_counted_only_when_each_process_has_a_cpu, .timeout = 60)
{
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
        cr_skip_test("needs 2 CPUs");
    proc_out r;
    csv_table t;
    char *d = run_trials("workload: sumsq\nsize: 100000\nparallel: processes\nthreads: 2\n"
                         "sweep:\n  affinity: [none, \"0\"]\nrepeats: 5\nbatch: 1\n",
                         0, &r, &t);
    cr_assert_eq(t.nrows, 3);
    for (int i = 1; i <= 2; i++)
        expect_trial(&t, i, "ok", NULL);
    const char *own = cell(&t, 1, "shared_cpu_calls"), *one = cell(&t, 2, "shared_cpu_calls");
    cr_assert(*own && atoi(own) >= 0 && atoi(own) <= 5, "two CPUs: shared_cpu_calls '%s'", own);
    cr_assert_str_eq(one, "", "one CPU for two processes: sharing is asked for");
    /* a count above 0 is named in the noise column */
    if (atoi(own) > 0)
        cr_assert(strstr(cell(&t, 1, "noise"), "processes shared a CPU in"), "noise '%s'",
                  cell(&t, 1, "noise"));
    trials_done(&t, d);
}

Test(parallel, the_processes_really_run_at_once_in_the_trace, .timeout = 60)
{
    proc_out r;
    char *d = tmpdir();
    char trace[4096];
    snprintf(trace, sizeof trace, "%s/t.json", d);
    const char *extra[] = {"--trace", trace, NULL};
    char *d2 = run_yaml("workload: selftest\nparams: {action: sleep, seconds: 0.02}\n"
                        "parallel: processes\nthreads: 3\nshare: replicate\n"
                        "repeats: 4\nbatch: 1\nwarmup_time: 0\n",
                        extra, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_object *all = json_object_from_file(trace);
    cr_assert(all && json_object_is_type(all, json_type_array), "%s is not a JSON array", trace);
    /* each process's "sample" spans: the k-th of every process overlap */
    int pids[3] = {0}, np = 0;
    double b[3][8], e[3][8];
    int nb[3] = {0}, ne[3] = {0};
    for (size_t i = 0; i < json_object_array_length(all); i++) {
        json_object *ev = json_object_array_get_idx(all, i), *v;
        json_object_object_get_ex(ev, "ph", &v);
        const char *ph = json_object_get_string(v);
        if (!strcmp(ph, "M")) {
            json_object *a, *nm;
            json_object_object_get_ex(ev, "args", &a);
            json_object_object_get_ex(a, "name", &nm);
            if (strstr(json_object_get_string(nm), "of 3")) {
                json_object_object_get_ex(ev, "pid", &v);
                pids[np++] = json_object_get_int(v);
            }
            continue;
        }
        json_object_object_get_ex(ev, "name", &v);
        if (strcmp(json_object_get_string(v), "sample"))
            continue;
        json_object_object_get_ex(ev, "pid", &v);
        int pid = json_object_get_int(v), k = -1;
        for (int j = 0; j < np; j++)
            k = pids[j] == pid ? j : k;
        if (k < 0)
            continue;
        json_object_object_get_ex(ev, "ts", &v);
        double ts = json_object_get_double(v);
        if (!strcmp(ph, "B") && nb[k] < 8)
            b[k][nb[k]++] = ts;
        else if (!strcmp(ph, "E") && ne[k] < 8)
            e[k][ne[k]++] = ts;
    }
    cr_assert_eq(np, 3, "three process tracks named 'process K of 3'");
    for (int k = 0; k < 3; k++)
        cr_assert_eq(nb[k], 4, "process %d: %d sample spans", k + 1, nb[k]);
    for (int s = 0; s < 4; s++) {
        double latest_start = fmax(b[0][s], fmax(b[1][s], b[2][s]));
        double first_end = fmin(e[0][s], fmin(e[1][s], e[2][s]));
        cr_assert(first_end - latest_start > 15000,
                  "sample %d: the three 20 ms calls overlap %g us only", s,
                  first_end - latest_start);
    }
    json_object_put(all);
    free(d);
    free(d2);
}

Test(parallel, a_crashing_process_fails_its_trial_only, .timeout = 60)
{
    proc_out r;
    char *d = run_yaml("workload: selftest\nparallel: processes\nthreads: 2\nshare: replicate\n"
                       "repeats: 3\n"
                       "sweep:\n  action: [none, segfault, exit, sleep]\n  in_process: [2]\n",
                       NULL, &r);
    cr_assert_eq(r.status, 1, "a failed trial: exit 1; %s", r.err);
    csv_table t;
    read_trials(d, &t);
    cr_assert_eq(t.nrows, 5);
    expect_trial(&t, 1, "ok", NULL);
    cr_assert_str_eq(cell(&t, 2, "status"), "failed");
    cr_assert_str_eq(cell(&t, 2, "reason"), "process 2 of 2 crashed: signal 11 (Segmentation fault)");
    cr_assert_str_eq(cell(&t, 3, "status"), "failed");
    cr_assert_str_eq(cell(&t, 3, "reason"), "process 2 of 2 exited with status 7");
    cr_assert_str_eq(cell(&t, 4, "status"), "ok", "the trial after them ran: %s",
                     cell(&t, 4, "reason"));
    cr_assert_str_eq(cell(&t, 4, "samples"), "3");
    /* the worker itself survived: no "worker crashed" anywhere */
    cr_assert_null(strstr(r.err, "worker crashed"), "%s", r.err);
    trials_done(&t, d);
}

Test(parallel, split_divides_the_work_and_replicate_copies_it, .timeout = 60)
{
    proc_out r;
    csv_table t;
    char *d =
        run_trials("repeats: 3\nthreads: 2\n"
                   "sweep:\n"
                   "  target:\n"
                   "    - {label: sumsq split, workload: sumsq, size: 1001, parallel: processes}\n"
                   "    - {label: sumsq replicate, workload: sumsq, size: 1001, "
                   "parallel: processes, share: replicate}\n"
                   "    - {label: sumsq threads, workload: sumsq, size: 1001}\n"
                   "    - {label: matmul rows, workload: matmul, size: 33, parallel: processes}\n"
                   "    - {label: too small, workload: sumsq, size: 1, parallel: processes}\n"
                   "    - {label: mlp split, workload: mlp_train, size: 10, parallel: processes}\n"
                   "    - {label: threads replicate, workload: sumsq, size: 10, "
                   "share: replicate}\n",
                   0, &r, &t);
    for (int i = 1; i <= 4; i++)
        cr_assert_str_eq(cell(&t, i, "status"), "ok", "%s: %s", cell(&t, i, "target"),
                         cell(&t, i, "reason"));
    /* flops are the processes' parts summed: split = the whole, replicate = twice */
    double split = cell_num(&t, 1, "gflops") * cell_num(&t, 1, "median");
    double rep = cell_num(&t, 2, "gflops") * cell_num(&t, 2, "median");
    double whole = cell_num(&t, 3, "gflops") * cell_num(&t, 3, "median");
    cr_assert(fabs(split / whole - 1) < 1e-6, "split %g, whole %g GFLOP a call", split, whole);
    cr_assert(fabs(rep / whole - 2) < 1e-6, "replicate %g, whole %g GFLOP a call", rep, whole);
    cr_assert_str_eq(cell(&t, 5, "status"), "skipped");
    cr_assert_str_eq(cell(&t, 5, "reason"), "share: split: size 1 is fewer than the 2 processes");
    cr_assert_str_eq(cell(&t, 6, "status"), "skipped");
    cr_assert_str_eq(cell(&t, 6, "reason"),
                     "share: split: mlp_train has no work to divide (use share: replicate)");
    cr_assert_str_eq(cell(&t, 7, "status"), "skipped");
    cr_assert_str_eq(cell(&t, 7, "reason"), "share: replicate needs parallel: processes");
    trials_done(&t, d);
}

Test(parallel, lua_workloads_run_their_part_in_each_process, .timeout = 60)
{
    char *d = tmpdir();
    /* each process sees its part of the size and its number */
    write_text(d, "w.lua",
               "return {\n"
               "  setup = function(ctx, p)\n"
               "    assert(p.process_count == 2, 'process_count ' .. tostring(p.process_count))\n"
               "    local want = p.process_index == 1 and 51 or 50\n"
               "    assert(p.size == want, 'size ' .. p.size .. ' in process ' .. p.process_index)\n"
               "    return {}\n"
               "  end,\n"
               "  run = function(ctx, p, s) s.x = ctx:rand(p.size):sum():item() end,\n"
               "  flops = function(p) return 2 * p.size end,\n"
               "}\n");
    proc_out r;
    csv_table t;
    run_trials_in(d,
                  "workload: lua:w.lua\nsize: 101\nparallel: processes\nthreads: 2\nrepeats: 3\n",
                  0, &r, &t);
    expect_trial(&t, 1, "ok", NULL);
    /* the file's flops, summed over the parts: 2 x 101 per call */
    double f = cell_num(&t, 1, "gflops") * cell_num(&t, 1, "median") * 1e9;
    cr_assert(fabs(f - 202) < 1e-3, "flops a call: %g", f);
    trials_done(&t, d);
}

/* A Lua workload's teardown runs in each process; its error was dropped.
 * Now it fails the trial, named by its process, as it does in the worker;
 * a trial that failed already says both. */
Test(parallel, a_process_teardown_error_fails_the_trial, .timeout = 60)
{
    char *d = dir_with(
        "w.lua", "return {\n"
                 "  run = function(ctx, p, s) end,\n"
                 "  check = function(ctx, p, s)\n"
                 "    if p.mode == 'check' and p.process_index == 1 then error('wrong sum') end\n"
                 "  end,\n"
                 "  teardown = function(ctx, p, s)\n"
                 "    if p.mode ~= 'ok' and p.process_index == 2 then error('cannot let go') end\n"
                 "  end,\n"
                 "}\n");
    proc_out r;
    csv_table t;
    run_trials_in(d,
                  "workload: lua:w.lua\nsize: 10\nparallel: processes\nthreads: 2\nrepeats: 2\n"
                  "sweep:\n  spawn: [once, per_call]\n  mode: [ok, teardown, check]\n",
                  1, &r, &t);
    cr_assert_eq(t.nrows, 7);
    for (int i = 1; i < t.nrows; i++) {
        const char *mode = cell(&t, i, "mode"), *why = cell(&t, i, "reason");
        if (!strcmp(mode, "ok")) {
            cr_assert_str_eq(cell(&t, i, "status"), "ok", "%s", why);
            continue;
        }
        cr_assert_str_eq(cell(&t, i, "status"), "failed", "%s", why);
        const char *torn = strstr(why, "process 2 of 2: ");
        cr_assert(torn && strstr(torn, "cannot let go"), "trial %d: %s", i, why);
        if (!strcmp(mode, "teardown")) {
            cr_assert(!strncmp(why, "teardown failed: process 2 of 2: ", 33), "%s", why);
        } else { /* already failed: its reason first */
            cr_assert(strstr(why, "process 1 of 2: ") && strstr(why, "wrong sum"), "%s", why);
            cr_assert(strstr(why, "; teardown failed too: process 2 of 2: "), "%s", why);
        }
    }
    trials_done(&t, d);
}

/* --- warmup_curve ------------------------------------------------------ */

Test(warmup_curve, the_first_k_calls_are_timed_one_by_one, .timeout = 60)
{
    proc_out r;
    csv_table t;
    char *d = run_trials("workload: selftest\nparams: {action: sleep, seconds: 0.002}\n"
                         "warmup_curve: 6\nrepeats: 3\nwarmup_time: 0\n",
                         0, &r, &t);
    const char *c = cell(&t, 1, "first_calls");
    double v[8];
    int n = 0;
    for (char *end; n < 8; n++) {
        v[n] = strtod(c, &end);
        if (end == c)
            break;
        c = end;
    }
    cr_assert_eq(n, 6, "six calls: '%s'", cell(&t, 1, "first_calls"));
    for (int i = 0; i < n; i++)
        cr_assert(v[i] >= 0.002 && v[i] < 0.5, "call %d took %g s", i + 1, v[i]);
    cr_assert(fabs(v[0] - cell_num(&t, 1, "cold")) < 1e-3 * v[0], "cold is the curve's first call");
    /* the curve's calls are warmups: at least 6 untimed calls */
    cr_assert(cell_num(&t, 1, "warmup_calls") >= 6, "%s", cell(&t, 1, "warmup_calls"));
    trials_done(&t, d);
}

Test(warmup_curve, cuda_phases_of_a_fresh_worker_with_the_fake_backend, .timeout = 60)
{
    char fake[4096];
    snprintf(fake, sizeof fake, "%s/fake-1.so", getenv("RUNNER_FAKES"));
    setenv("RUNNER_CUDA_BACKEND", fake, 1);
    setenv("FAKE_DEVICES", "1", 1);
    char *d = tmpdir();
    /* trials 0 and 1 ask for a curve (each a fresh worker: each pays the
     * context); trial 2 does not, and runs in trial 1's worker */
    write_text(d, "e.yaml", "workload: noop\ndevice: cuda\nrepeats: 3\n"
                            "sweep:\n  warmup_curve: [4, 5, 0]\n");
    char exp[4096], rd[4096];
    snprintf(exp, sizeof exp, "%s/e.yaml", d);
    snprintf(rd, sizeof rd, "%s/run", d);
    proc_out r;
    run((char *[]){"--quiet", "--run-dir", rd, exp, NULL}, &r);
    unsetenv("RUNNER_CUDA_BACKEND");
    unsetenv("FAKE_DEVICES");
    cr_assert_eq(r.status, 0, "%s", r.err);
    csv_table t;
    read_trials(d, &t);
    for (int i = 1; i <= 2; i++) {
        expect_trial(&t, i, "ok", NULL);
        cr_assert_str_eq(cell(&t, i, "cold_context"), "0.25", "trial %d: a fresh worker", i - 1);
        cr_assert_str_eq(cell(&t, i, "cold_module"), "0.004");
        cr_assert(*cell(&t, i, "first_calls"), "trial %d has its curve", i - 1);
    }
    cr_assert_str_eq(cell(&t, 3, "cold_context"), "", "trial 2 reused trial 1's worker");
    cr_assert_str_eq(cell(&t, 3, "first_calls"), "");
    /* the default warmup chart, with the phases written on it */
    char p[4096];
    snprintf(p, sizeof p, "%s/run/plots/warmup.gp", d);
    FILE *f = fopen(p, "r");
    cr_assert(f, "no %s", p);
    char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    cr_assert(strstr(buf, "context creation 250.00 ms, module load 4.00 ms"), "%s", buf);
    cr_assert(strstr(buf, "set logscale y"), "log y");
    trials_done(&t, d);
}

/* --- the trace --------------------------------------------------------- */

static const char *str_of(json_object *ev, const char *k)
{
    json_object *v;
    return json_object_object_get_ex(ev, k, &v) ? json_object_get_string(v) : NULL;
}

static int has_num(json_object *ev, const char *k, double *out)
{
    json_object *v;
    if (!json_object_object_get_ex(ev, k, &v) ||
        !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
        return 0;
    *out = json_object_get_double(v);
    return 1;
}

typedef struct track {
    int pid, tid;
    double last;
    int depth;
    long trial;       /* the worker's trial span now open */
    struct {
        const char *name;
        double ts;
        long trial;
        int n, calls; /* a sample's number and calls */
    } open[64];
} track;

static int arg_int(json_object *ev, const char *k, int dflt)
{
    json_object *a, *v;
    if (!json_object_object_get_ex(ev, "args", &a) || !json_object_object_get_ex(a, k, &v))
        return dflt;
    return json_object_get_int(v);
}

Test(trace, a_20_trial_run_is_well_formed_and_agrees_with_samples_csv, .timeout = 120)
{
    char *d = dir_with("hooks.lua",
                       "return {after_trial = function(t, r) return {seen = 1} end}\n");
    /* 20 trials: two sleep lengths x batch 1 and 8 x 5 seeds */
    proc_out r;
    run_yaml_in(d,
                "workload: selftest\nhooks: hooks.lua\nrepeats: 5\ntrace: true\n"
                "warmup_time: 0\nparams: {action: sleep}\n"
                "sweep:\n  seconds: [0.0005, 0.002]\n  batch: [1, 8]\n"
                "  seed: {range: [1, 5]}\n",
                NULL, &r);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char tp[4096];
    snprintf(tp, sizeof tp, "%s/run/trace.json", d);

    /* samples.csv: trial, sample -> seconds */
    csv_table s;
    char p[4096];
    snprintf(p, sizeof p, "%s/run/samples.csv", d);
    cr_assert_eq(csv_read(p, &s), 0);
    cr_assert_eq(s.nrows - 1, 20 * 5, "%d samples", s.nrows - 1);
    double secs[20][5];
    for (int i = 1; i < s.nrows; i++)
        secs[atoi(s.rows[i][0])][atoi(s.rows[i][1])] = atof(s.rows[i][2]);
    csv_free(&s);

    json_object *all = json_object_from_file(tp);
    cr_assert(all && json_object_is_type(all, json_type_array), "%s is not a JSON array", tp);
    track tr[16];
    int ntr = 0, matched = 0, hooks = 0, worst_i = -1;
    double worst = 0;
    for (size_t i = 0; i < json_object_array_length(all); i++) {
        json_object *ev = json_object_array_get_idx(all, i);
        const char *ph = str_of(ev, "ph"), *name = str_of(ev, "name");
        double ts, pid, tid;
        cr_assert(ph && name, "event %zu: no ph or name", i);
        cr_assert(has_num(ev, "pid", &pid) && has_num(ev, "tid", &tid), "event %zu: pid, tid", i);
        if (!strcmp(ph, "M")) {
            cr_assert_str_eq(name, "process_name");
            continue;
        }
        cr_assert(!strcmp(ph, "B") || !strcmp(ph, "E"), "event %zu: ph %s", i, ph);
        cr_assert(has_num(ev, "ts", &ts), "event %zu: ts", i);
        track *k = NULL;
        for (int j = 0; j < ntr; j++)
            if (tr[j].pid == (int)pid && tr[j].tid == (int)tid)
                k = &tr[j];
        if (!k) {
            cr_assert(ntr < 16);
            k = &tr[ntr++];
            memset(k, 0, sizeof *k);
            k->pid = (int)pid;
            k->tid = (int)tid;
            k->trial = -1;
        }
        cr_assert(ts >= k->last, "event %zu (%s %s): ts %f before its track's %f", i, ph, name,
                  ts, k->last);
        k->last = ts;
        if (!strcmp(ph, "B")) {
            cr_assert(k->depth < 64);
            if (!strcmp(name, "trial"))
                k->trial = arg_int(ev, "n", -1);
            hooks += !strcmp(name, "hook after_trial");
            k->open[k->depth].name = name;
            k->open[k->depth].ts = ts;
            k->open[k->depth].trial = k->trial;
            k->open[k->depth].n = arg_int(ev, "n", -1);
            k->open[k->depth].calls = arg_int(ev, "calls", 0);
            k->depth++;
            continue;
        }
        cr_assert(k->depth > 0, "event %zu: an end (%s) with no span open", i, name);
        k->depth--;
        cr_assert_str_eq(name, k->open[k->depth].name, "event %zu: ends %s inside %s", i, name,
                         k->open[k->depth].name);
        if (strcmp(name, "sample"))
            continue;
        /* a sample's span, per call, against its samples.csv line */
        long trial = k->open[k->depth].trial;
        int n = k->open[k->depth].n, calls = k->open[k->depth].calls;
        cr_assert(trial >= 0 && trial < 20 && n >= 0 && n < 5 && calls >= 1,
                  "event %zu: sample %d of trial %ld, %d calls", i, n, trial, calls);
        double per_call = (ts - k->open[k->depth].ts) * 1e-6 / calls;
        double off = fabs(per_call / secs[trial][n] - 1);
        if (off > worst) {
            worst = off;
            worst_i = (int)i;
        }
        matched++;
    }
    for (int j = 0; j < ntr; j++)
        cr_assert_eq(tr[j].depth, 0, "track %d: %d spans never closed", tr[j].pid, tr[j].depth);
    cr_assert_eq(matched, 100, "%d sample spans for 100 samples", matched);
    cr_assert(worst < 0.01, "a sample span is %.3f%% off samples.csv (event %d)", 100 * worst,
              worst_i);
    cr_assert_eq(hooks, 20, "an after_trial hook span per trial: %d", hooks);
    cr_assert(ntr >= 2, "the runner's track and a worker's");
    json_object_put(all);
    free(d);
}

Test(trace, a_trace_file_that_cannot_be_written_is_refused_before_anything_runs, .timeout = 30)
{
    proc_out r;
    const char *extra[] = {"--trace", "/nonexistent-folder/t.json", NULL};
    char *d = run_yaml("workload: noop\nrepeats: 2\n", extra, &r);
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, "cannot write the trace /nonexistent-folder/t.json"), "%s", r.err);
    char p[4096];
    snprintf(p, sizeof p, "%s/run/trials.csv", d);
    cr_assert_neq(access(p, F_OK), 0, "nothing ran");
    free(d);
}
