/* test_submit.c - `runner submit` and `runner status` without Slurm: the
 * job scripts (quoting for sh and for sbatch's #SBATCH parser, run through
 * a real /bin/sh), the time-limit format, the parsers of sbatch, squeue and
 * scontrol output, and both commands against fake sbatch/squeue scripts
 * ($RUNNER_SBATCH, $RUNNER_SQUEUE, $RUNNER_SCONTROL).  tests/slurm/run.sh
 * does the same on a real cluster. */
#include "cli/commands.h"
#include "slurm/slurm.h"
#include "base/util.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------------------ */

static char *tmpdir(void)
{
    char *d = xstrdup("/tmp/runner-submit-XXXXXX");
    cr_assert(mkdtemp(d), "mkdtemp: %s", strerror(errno));
    return d;
}

static void rm_rf(const char *dir)
{
    pid_t pid = fork();
    if (pid == 0) {
        execlp("rm", "rm", "-rf", "--", dir, (char *)NULL);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
}

static void put(const char *path, const char *text, int exec)
{
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
    if (exec)
        chmod(path, 0755);
}

static char *slurp(const char *path)
{
    char *t = read_file(path, NULL);
    return t ? t : xstrdup("");
}

/* Runs `sh -c CMD` with an environment entry (or none); its stdout, and its
 * exit status in *rc. */
static char *sh_out(const char *cmd, const char *env, int *rc)
{
    int p[2];
    cr_assert(pipe(p) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(p[1], 1);
        close(p[0]);
        unsetenv("SLURM_ARRAY_TASK_ID");
        if (env)
            putenv((char *)env);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    strbuf b = {0};
    char buf[4096];
    ssize_t n;
    while ((n = read(p[0], buf, sizeof buf)) > 0)
        sb_putn(&b, buf, (size_t)n);
    close(p[0]);
    int st;
    waitpid(pid, &st, 0);
    *rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return sb_take(&b);
}

/* sbatch's reading of one #SBATCH argument, from its documented rules:
 * new versions take '...' and "..." quotes and a backslash for the next
 * character, and end at an unquoted '#'; old ones toggle on '"' only and
 * end at any unescaped '#'.  Both blank out "packjob" in the line (newer
 * ones "hetjob" too) before parsing.  Returns the argument (malloc'd) and
 * in *rest what follows it. */
static char *sbatch_arg(const char *line, int old, const char **rest)
{
    char *l = xstrdup(line);
    for (const char *w = "packjob"; w; w = strcmp(w, "packjob") ? NULL : "hetjob") {
        char *at;
        while ((at = strcasestr(l, w)))
            memset(at, ' ', strlen(w));
    }
    strbuf b = {0};
    const char *p = l;
    while (*p == ' ' || *p == '\t')
        p++;
    char q = 0;
    int esc = 0;
    for (; *p && *p != '\n' && (q || (*p != ' ' && *p != '\t')); p++) {
        if (esc) {
            esc = 0;
        } else if (*p == '\\') {
            esc = 1;
            continue;
        } else if (q && *p == q) {
            q = 0;
            continue;
        } else if (!q && (*p == '"' || (!old && *p == '\''))) {
            q = *p;
            continue;
        } else if (*p == '#' && (!q || old)) {
            break;
        }
        sb_putc(&b, *p);
    }
    if (rest)
        *rest = line + (p - l);
    free(l);
    return sb_take(&b);
}

/* ---- quoting -------------------------------------------------------------------- */

static const char *const nasty[] = {
    "plain",   "it's",        "a b",         "$HOME",   "`id`",       "\"q\"", "'",
    "''",      "back\\slash", "semi;colon",  "#hash",   "100%",       "a\tb",  "*",
    "packjob", "xPackJobx",   "hetjob/het",  "é ü",     "--opt=a b#c", "-",     "\\'\"#",
};

Test(submit_quote, sh_quote_round_trips_through_sh)
{
    for (size_t i = 0; i < sizeof nasty / sizeof nasty[0]; i++) {
        strbuf b = {0};
        sb_puts(&b, "printf '%s' ");
        sh_quote(&b, nasty[i]);
        int rc;
        char *out = sh_out(b.s, NULL, &rc);
        cr_assert_eq(rc, 0);
        cr_assert_str_eq(out, nasty[i], "sh read %s as '%s'", b.s, out);
        free(out);
        sb_free(&b);
    }
    strbuf b = {0};
    sh_quote(&b, "");
    cr_assert_str_eq(b.s, "''");
    sb_free(&b);
}

Test(submit_quote, sbatch_quote_reads_back_in_old_and_new_sbatch)
{
    for (size_t i = 0; i < sizeof nasty / sizeof nasty[0]; i++)
        for (int old = 0; old <= 1; old++) {
            strbuf b = {0};
            sbatch_quote(&b, nasty[i]);
            sb_puts(&b, " # a comment");
            const char *rest;
            char *got = sbatch_arg(b.s, old, &rest);
            cr_assert_str_eq(got, nasty[i], "%s sbatch read %s as '%s'", old ? "old" : "new", b.s,
                             got);
            cr_assert_str_eq(rest, " # a comment", "one argument, not more: %s", b.s);
            free(got);
            sb_free(&b);
        }
    strbuf b = {0};
    sbatch_quote(&b, "--mem=4G");
    cr_assert_str_eq(b.s, "--mem=4G", "safe arguments stay bare");
    sb_free(&b);
}

Test(submit_quote, output_pattern_doubles_percent)
{
    strbuf b = {0};
    slurm_pattern_escape(&b, "/r/100%/x");
    cr_assert_str_eq(b.s, "/r/100%%/x");
    sb_free(&b);
}

/* ---- checks of options ----------------------------------------------------------- */

Test(submit_opts, time_limits_in_slurms_formats)
{
    const char *good[] = {"5",       "90",         "0",          "1:30",      "01:30:00",
                          "100:00",  "2-0",        "2-12",       "2-12:30",   "2-12:30:15",
                          "UNLIMITED", "infinite", "14-00:00:00"};
    const char *bad[] = {"",     "1h",   "1:60",  "1:2:3:4", "2-24", "-5",   "5-",     "1::2",
                         "a",    " 5",   "5 ",    "1-2-3",   "1:30:60", "2-1:60", "1234567890",
                         "1:5x", "1.5"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        cr_assert(slurm_time_valid(good[i]), "'%s' is a valid time", good[i]);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert(!slurm_time_valid(bad[i]), "'%s' is not a valid time", bad[i]);
}

Test(submit_opts, sbatch_args_and_paths)
{
    char err[256];
    cr_assert_eq(slurm_extra_valid("--mem=4G", err, sizeof err), 0);
    cr_assert_eq(slurm_extra_valid("-Aproject", err, sizeof err), 0);
    cr_assert_eq(slurm_extra_valid("--constraint=a|b", err, sizeof err), 0);
    cr_assert_eq(slurm_extra_valid("--mem=4G\n#SBATCH --x", err, sizeof err), -1);
    cr_assert(strstr(err, "line break"));
    cr_assert_eq(slurm_extra_valid("mem=4G", err, sizeof err), -1);
    cr_assert_eq(slurm_extra_valid("--array=1-3", err, sizeof err), -1);
    cr_assert_eq(slurm_extra_valid("-a1", err, sizeof err), -1);
    cr_assert_eq(slurm_extra_valid("--", err, sizeof err), -1);
    cr_assert_eq(slurm_extra_valid("-", err, sizeof err), -1);
    cr_assert_eq(slurm_path_valid("/a b/it's", err, sizeof err), 0);
    cr_assert_eq(slurm_path_valid("rel/dir", err, sizeof err), -1);
    cr_assert_eq(slurm_path_valid("/a\nb", err, sizeof err), -1);
    cr_assert_eq(slurm_path_valid("/a\\b", err, sizeof err), -1);
}

/* ---- the job scripts ------------------------------------------------------------------ */

/* The #SBATCH lines of a script, read as sbatch reads them (up to the first
 * line that is not a comment), as "opt\n" lines. */
static char *directives(const char *script)
{
    strbuf b = {0};
    char *copy = xstrdup(script), *save = NULL;
    int first = 1;
    for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save), first = 0) {
        if (l[0] != '#')
            break;
        if (strncmp(l, "#SBATCH ", 8))
            continue;
        const char *rest;
        char *a = sbatch_arg(l + 8, 0, &rest);
        char *a_old = sbatch_arg(l + 8, 1, NULL);
        cr_assert_str_eq(a, a_old, "old and new sbatch agree on %s", l);
        cr_assert_str_eq(rest, "", "one argument per line: %s", l);
        sb_printf(&b, "%s\n", a);
        free(a);
        free(a_old);
    }
    (void)first;
    free(copy);
    return sb_take(&b);
}

Test(submit_script, job_array_directives)
{
    char *extra[] = {"--mem=1G", "--comment=a b#c 'd'"};
    slurm_opts o = {.partition = "gpu q", .time = "1:00:00", .gpus = 2, .extra = extra, .nextra = 2};
    char *s = slurm_job_script("mm", "/r/it's 100%/x", "/bin/runner", "/r/it's 100%/x/experiment.yaml",
                               4, &o);
    cr_assert(!strncmp(s, "#!/bin/sh\n", 10));
    char *d = directives(s);
    cr_assert_str_eq(d, "--job-name=mm\n"
                        "--array=0-3\n"
                        "--output=/r/it's 100%%/x/slurm-%A_%a.out\n"
                        "--error=/r/it's 100%%/x/slurm-%A_%a.out\n"
                        "--partition=gpu q\n"
                        "--time=1:00:00\n"
                        "--gres=gpu:2\n"
                        "--mem=1G\n"
                        "--comment=a b#c 'd'\n",
                     "got:\n%s", d);
    cr_assert_eq(slurm_script_shards(s), 4);
    free(d);
    free(s);
    /* no partition, time or GPUs: no such lines */
    slurm_opts none = {0};
    s = slurm_job_script("mm", "/r", "/bin/runner", "/r/experiment.yaml", 1, &none);
    d = directives(s);
    cr_assert_str_eq(d, "--job-name=mm\n--array=0-0\n--output=/r/slurm-%A_%a.out\n"
                        "--error=/r/slurm-%A_%a.out\n");
    cr_assert_eq(slurm_script_shards(s), 1);
    free(d);
    free(s);
    s = slurm_merge_script("mm", "/r/a b", "/bin/runner", &o);
    d = directives(s);
    cr_assert_str_eq(d, "--job-name=mm-merge\n--output=/r/a b/slurm-merge-%j.out\n"
                        "--error=/r/a b/slurm-merge-%j.out\n--partition=gpu q\n--time=1:00:00\n"
                        "--mem=1G\n--comment=a b#c 'd'\n",
                     "got:\n%s", d);
    free(d);
    free(s);
}

/* The scripts' shell part, run by /bin/sh with a fake runner (at a path
 * with a quote and a space) that prints its arguments one a line. */
Test(submit_script, shell_body_passes_every_path_intact)
{
    char *dir = tmpdir();
    char *sub = xasprintf("%s/it's a \"dir\" $HOME `x` #1", dir);
    cr_assert_eq(mkdir(sub, 0755), 0);
    char *runner = xasprintf("%s/fake runner", sub);
    put(runner, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n", 1);
    char *exp = xasprintf("%s/experiment.yaml", sub);
    slurm_opts o = {.allow_unsafe_lua = 0};
    char *s = slurm_job_script("x", sub, runner, exp, 4, &o);
    char *path = xasprintf("%s/job.sbatch", dir);
    put(path, s, 0);
    strbuf cmd = {0};
    sb_puts(&cmd, "sh ");
    sh_quote(&cmd, path);
    int rc;
    char *out = sh_out(cmd.s, "SLURM_ARRAY_TASK_ID=2", &rc);
    cr_assert_eq(rc, 0);
    char *want = xasprintf("--quiet\n--shard\n3/4\n--run-dir\n%s\n%s\n", sub, exp);
    cr_assert_str_eq(out, want);
    free(out);
    free(want);
    /* not in an array task: an error, and the runner does not run */
    out = sh_out(cmd.s, NULL, &rc);
    cr_assert_neq(rc, 0);
    cr_assert_str_eq(out, "");
    free(out);
    /* the merge job */
    free(s);
    s = slurm_merge_script("x", sub, runner, &o);
    put(path, s, 0);
    out = sh_out(cmd.s, NULL, &rc);
    cr_assert_eq(rc, 0);
    want = xasprintf("merge\n%s\n", sub);
    cr_assert_str_eq(out, want);
    free(out);
    free(want);
    /* --allow-unsafe-lua goes on to the shards */
    free(s);
    o.allow_unsafe_lua = 1;
    s = slurm_job_script("x", sub, runner, exp, 2, &o);
    put(path, s, 0);
    out = sh_out(cmd.s, "SLURM_ARRAY_TASK_ID=0", &rc);
    want = xasprintf("--quiet\n--allow-unsafe-lua\n--shard\n1/2\n--run-dir\n%s\n%s\n", sub, exp);
    cr_assert_str_eq(out, want);
    free(out);
    free(want);
    sb_free(&cmd);
    free(s);
    free(path);
    free(exp);
    free(runner);
    free(sub);
    rm_rf(dir);
    free(dir);
}

/* ---- what Slurm prints ------------------------------------------------------------------ */

Test(submit_parse, sbatch_parsable_job_ids)
{
    char id[32];
    cr_assert_eq(slurm_parse_jobid("123\n", id, sizeof id), 0);
    cr_assert_str_eq(id, "123");
    cr_assert_eq(slurm_parse_jobid("4567;cluster\n", id, sizeof id), 0);
    cr_assert_str_eq(id, "4567");
    cr_assert_eq(slurm_parse_jobid("  77 \n", id, sizeof id), 0);
    cr_assert_str_eq(id, "77");
    cr_assert_eq(slurm_parse_jobid("", id, sizeof id), -1);
    cr_assert_eq(slurm_parse_jobid("Submitted batch job 5\n", id, sizeof id), -1);
    cr_assert_eq(slurm_parse_jobid("12x\n", id, sizeof id), -1);
    cr_assert_eq(slurm_parse_jobid("123456789012345678901234567890123456\n", id, sizeof id), -1);
}

Test(submit_parse, array_index_lists)
{
    int a[] = {1, 3}, b[] = {0, 1, 2, 3}, c[] = {0, 1, 2, 5, 7, 8}, d[] = {6};
    struct {
        int *v;
        int n;
        const char *want;
    } cases[] = {{a, 2, "1,3"}, {b, 4, "0-3"}, {c, 6, "0-2,5,7-8"}, {d, 1, "6"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        strbuf s = {0};
        slurm_index_list(&s, cases[i].v, cases[i].n);
        cr_assert_str_eq(s.s, cases[i].want);
        unsigned char mark[10] = {0};
        cr_assert_eq(slurm_parse_index_list(s.s, mark, 10), 0);
        for (int k = 0, j = 0; k < 10; k++) {
            int in = j < cases[i].n && cases[i].v[j] == k;
            j += in;
            cr_assert_eq(mark[k], in, "%s: index %d", s.s, k);
        }
        sb_free(&s);
    }
    unsigned char m[12] = {0};
    cr_assert_eq(slurm_parse_index_list("[1,3-4%2]", m, 12), 0);
    cr_assert(m[1] && m[3] && m[4] && !m[0] && !m[2] && !m[5]);
    memset(m, 0, sizeof m);
    cr_assert_eq(slurm_parse_index_list("0-9:3", m, 12), 0);
    cr_assert(m[0] && m[3] && m[6] && m[9] && !m[1] && !m[10]);
    cr_assert_eq(slurm_parse_index_list("x", m, 12), -1);
    cr_assert_eq(slurm_parse_index_list("3-1", m, 12), -1);
    cr_assert_eq(slurm_parse_index_list("", m, 12), -1);
}

Test(submit_parse, squeue_lines)
{
    char *st[4] = {0};
    const char *out = "12_0 RUNNING\n"
                      "12_[1-2%4] PENDING\n"
                      "13 PENDING\n"
                      "120_3 RUNNING\n"
                      "garbage\n"
                      "  12_9 RUNNING\n";
    cr_assert_eq(slurm_parse_squeue(out, "12", st, 4), 3);
    cr_assert_str_eq(st[0], "RUNNING");
    cr_assert_str_eq(st[1], "PENDING");
    cr_assert_str_eq(st[2], "PENDING");
    cr_assert_null(st[3]);
    char *one[1] = {0};
    cr_assert_eq(slurm_parse_squeue(out, "13", one, 1), 1);
    cr_assert_str_eq(one[0], "PENDING");
    for (int k = 0; k < 4; k++)
        free(st[k]);
    free(one[0]);
}

Test(submit_parse, scontrol_records)
{
    const char *out =
        "JobId=15 ArrayJobId=12 ArrayTaskId=3 JobName=x\n   UserId=root(0) GroupId=root(0)\n"
        "   JobState=CANCELLED Reason=None Dependency=(null)\n\n"
        "JobId=12 ArrayJobId=12 ArrayTaskId=0-1 JobName=x\n   JobState=PENDING Reason=Priority\n";
    char *st[4] = {0};
    st[1] = xstrdup("RUNNING"); /* squeue's answer is kept */
    cr_assert_eq(slurm_parse_scontrol_tasks(out, st, 4), 2);
    cr_assert_str_eq(st[0], "PENDING");
    cr_assert_str_eq(st[1], "RUNNING");
    cr_assert_null(st[2]);
    cr_assert_str_eq(st[3], "CANCELLED");
    for (int k = 0; k < 4; k++)
        free(st[k]);
    char *js = slurm_parse_jobstate("JobId=7 JobName=m\n   JobState=COMPLETED Reason=None\n");
    cr_assert_str_eq(js, "COMPLETED");
    free(js);
    cr_assert_null(slurm_parse_jobstate("slurm_load_jobs error: Invalid job id specified\n"));
    cr_assert(slurm_state_ended("COMPLETED"));
    cr_assert(slurm_state_ended("CANCELLED by 0"));
    cr_assert(slurm_state_ended("TIMEOUT"));
    cr_assert(!slurm_state_ended("PENDING"));
    cr_assert(!slurm_state_ended("RUNNING"));
    cr_assert(!slurm_state_ended("COMPLETING"));
}

/* ---- the commands, against fake sbatch and squeue ------------------------------------------ */

static const char *const fake_sbatch =
    "#!/bin/sh\n"
    "printf '%s\\n' \"$*\" >>\"$0.log\"\n"
    "n=$(wc -l <\"$0.log\")\n"
    "echo \"$((100 + n));testcluster\"\n";

typedef struct fixture {
    char *dir, *exp, *out, *sbatch, *log, *squeue;
} fixture;

static void fixture_make(fixture *f)
{
    f->dir = tmpdir();
    f->exp = xasprintf("%s/sub.yaml", f->dir);
    put(f->exp,
        "name: subtest\nworkload: selftest\nsweep:\n  seed: {range: [1, 10]}\nrepeats: 1\nwarmups: 0\n",
        0);
    f->out = xasprintf("%s/out dir/it's", f->dir);
    f->sbatch = xasprintf("%s/sbatch", f->dir);
    f->log = xasprintf("%s/sbatch.log", f->dir);
    f->squeue = xasprintf("%s/squeue", f->dir);
    put(f->sbatch, fake_sbatch, 1);
    put(f->squeue, "#!/bin/sh\n", 1); /* nothing in the queue */
    setenv("RUNNER_SBATCH", f->sbatch, 1);
    setenv("RUNNER_SQUEUE", f->squeue, 1);
    setenv("RUNNER_SCONTROL", "/nonexistent/scontrol", 1);
}

static void fixture_free(fixture *f)
{
    rm_rf(f->dir);
    free(f->dir);
    free(f->exp);
    free(f->out);
    free(f->sbatch);
    free(f->log);
    free(f->squeue);
}

static int submit(int n, ...)
{
    char *args[16];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        args[i] = va_arg(ap, char *);
    va_end(ap);
    args[n] = NULL;
    return cmd_submit_main(n, args);
}

/* The run folder submit made: the one folder in OUTPUT/subtest other than
 * `latest` (submit does not move latest: the merge earns it). */
static char *latest(const fixture *f)
{
    char *e = xasprintf("%s/subtest", f->out);
    DIR *d = opendir(e);
    cr_assert(d, "no %s", e);
    char *r = NULL;
    struct dirent *de;
    while ((de = readdir(d)))
        if (de->d_name[0] != '.' && strcmp(de->d_name, "latest")) {
            cr_assert_null(r, "two runs in %s", e);
            r = xasprintf("%s/%s", e, de->d_name);
        }
    closedir(d);
    cr_assert(r, "no run in %s", e);
    free(e);
    return r;
}

static void shard_state(const char *run, int k, int n, int rows, int finished)
{
    char *d = xasprintf("%s/shard-%d-of-%d", run, k, n);
    mkdir(d, 0755);
    char *p = xasprintf("%s/trials.csv", d);
    strbuf b = {0};
    sb_puts(&b, "trial,seed,status\n");
    for (int r = 0; r < rows; r++)
        sb_printf(&b, "%d,%d,ok\n", k - 1 + r * n, k + r * n);
    put(p, b.s, 0);
    free(p);
    p = xasprintf("%s/meta.json", d);
    put(p, finished ? "{\"finished\": true}\n" : "{\"finished\": false}\n", 0);
    free(p);
    free(d);
    sb_free(&b);
}

Test(submit_cmd, submits_the_array_then_the_merge_after_it, .timeout = 30)
{
    fixture f;
    fixture_make(&f);
    cr_assert_eq(submit(6, f.exp, "--shards", "4", "--time=10", "--output", f.out), 0);
    char *run = latest(&f);
    char *p = xasprintf("%s/job.sbatch", run);
    char *job = slurp(p);
    cr_assert(strstr(job, "#SBATCH --array=0-3\n"));
    cr_assert(strstr(job, "#SBATCH --time=10\n"));
    cr_assert(strstr(job, "--shard \"$((task + 1))/4\""));
    free(p);
    p = xasprintf("%s/merge.sbatch", run);
    cr_assert_eq(access(p, R_OK), 0);
    free(p);
    p = xasprintf("%s/experiment.yaml", run);
    char *copy = slurp(p), *orig = slurp(f.exp);
    cr_assert_str_eq(copy, orig);
    free(p);
    char *log = slurp(f.log);
    char *want = xasprintf("--parsable %s/job.sbatch\n"
                           "--parsable --dependency=afterany:101 %s/merge.sbatch\n",
                           run, run);
    cr_assert_str_eq(log, want);
    p = xasprintf("%s/slurm-jobs.txt", run);
    char *jobs = slurp(p);
    char *wj = xasprintf("# runner submit: the Slurm jobs of this run, oldest first\n"
                         "experiment %s/experiment.yaml\nshards 4\narray 101 0-3\nmerge 102 after 101\n",
                         run);
    cr_assert_str_eq(jobs, wj);
    free(p);
    free(jobs);
    free(wj);
    free(want);
    free(log);
    free(copy);
    free(orig);
    free(job);
    free(run);
    fixture_free(&f);
}

Test(submit_cmd, more_shards_than_trials_are_cut_down, .timeout = 30)
{
    fixture f;
    fixture_make(&f);
    cr_assert_eq(submit(5, f.exp, "--shards=50", "--output", f.out, "--gpus-per-shard=1"), 0);
    char *run = latest(&f);
    char *p = xasprintf("%s/job.sbatch", run);
    char *job = slurp(p);
    cr_assert(strstr(job, "#SBATCH --array=0-9\n"));
    cr_assert(strstr(job, "#SBATCH --gres=gpu:1\n"));
    free(job);
    free(p);
    free(run);
    fixture_free(&f);
}

Test(submit_cmd, no_sbatch_exit_2_with_the_scripts_written, .timeout = 30)
{
    fixture f;
    fixture_make(&f);
    setenv("RUNNER_SBATCH", "/nonexistent/sbatch", 1);
    cr_assert_eq(submit(3, f.exp, "--output", f.out), 2);
    char *run = latest(&f);
    char *p = xasprintf("%s/job.sbatch", run);
    cr_assert_eq(access(p, R_OK), 0);
    free(p);
    free(run);
    fixture_free(&f);
}

Test(submit_cmd, sbatch_failing_is_exit_2, .timeout = 30)
{
    fixture f;
    fixture_make(&f);
    put(f.sbatch, "#!/bin/sh\necho 'sbatch: error: invalid partition specified' >&2\nexit 1\n", 1);
    cr_assert_eq(submit(5, f.exp, "--output", f.out, "--partition", "nope"), 2);
    fixture_free(&f);
}

Test(submit_cmd, invalid_options_and_files_exit_2, .timeout = 30)
{
    fixture f;
    fixture_make(&f);
    cr_assert_eq(submit(5, f.exp, "--time", "1h", "--output", f.out), 2);
    cr_assert_eq(submit(5, f.exp, "--shards", "0", "--output", f.out), 2);
    cr_assert_eq(submit(5, f.exp, "--sbatch-arg", "--mem=1G\n#SBATCH --x", "--output", f.out), 2);
    cr_assert_eq(submit(4, f.exp, "--sbatch-arg=--array=1-2", "--output", f.out), 2);
    cr_assert_eq(submit(4, f.exp, "--shard=3", "--output", f.out), 2);
    cr_assert_eq(submit(1, "--partition"), 2);
    cr_assert_eq(submit(0), 2);
    cr_assert_eq(submit(2, f.exp, f.exp), 2);
    cr_assert_eq(submit(3, "--resume", f.dir, "--shards=2"), 2);
    char *bad = xasprintf("%s/bad.yaml", f.dir);
    put(bad, "workload: nosuch\n", 0);
    cr_assert_eq(submit(3, bad, "--output", f.out), 2);
    cr_assert_eq(access(f.log, F_OK), -1, "sbatch never ran");
    free(bad);
    fixture_free(&f);
}

Test(submit_cmd, resume_resubmits_missing_and_unfinished_shards, .timeout = 30)
{
    fixture f;
    fixture_make(&f);
    cr_assert_eq(submit(5, f.exp, "--shards", "4", "--output", f.out), 0);
    char *run = latest(&f);
    shard_state(run, 1, 4, 3, 1);
    shard_state(run, 2, 4, 1, 0); /* cancelled */
    shard_state(run, 3, 4, 2, 1);
    /* shard 4: never started */
    unlink(f.log);
    cr_assert_eq(submit(4, "--resume", run, "--time", "2-0"), 0);
    char *log = slurp(f.log);
    char *want = xasprintf("--parsable --array=1,3 --time=2-0 %s/job.sbatch\n"
                           "--parsable --dependency=afterany:101 --time=2-0 %s/merge.sbatch\n",
                           run, run);
    cr_assert_str_eq(log, want);
    char *p = xasprintf("%s/slurm-jobs.txt", run);
    char *jobs = slurp(p);
    cr_assert(strstr(jobs, "array 101 0-3\nmerge 102 after 101\narray 101 1,3\nmerge 102 after 101\n"),
              "%s", jobs);
    free(jobs);
    free(p);
    free(want);
    free(log);
    /* a shard still in the queue is not submitted twice */
    put(f.squeue, "#!/bin/sh\necho '101_3 RUNNING'\n", 1);
    unlink(f.log);
    cr_assert_eq(submit(2, "--resume", run), 2);
    cr_assert_eq(access(f.log, F_OK), -1, "sbatch never ran");
    /* nothing left to do */
    shard_state(run, 2, 4, 3, 1);
    shard_state(run, 4, 4, 2, 1);
    cr_assert_eq(submit(2, "--resume", run), 0);
    cr_assert_eq(access(f.log, F_OK), -1, "sbatch never ran");
    free(run);
    fixture_free(&f);
}

static char *status_of(const char *run, int *rc)
{
    char *path = xasprintf("%s.status", run);
    fflush(stdout);
    int saved = dup(1);
    FILE *o = freopen(path, "w", stdout);
    cr_assert(o);
    char *args[] = {(char *)run, NULL};
    *rc = cmd_status_main(1, args);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    char *out = slurp(path);
    unlink(path);
    free(path);
    return out;
}

Test(submit_cmd, status_counts_trials_and_asks_squeue, .timeout = 30)
{
    fixture f;
    fixture_make(&f);
    cr_assert_eq(submit(5, f.exp, "--shards", "3", "--output", f.out), 0);
    char *run = latest(&f);
    /* 10 trials in 3 shards: 4, 3, 3 */
    shard_state(run, 1, 3, 4, 1);
    shard_state(run, 2, 3, 1, 0);
    put(f.squeue,
        "#!/bin/sh\n"
        "case \"$*\" in\n"
        "  *' 101 '*) echo '101_1 RUNNING'; echo '101_2 PENDING' ;;\n"
        "  *' 102 '*) echo '102 PENDING' ;;\n"
        "esac\n",
        1);
    int rc;
    char *out = status_of(run, &rc);
    cr_assert_eq(rc, 1, "%s", out);
    cr_assert(strstr(out, "1/3          4/4           finished     job 101_0: unknown (not in the queue)\n"), "%s", out);
    cr_assert(strstr(out, "2/3          1/3           unfinished   job 101_1: RUNNING\n"), "%s", out);
    cr_assert(strstr(out, "3/3          0/3           not started  job 101_2: PENDING\n"), "%s", out);
    cr_assert(strstr(out, "merge job 102: PENDING\n"), "%s", out);
    cr_assert(strstr(out, "1 of 3 shards finished; 5 of 10 trials done\n"), "%s", out);
    free(out);
    /* scontrol knows the task squeue no longer lists */
    char *sc = xasprintf("%s/scontrol", f.dir);
    put(sc, "#!/bin/sh\nprintf 'JobId=104 ArrayJobId=101 ArrayTaskId=0\\n   JobState=COMPLETED Reason=None\\n'\n", 1);
    setenv("RUNNER_SCONTROL", sc, 1);
    shard_state(run, 2, 3, 3, 1);
    shard_state(run, 3, 3, 3, 1);
    out = status_of(run, &rc);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "job 101_0: COMPLETED\n"), "%s", out);
    cr_assert(strstr(out, "3 of 3 shards finished; 10 of 10 trials done\n"), "%s", out);
    free(out);
    free(sc);
    /* a run folder of plain --shard runs: N from its folders, no Slurm */
    char *plain = xasprintf("%s/plain", f.dir);
    mkdir(plain, 0755);
    shard_state(plain, 1, 2, 1, 1);
    out = status_of(plain, &rc);
    cr_assert_eq(rc, 1, "%s", out);
    cr_assert(strstr(out, ": 2 shards\n"), "%s", out);
    cr_assert(strstr(out, "2/2          0/?           not started"), "%s", out);
    free(out);
    char *args[] = {"/nonexistent/run", NULL};
    cr_assert_eq(cmd_status_main(1, args), 2);
    cr_assert_eq(cmd_status_main(1, (char *[]){f.dir, NULL}), 2, "no shards, no job.sbatch");
    free(plain);
    free(run);
    fixture_free(&f);
}

/* Issue 14: a job.sbatch edited to ask for 10^8 shards is refused at once
 * (it walked every shard for minutes), and so are such shard folders. */
Test(submit_cmd, status_of_a_tampered_job_sbatch_is_bounded, .timeout = 20)
{
    fixture f;
    fixture_make(&f);
    char *run = xasprintf("%s/tampered", f.dir);
    mkdir(run, 0755);
    char *job = xasprintf("%s/job.sbatch", run);
    put(job, "#!/bin/sh\n#SBATCH --array=0-99999999\n", 0);
    cr_assert_eq(slurm_script_shards("#SBATCH --array=0-99999999\n"), -1);
    cr_assert_eq(slurm_script_shards("x=$((SLURM_ARRAY_TASK_ID + 1))/100000000\n"), -1);
    cr_assert_eq(slurm_script_shards("#SBATCH --array=0-99999\n"), 100000);
    double t0 = now_seconds();
    int rc;
    char *out = status_of(run, &rc);
    cr_assert_eq(rc, 2, "%s", out);
    free(out);
    cr_assert_eq(submit(2, "--resume", run), 2);
    cr_assert_lt(now_seconds() - t0, 5.0);
    /* folders that name too many shards are no count either */
    unlink(job);
    char *sd = xasprintf("%s/shard-1-of-99999999", run);
    mkdir(sd, 0755);
    cr_assert_eq(cmd_status_main(1, (char *[]){run, NULL}), 2);
    free(sd);
    free(job);
    free(run);
    fixture_free(&f);
}

Test(submit_cmd, a_file_without_name_runs_from_where_it_is, .timeout = 30)
{
    fixture f;
    fixture_make(&f);
    char *exp = xasprintf("%s/noname.yaml", f.dir);
    put(exp, "workload: noop\nsweep:\n  seed: [1, 2]\n", 0);
    cr_assert_eq(submit(3, exp, "--output", f.out), 0);
    char *p = xasprintf("%s/noname", f.out);
    DIR *dd = opendir(p);
    cr_assert(dd);
    struct dirent *de;
    while ((de = readdir(dd)) && de->d_name[0] == '.')
        ;
    cr_assert(de && strcmp(de->d_name, "latest"), "one run, no latest");
    free(p);
    p = xasprintf("%s/noname/%s/job.sbatch", f.out, de->d_name);
    closedir(dd);
    char *job = slurp(p);
    strbuf want = {0};
    sh_quote(&want, exp);
    sb_putc(&want, '\n');
    size_t jl = strlen(job);
    cr_assert(jl > want.len && !strcmp(job + jl - want.len, want.s),
              "the shards run the original (a copy would be named 'experiment'):\n%s", job);
    sb_free(&want);
    free(job);
    free(p);
    free(exp);
    fixture_free(&f);
}

/* issue 16: latest is earned: submit leaves it alone; the merge of a
 * finished run with an ok trial moves it, an incomplete or all-failed one
 * does not */
static void shard_exp(const char *run, int k, int n)
{
    char *p = xasprintf("%s/shard-%d-of-%d/experiment.yaml", run, k, n);
    put(p, "name: subtest\nworkload: selftest\n", 0);
    free(p);
}

static int merge_quiet(const char *run)
{
    char *files[] = {(char *)run, NULL};
    cli c = {.cmd = CMD_MERGE, .files = files, .nfiles = 1, .quiet = 1, .no_plots = 1};
    return cmd_merge(&c);
}

Test(submit_cmd, latest_moves_at_the_merge_of_a_finished_run_with_an_ok_trial, .timeout = 30)
{
    fixture f;
    fixture_make(&f);
    cr_assert_eq(submit(5, f.exp, "--shards", "2", "--output", f.out), 0);
    char *run = latest(&f);
    char *lnk = xasprintf("%s/subtest/latest", f.out);
    struct stat st;
    cr_assert(lstat(lnk, &st) < 0, "submit moved latest");
    /* one shard unfinished: merged, incomplete, latest not moved */
    shard_state(run, 1, 2, 5, 1);
    shard_state(run, 2, 2, 3, 0);
    shard_exp(run, 1, 2);
    shard_exp(run, 2, 2);
    cr_assert_neq(merge_quiet(run), 0);
    cr_assert(lstat(lnk, &st) < 0, "an incomplete merge moved latest");
    /* both finished: latest -> the run */
    shard_state(run, 2, 2, 5, 1);
    cr_assert_eq(merge_quiet(run), 0);
    char buf[256];
    ssize_t n = readlink(lnk, buf, sizeof buf - 1);
    cr_assert(n > 0, "the merge did not move latest");
    buf[n] = '\0';
    cr_assert_str_eq(buf, strrchr(run, '/') + 1);
    free(run);
    free(lnk);
    fixture_free(&f);
}

Test(submit_cmd, a_merge_with_no_ok_trial_leaves_latest, .timeout = 30)
{
    fixture f;
    fixture_make(&f);
    cr_assert_eq(submit(5, f.exp, "--shards", "2", "--output", f.out), 0);
    char *run = latest(&f);
    for (int k = 1; k <= 2; k++) {
        char *p = xasprintf("%s/shard-%d-of-2", run, k);
        mkdir(p, 0755);
        free(p);
        p = xasprintf("%s/shard-%d-of-2/trials.csv", run, k);
        put(p, k == 1 ? "trial,seed,status\n0,1,failed\n" : "trial,seed,status\n1,2,skipped\n", 0);
        free(p);
        p = xasprintf("%s/shard-%d-of-2/meta.json", run, k);
        put(p, "{\"finished\": true}\n", 0);
        free(p);
        shard_exp(run, k, 2);
    }
    cr_assert_eq(merge_quiet(run), 0);
    char *lnk = xasprintf("%s/subtest/latest", f.out);
    struct stat st;
    cr_assert(lstat(lnk, &st) < 0, "a run with no ok trial became latest");
    free(run);
    free(lnk);
    fixture_free(&f);
}
