/* slurm.c - see slurm.h. */
#include "slurm/slurm.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int sbatch_safe(const char *s)
{
    if (!*s)
        return 0;
    for (const char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("-_=.,:/+@%", *p))
            return 0;
    return !strcasestr(s, "packjob") && !strcasestr(s, "hetjob");
}

void sbatch_quote(strbuf *b, const char *s)
{
    if (sbatch_safe(s)) {
        sb_puts(b, s);
        return;
    }
    /* Every version of sbatch's #SBATCH parser takes a backslash as "the
     * next character as it is", also inside double quotes; older ones end
     * the line at a '#' even inside quotes, and blank out "packjob" (newer
     * ones also "hetjob") anywhere in it: an escaped 'j' hides those. */
    sb_putc(b, '"');
    for (const char *p = s; *p; p++) {
        int brk = (*p == 'j' || *p == 'J') &&
                  ((p - s >= 4 && !strncasecmp(p - 4, "pack", 4)) ||
                   (p - s >= 3 && !strncasecmp(p - 3, "het", 3)));
        if (strchr("\\\"'#", *p) || brk)
            sb_putc(b, '\\');
        sb_putc(b, *p);
    }
    sb_putc(b, '"');
}

void slurm_pattern_escape(strbuf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '%')
            sb_putc(b, '%');
        sb_putc(b, *s);
    }
}

/* digits: 1 to 9 of them; the value in *v. */
static const char *digits(const char *p, long *v)
{
    const char *q = p;
    *v = 0;
    while (isdigit((unsigned char)*q) && q - p < 10)
        *v = *v * 10 + (*q++ - '0');
    return q > p && q - p < 10 ? q : NULL;
}

int slurm_time_valid(const char *t)
{
    if (!t || !*t)
        return 0;
    if (!strcasecmp(t, "unlimited") || !strcasecmp(t, "infinite"))
        return 1;
    long f[4];
    const char *q = digits(t, &f[0]);
    if (!q)
        return 0;
    if (*q == '-' && (!(q = digits(q + 1, &f[0])) || f[0] > 23)) /* D-H[:M[:S]] */
        return 0;
    int nf = 1;
    while (*q == ':') {
        if (nf == 3 || !(q = digits(q + 1, &f[nf])) || f[nf] > 59)
            return 0;
        nf++;
    }
    return *q == '\0';
}

int slurm_extra_valid(const char *arg, char *err, size_t len)
{
    if (strpbrk(arg, "\n\r")) {
        snprintf(err, len, "--sbatch-arg must not contain a line break");
        return -1;
    }
    if (arg[0] != '-' || !arg[1] || (arg[1] == '-' && !arg[2])) {
        snprintf(err, len, "--sbatch-arg takes one sbatch option (e.g. --sbatch-arg=--mem=4G), not '%s'",
                 arg);
        return -1;
    }
    if (!strncmp(arg, "--array", 7) || !strncmp(arg, "-a", 2)) {
        snprintf(err, len, "--sbatch-arg %s: runner submit sets the array itself (one task per shard)",
                 arg);
        return -1;
    }
    return 0;
}

int slurm_path_valid(const char *path, char *err, size_t len)
{
    if (path[0] != '/') {
        snprintf(err, len, "%s: not an absolute path", path);
        return -1;
    }
    if (strpbrk(path, "\n\r")) {
        snprintf(err, len, "the path '%s' contains a line break: a job script cannot name it", path);
        return -1;
    }
    if (strchr(path, '\\')) {
        snprintf(err, len,
                 "the path '%s' contains a backslash, which turns off Slurm's file name patterns; "
                 "use another --output folder",
                 path);
        return -1;
    }
    return 0;
}

static void directive(strbuf *b, const char *opt, const char *value)
{
    sb_puts(b, "#SBATCH ");
    if (value) {
        char *tok = xasprintf("%s=%s", opt, value);
        sbatch_quote(b, tok);
        free(tok);
    } else {
        sbatch_quote(b, opt);
    }
    sb_putc(b, '\n');
}

static void log_directives(strbuf *b, const char *run_dir, const char *file)
{
    strbuf p = {0};
    slurm_pattern_escape(&p, run_dir);
    sb_printf(&p, "/%s", file);
    directive(b, "--output", p.s);
    directive(b, "--error", p.s);
    sb_free(&p);
}

static void common_directives(strbuf *b, const slurm_opts *o)
{
    if (o->partition)
        directive(b, "--partition", o->partition);
    if (o->time)
        directive(b, "--time", o->time);
}

static void extra_directives(strbuf *b, const slurm_opts *o)
{
    for (int i = 0; i < o->nextra; i++)
        directive(b, o->extra[i], NULL);
}

char *slurm_job_script(const char *name, const char *run_dir, const char *runner,
                       const char *experiment, int n, const slurm_opts *o)
{
    strbuf b = {0};
    sb_puts(&b, "#!/bin/sh\n");
    directive(&b, "--job-name", name);
    char arr[32];
    snprintf(arr, sizeof arr, "0-%d", n - 1);
    directive(&b, "--array", arr);
    log_directives(&b, run_dir, "slurm-%A_%a.out");
    common_directives(&b, o);
    if (o->gpus > 0) {
        char g[32];
        snprintf(g, sizeof g, "gpu:%d", o->gpus);
        directive(&b, "--gres", g);
    }
    extra_directives(&b, o);
    sb_printf(&b, "#\n# Written by `runner submit`: array task K runs shard K+1 of %d of %s.\n", n, name);
    sb_puts(&b, "# Submit it by hand with:  sbatch --parsable ");
    strbuf p = {0};
    sb_printf(&p, "%s/job.sbatch", run_dir);
    sh_quote(&b, p.s);
    sb_puts(&b, "\n# Progress:  runner status ");
    sh_quote(&b, run_dir);
    sb_puts(&b, "\n# Unfinished shards again:  runner submit --resume ");
    sh_quote(&b, run_dir);
    sb_puts(&b, "\ntask=${SLURM_ARRAY_TASK_ID:?submit this script with sbatch: it is a job array}\n");
    sb_puts(&b, "exec ");
    sh_quote(&b, runner);
    sb_printf(&b, " --quiet%s --shard \"$((task + 1))/%d\" --run-dir ",
              o->allow_unsafe_lua ? " --allow-unsafe-lua" : "", n);
    sh_quote(&b, run_dir);
    sb_putc(&b, ' ');
    sh_quote(&b, experiment);
    sb_putc(&b, '\n');
    sb_free(&p);
    return sb_take(&b);
}

char *slurm_merge_script(const char *name, const char *run_dir, const char *runner,
                         const slurm_opts *o)
{
    strbuf b = {0};
    sb_puts(&b, "#!/bin/sh\n");
    char *jn = xasprintf("%s-merge", name);
    directive(&b, "--job-name", jn);
    free(jn);
    log_directives(&b, run_dir, "slurm-merge-%j.out");
    common_directives(&b, o);
    extra_directives(&b, o);
    sb_puts(&b, "#\n# Written by `runner submit`: joins the shards once the array job has ended\n"
                "# (it is submitted with --dependency=afterany:ARRAY_JOB_ID).\n");
    sb_puts(&b, "exec ");
    sh_quote(&b, runner);
    sb_puts(&b, " merge ");
    sh_quote(&b, run_dir);
    sb_putc(&b, '\n');
    return sb_take(&b);
}

int slurm_script_shards(const char *script)
{
    const char *p = strstr(script, "+ 1))/");
    long n;
    if (p && digits(p + 6, &n) && n > 0)
        return n > SLURM_MAX_SHARDS ? -1 : (int)n;
    p = strstr(script, "--array=0-");
    if (p && digits(p + 10, &n))
        return n + 1 > SLURM_MAX_SHARDS ? -1 : (int)n + 1;
    return 0;
}

int slurm_parse_jobid(const char *out, char *id, size_t len)
{
    const char *p = out;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    size_t n = strspn(p, "0123456789");
    if (n == 0 || n >= len || (p[n] && !strchr(";\n\r \t", p[n])))
        return -1;
    memcpy(id, p, n);
    id[n] = '\0';
    return 0;
}

void slurm_index_list(strbuf *b, const int *idx, int n)
{
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && idx[j + 1] == idx[j] + 1)
            j++;
        if (i)
            sb_putc(b, ',');
        if (j > i)
            sb_printf(b, "%d-%d", idx[i], idx[j]);
        else
            sb_printf(b, "%d", idx[i]);
        i = j + 1;
    }
}

int slurm_parse_index_list(const char *s, unsigned char *mark, int n)
{
    char *copy = xstrdup(s), *save = NULL;
    char *p = copy;
    if (*p == '[')
        p++;
    p[strcspn(p, "]%")] = '\0'; /* "%4": at most 4 at once */
    int rc = *p ? 0 : -1;
    for (char *item = strtok_r(p, ",", &save); item && rc == 0; item = strtok_r(NULL, ",", &save)) {
        long a, bnd, step = 1;
        const char *q = digits(item, &a);
        if (!q) {
            rc = -1;
            break;
        }
        bnd = a;
        if (*q == '-' && !(q = digits(q + 1, &bnd)))
            rc = -1;
        else if (q && *q == ':' && (!(q = digits(q + 1, &step)) || step < 1))
            rc = -1;
        if (rc < 0 || *q || bnd < a) {
            rc = -1;
            break;
        }
        for (long k = a; k <= bnd && k < n; k += step)
            mark[k] = 1;
    }
    free(copy);
    return rc;
}

int slurm_parse_squeue(const char *out, const char *jobid, char **states, int n)
{
    int set = 0;
    size_t idlen = strlen(jobid);
    unsigned char *mark = xcalloc((size_t)n + 1, 1);
    const char *line = out;
    while (line && *line) {
        const char *end = strchr(line, '\n');
        size_t ll = end ? (size_t)(end - line) : strlen(line);
        char *l = strndup(line, ll);
        line = end ? end + 1 : NULL;
        char *id = l + strspn(l, " \t");
        char *sp = id + strcspn(id, " \t");
        char *st = sp + strspn(sp, " \t");
        st[strcspn(st, " \t\r")] = '\0';
        *sp = '\0';
        if (!*st || strncmp(id, jobid, idlen) || (id[idlen] && id[idlen] != '_')) {
            free(l);
            continue;
        }
        memset(mark, 0, (size_t)n);
        if (!id[idlen]) /* the array as a whole */
            memset(mark, 1, (size_t)n);
        else if (slurm_parse_index_list(id + idlen + 1, mark, n) < 0) {
            free(l);
            continue;
        }
        for (int k = 0; k < n; k++)
            if (mark[k]) {
                free(states[k]);
                states[k] = xstrdup(st);
                set++;
            }
        free(l);
    }
    free(mark);
    return set;
}

char *slurm_parse_jobstate(const char *out)
{
    const char *p = out;
    while ((p = strstr(p, "JobState="))) {
        if (p == out || isspace((unsigned char)p[-1])) {
            p += 9;
            size_t n = strcspn(p, " \t\r\n");
            return n ? strndup(p, n) : NULL;
        }
        p += 9;
    }
    return NULL;
}

int slurm_parse_scontrol_tasks(const char *out, char **states, int n)
{
    int set = 0;
    unsigned char *mark = xcalloc((size_t)n + 1, 1);
    const char *rec = out;
    while (rec && *rec) {
        /* one record: up to a blank line */
        const char *end = strstr(rec, "\n\n");
        char *r = end ? strndup(rec, (size_t)(end - rec)) : xstrdup(rec);
        rec = end ? end + 2 : NULL;
        char *state = slurm_parse_jobstate(r);
        const char *t = strstr(r, "ArrayTaskId=");
        if (state && t && (t == r || isspace((unsigned char)t[-1]))) {
            char *list = strndup(t + 12, strcspn(t + 12, " \t\r\n"));
            memset(mark, 0, (size_t)n);
            if (slurm_parse_index_list(list, mark, n) == 0)
                for (int k = 0; k < n; k++)
                    if (mark[k] && !states[k]) {
                        states[k] = xstrdup(state);
                        set++;
                    }
            free(list);
        }
        free(state);
        free(r);
    }
    free(mark);
    return set;
}

int slurm_state_ended(const char *state)
{
    static const char *const ended[] = {"COMPLETED", "CANCELLED", "FAILED", "TIMEOUT",
                                        "NODE_FAIL", "PREEMPTED", "BOOT_FAIL", "DEADLINE",
                                        "OUT_OF_MEMORY", "REVOKED", NULL};
    for (int i = 0; ended[i]; i++) {
        size_t n = strlen(ended[i]);
        /* "CANCELLED by 0" (scontrol), "CANCELLED+" (sacct) */
        if (!strncmp(state, ended[i], n) && !isalnum((unsigned char)state[n]) &&
            state[n] != '_')
            return 1;
    }
    return 0;
}
