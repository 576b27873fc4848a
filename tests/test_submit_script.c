/* test_submit_script.c - what `runner submit` writes and reads: the job
 * scripts (quoting for sh and for sbatch's #SBATCH parser, run through a
 * real /bin/sh), the time-limit format, and the parsers of sbatch, squeue
 * and scontrol output. */
#include "runproc.h"
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
    write_file(runner, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n", 1);
    char *exp = xasprintf("%s/experiment.yaml", sub);
    slurm_opts o = {.allow_unsafe_lua = 0};
    char *s = slurm_job_script("x", sub, runner, exp, 4, &o);
    char *path = xasprintf("%s/job.sbatch", dir);
    write_file(path, s, 0);
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
    write_file(path, s, 0);
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
    write_file(path, s, 0);
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
