/* meta.c - see meta.h. */
#include "results/rundir/meta.h"

#include "experiment/blas_use.h"

#include "base/affinity.h"
#include "base/child.h"
#include "results/rundir/result.h"

#include "experiment/registry/backends.h"
#include "results/rundir/rundir.h"
#include "results/rundir/results.h"
#include "experiment/trial.h"
#include "base/util.h"

#include <errno.h>
#include <json.h>
#include <openssl/evp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct meta {
    json_object *root;
    json_object *warnings;
    char *start;
};

void sha256_hex(const void *data, size_t len, char out[65])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!EVP_Digest(data, len, md, &n, EVP_sha256(), NULL))
        n = 0;
    for (unsigned i = 0; i < n && i < 32; i++)
        sprintf(out + 2 * i, "%02x", md[i]);
    out[2 * (n < 32 ? n : 32)] = '\0';
}

static void utc_now(char *out, size_t n)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    strftime(out, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}


/* "key: value" or "key=value" line of a /proc or /etc file. */
static char *field_of(const char *text, const char *key, char sep)
{
    if (!text)
        return NULL;
    size_t kl = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (strncmp(p, key, kl))
            continue;
        const char *q = p + kl;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q != sep)
            continue;
        q++;
        while (*q == ' ' || *q == '"')
            q++;
        size_t n = strcspn(q, "\n");
        while (n && (q[n - 1] == '"' || q[n - 1] == ' '))
            n--;
        return strndup(q, n);
    }
    return NULL;
}

static void add_str(json_object *o, const char *k, const char *v)
{
    json_object_object_add(o, k, v ? json_object_new_string(v) : NULL);
}

/* One fact as a "key\tvalue" line; values become single lines. */
static void fact_line(void *ctx, const char *k, const char *v)
{
    fprintf((FILE *)ctx, "%s\t", k);
    for (; *v; v++)
        fputc(*v == '\n' || *v == '\t' ? ' ' : *v, (FILE *)ctx);
    fputc('\n', (FILE *)ctx);
}

/* Runs in a child: asks each backend for its facts, one "key\tvalue" line
 * each, so that CUDA is initialised (if at all) outside the runner. */
static void facts_child(int fd)
{
    FILE *out = fdopen(fd, "w");
    if (!out)
        _exit(1);
    char why[512];
    const rn_backend *cpu = backend_for(RN_DEV_CPU, why, sizeof why);
    if (cpu && cpu->env_info)
        cpu->env_info(out, fact_line);
    const rn_backend *cuda = backend_for(RN_DEV_CUDA, why, sizeof why);
    if (!cuda) {
        fprintf(out, "cuda_unavailable\t%s\n", why);
    } else {
        int n = cuda->device_count();
        for (int i = 0; i < n; i++) {
            rn_device_info di;
            memset(&di, 0, sizeof di);
            if (cuda->device_info(i, &di) == 0)
                fprintf(out, "cuda_device\t%d|%s|%.0f|%.0f|%s\n", i, di.name, di.memory_bytes,
                        di.free_bytes, di.detail);
        }
        if (cuda->env_info)
            cuda->env_info(out, fact_line);
    }
    fclose(out);
    _exit(0);
}

static void facts_main(void *arg, int in, int out)
{
    (void)arg, (void)in;
    facts_child(out);
}

char *backend_facts(void)
{
    child c;
    if (child_start(&c, CHILD_OUT, facts_main, NULL) < 0)
        return xstrdup("");
    return child_output(&c, NULL);
}

meta *meta_collect(const experiment *e, int argc, char **argv)
{
    meta *m = xcalloc(1, sizeof *m);
    m->root = json_object_new_object();
    m->warnings = json_object_new_array();
    char now[64];
    utc_now(now, sizeof now);
    m->start = xstrdup(now);

    json_object *r = json_object_new_object();
    add_str(r, "version", RUNNER_VERSION);
    add_str(r, "git_revision", RUNNER_GIT_REV);
    json_object_object_add(m->root, "runner", r);
    /* the `affinity` values of the run's trials, each once
     * (doc/timing.md#pinning; each trial's CPUs: its `cpus` column) */
    json_object *aff = json_object_new_array();
    int ac = experiment_column(e, "affinity");
    for (long long t = 0; ac >= 0 && t < e->ntrials; t++) {
        value v = trial_value(e, t, ac);
        const char *txt = v.kind != VAL_NONE && v.text ? v.text : "none";
        int seen = 0;
        for (size_t i = 0; i < json_object_array_length(aff) && !seen; i++)
            seen = !strcmp(json_object_get_string(json_object_array_get_idx(aff, i)), txt);
        if (!seen && json_object_array_length(aff) < 64)
            json_object_array_add(aff, json_object_new_string(txt));
    }
    json_object_object_add(m->root, "affinity", aff);

    json_object *x = json_object_new_object();
    char sha[65];
    sha256_hex(e->text, e->text_len, sha);
    add_str(x, "name", e->name);
    add_str(x, "path", e->path);
    add_str(x, "sha256", sha);
    add_str(x, "description", e->description);
    json_object_object_add(x, "trials", json_object_new_int64(e->ntrials));
    add_str(x, "text", e->text);
    json_object_object_add(m->root, "experiment", x);

    json_object *cl = json_object_new_array();
    for (int i = 0; i < argc; i++)
        json_object_array_add(cl, json_object_new_string(argv[i]));
    json_object_object_add(m->root, "command_line", cl);

    json_object *h = json_object_new_object();
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    add_str(h, "hostname", host);
    struct utsname u;
    if (uname(&u) == 0) {
        char *k = xasprintf("%s %s %s", u.sysname, u.release, u.machine);
        add_str(h, "kernel", k);
        free(k);
    }
    char *osr = read_file("/etc/os-release", NULL);
    char *pretty = field_of(osr, "PRETTY_NAME", '=');
    add_str(h, "os", pretty);
    free(pretty);
    free(osr);
    char *cpuinfo = read_file("/proc/cpuinfo", NULL);
    char *model = field_of(cpuinfo, "model name", ':');
    add_str(h, "cpu_model", model);
    free(model);
    free(cpuinfo);
    json_object_object_add(h, "cores", json_object_new_int(host_cpus()));
    {
        /* the CPUs `affinity` chooses from, and the load when the run began
         * (doc/timing.md#load and Pinning) */
        cpu_set_t set;
        char buf[256];
        if (sched_getaffinity(0, sizeof set, &set) == 0) {
            affinity_format(&set, buf, sizeof buf);
            add_str(h, "cpus_allowed", buf);
        }
        char *la = read_file("/proc/loadavg", NULL);
        if (la) {
            la[strcspn(la, "\n")] = '\0';
            add_str(h, "loadavg_at_start", la);
            free(la);
        }
    }
    json_object_object_add(h, "online_cpus", json_object_new_int((int)sysconf(_SC_NPROCESSORS_ONLN)));
    char *mi = read_file("/proc/meminfo", NULL);
    char *mt = field_of(mi, "MemTotal", ':');
    json_object_object_add(h, "memory_bytes", json_object_new_int64(mt ? atoll(mt) * 1024LL : 0));
    free(mt);
    free(mi);
    char *gov = read_file("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", NULL);
    if (gov) {
        gov[strcspn(gov, "\n")] = '\0';
        add_str(h, "cpu_governor", gov);
        if (strcmp(gov, "performance")) {
            char *w = xasprintf("the CPU frequency governor is '%s', not 'performance': clock "
                                "changes may add noise",
                                gov);
            meta_warn(m, w);
            free(w);
        }
        free(gov);
    }
    json_object_object_add(m->root, "host", h);

    /* what the backends say: BLAS configuration, CUDA devices and versions */
    json_object *blas = json_object_new_object();
    json_object *cuda = json_object_new_object();
    json_object *devs = json_object_new_array();
    char *facts = backend_facts();
    for (char *line = strtok(facts, "\n"); line; line = strtok(NULL, "\n")) {
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        const char *k = line, *v = tab + 1;
        if (!strcmp(k, "cuda_device")) {
            json_object *d = json_object_new_object();
            char *f[5] = {0};
            char *save, *s = xstrdup(v);
            int nf = 0;
            for (char *t = strtok_r(s, "|", &save); t && nf < 5; t = strtok_r(NULL, "|", &save))
                f[nf++] = t;
            json_object_object_add(d, "index", json_object_new_int(f[0] ? atoi(f[0]) : 0));
            add_str(d, "name", f[1]);
            json_object_object_add(d, "memory_bytes", json_object_new_int64(f[2] ? atoll(f[2]) : 0));
            add_str(d, "detail", f[4]);
            json_object_array_add(devs, d);
            free(s);
        } else if (!strcmp(k, "cuda_unavailable")) {
            add_str(cuda, "unavailable", v);
        } else if (!strncmp(k, "cuda", 4) || !strncmp(k, "cublas", 6) || !strncmp(k, "driver", 6)) {
            add_str(cuda, k, v);
        } else if (!strcmp(k, "openblas_coretype_warning")) {
            if (!e || experiment_calls_blas(e)) /* only a run that calls the BLAS */
                meta_warn(m, v);
        } else {
            add_str(blas, k, v);
        }
    }
    free(facts);
    json_object_object_add(cuda, "devices", devs);
    json_object_object_add(m->root, "blas", blas);
    json_object_object_add(m->root, "cuda", cuda);

    json_object *env = json_object_new_object();
    for (char **p = environ; *p; p++)
        if (!strncmp(*p, "OMP_", 4) || !strncmp(*p, "OPENBLAS_", 9) || !strncmp(*p, "CUDA_", 5) ||
            !strncmp(*p, "GOTO_", 5) || !strncmp(*p, "MKL_", 4)) {
            char *eq = strchr(*p, '=');
            if (!eq)
                continue;
            char *k = strndup(*p, (size_t)(eq - *p));
            add_str(env, k, eq + 1);
            free(k);
        }
    json_object_object_add(m->root, "environment", env);
    json_object_object_add(m->root, "warnings", json_object_get(m->warnings));
    return m;
}

void meta_warn(meta *m, const char *msg)
{
    json_object_array_add(m->warnings, json_object_new_string(msg));
}

void meta_resume(meta *m, const char *run_dir)
{
    int absent;
    char err[8]; /* unreadable: the run's start is now, as a new run's */
    json_object *old = rundir_read_meta(run_dir, &absent, err, sizeof err), *v;
    json_object *list = json_object_new_array();
    if (old && json_object_object_get_ex(old, "start", &v) &&
        json_object_is_type(v, json_type_string)) {
        free(m->start);
        m->start = xstrdup(json_object_get_string(v));
    }
    if (old && json_object_object_get_ex(old, "resumed", &v) &&
        json_object_is_type(v, json_type_array))
        for (size_t i = 0; i < json_object_array_length(v); i++) {
            json_object *t = json_object_array_get_idx(v, i);
            if (json_object_is_type(t, json_type_string))
                json_object_array_add(list, json_object_new_string(json_object_get_string(t)));
        }
    char now[64];
    utc_now(now, sizeof now);
    json_object_array_add(list, json_object_new_string(now));
    json_object_object_add(m->root, "resumed", list);
    json_object_put(old);
}

void meta_set_ceilings(meta *m, const char *json, const char *why_none)
{
    json_object *c = json ? json_tokener_parse(json) : NULL;
    if (!c)
        c = json_object_new_object(), add_str(c, "none", why_none ? why_none : "not probed");
    json_object_object_add(m->root, "ceilings", c);
}

void meta_set_json(meta *m, const char *key, const char *json)
{
    json_object *c = json ? json_tokener_parse(json) : NULL;
    if (c)
        json_object_object_add(m->root, key, c);
}

int meta_warnings(const meta *m, const char ***out)
{
    int n = (int)json_object_array_length(m->warnings);
    const char **v = xcalloc((size_t)n + 1, sizeof *v);
    for (int i = 0; i < n; i++)
        v[i] = json_object_get_string(json_object_array_get_idx(m->warnings, (size_t)i));
    *out = v;
    return n;
}

int meta_write(meta *m, const char *run_dir, int finished, const long long counts[5], double wall)
{
    char now[64];
    utc_now(now, sizeof now);
    add_str(m->root, "start", m->start);
    if (finished)
        add_str(m->root, "end", now);
    else
        json_object_object_add(m->root, "end", NULL);
    json_object_object_add(m->root, "finished", json_object_new_boolean(finished));
    json_object *s = json_object_new_object();
    for (int i = 0; i < ST_COUNT; i++)
        json_object_object_add(s, status_names[i], json_object_new_int64(counts ? counts[i] : 0));
    json_object_object_add(s, "wall_seconds", json_object_new_double(wall));
    json_object_object_add(m->root, "summary", s);
    const char *txt = json_object_to_json_string_ext(m->root, JSON_C_TO_STRING_PRETTY |
                                                                  JSON_C_TO_STRING_SPACED |
                                                                  JSON_C_TO_STRING_NOSLASHESCAPE);
    char *p = xasprintf("%s/meta.json", run_dir);
    char *withnl = xasprintf("%s\n", txt);
    int rc = write_file_atomic(p, withnl, strlen(withnl));
    free(withnl);
    free(p);
    return rc;
}

void meta_free(meta *m)
{
    if (!m)
        return;
    json_object_put(m->warnings);
    json_object_put(m->root);
    free(m->start);
    free(m);
}
