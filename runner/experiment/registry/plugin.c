/* plugin.c - see plugin.h.  The checks follow backends.c's: the table's
 * version first (its first member in every version), then the required
 * functions, each refusal naming what is wrong
 * (doc/own-code-plugins.md#the-version-rule). */
#include "experiment/registry/plugin.h"

#include "base/util.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PREFIX "plugin:"
#define PREFIX_LEN (sizeof PREFIX - 1)

int plugin_is_spec(const char *workload)
{
    return workload && !strncmp(workload, PREFIX, PREFIX_LEN);
}

static int name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-' || c == '.';
}

int plugin_spec_parse(const char *spec, char *path, size_t plen, char *name, size_t nlen,
                      char *why, size_t wlen)
{
    const char *eg = "e.g. plugin:saxpy.so:saxpy";
    if (!plugin_is_spec(spec)) {
        snprintf(why, wlen, "'%s' is not a plugin workload (plugin:PATH:NAME, %s)", spec, eg);
        return -1;
    }
    const char *p = spec + PREFIX_LEN, *colon = strrchr(p, ':');
    if (!*p) {
        snprintf(why, wlen, "'workload: plugin:' needs a library and a workload name, %s", eg);
        return -1;
    }
    if (!colon) {
        snprintf(why, wlen, "'%s' needs ':NAME' after the library's path, %s", spec, eg);
        return -1;
    }
    if (colon == p) {
        snprintf(why, wlen, "'%s' needs the library's path before ':%s', %s", spec, colon + 1,
                 eg);
        return -1;
    }
    if (!colon[1]) {
        snprintf(why, wlen, "'%s' needs a workload name after the last ':', %s", spec, eg);
        return -1;
    }
    for (const char *c = colon + 1; *c; c++)
        if (!name_char(*c)) {
            snprintf(why, wlen,
                     "'%s': the workload name '%s' may hold letters, digits, '_', '-' and '.' "
                     "only, %s",
                     spec, colon + 1, eg);
            return -1;
        }
    size_t n = (size_t)(colon - p);
    if (path && plen) {
        if (n >= plen) {
            snprintf(why, wlen, "'%s': the library's path is too long", spec);
            return -1;
        }
        memcpy(path, p, n);
        path[n] = '\0';
    }
    if (name && nlen)
        snprintf(name, nlen, "%s", colon + 1);
    return 0;
}

/* PATH of spec, relative to dir unless absolute (malloc'd), or NULL when
 * the spec is malformed. */
static char *library_path(const char *spec, const char *dir, char *name, size_t nlen)
{
    char path[4096], why[512];
    if (plugin_spec_parse(spec, path, sizeof path, name, nlen, why, sizeof why) < 0)
        return NULL;
    if (path[0] == '/' || !dir)
        return xstrdup(path);
    return xasprintf("%s/%s", dir, path);
}

int plugin_file_check(const char *spec, const char *dir, char *why, size_t len)
{
    char *full = library_path(spec, dir, NULL, 0);
    if (!full)
        return 0;
    struct stat st;
    int rc = 0;
    const char *rel = spec + PREFIX_LEN;
    int n = (int)(strrchr(rel, ':') - rel);
    if (stat(full, &st) != 0) {
        snprintf(why, len, "plugin library '%.*s' not found (build it first; a relative path "
                 "is relative to the experiment file)", n, rel);
        rc = -1;
    } else if (!S_ISREG(st.st_mode)) {
        snprintf(why, len, "plugin library '%.*s' is not a file", n, rel);
        rc = -1;
    }
    free(full);
    return rc;
}

/* The workloads the table lists, for a message: "a, b" */
static void list_names(const rn_plugin *p, char *out, size_t len)
{
    size_t at = 0;
    out[0] = '\0';
    for (int i = 0; p->workloads && p->workloads[i] && at < len; i++)
        at += (size_t)snprintf(out + at, len - at, "%s%s", i ? ", " : "",
                               p->workloads[i]->name ? p->workloads[i]->name : "(no name)");
    if (!out[0])
        snprintf(out, len, "none");
}

/* RTLD_DEEPBIND: the library's own symbols come before the runner's (which
 * -rdynamic exports), so a plugin's function named like one of the runner's
 * is its own.  Not under AddressSanitizer, which refuses it. */
#if defined(__SANITIZE_ADDRESS__)
#define PLUGIN_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL)
#else
#define PLUGIN_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND)
#endif

int plugin_workload(const char *spec, const char *dir, const rn_workload_impl **impl, char *why,
                    size_t len)
{
    *impl = NULL;
    char name[256];
    char *full = library_path(spec, dir, name, sizeof name);
    if (!full) {
        plugin_spec_parse(spec, NULL, 0, NULL, 0, why, len);
        return PLUGIN_FAIL;
    }
    const char *base = strrchr(full, '/') ? strrchr(full, '/') + 1 : full;
    /* a second dlopen of the same file returns the same handle */
    void *h = dlopen(full, PLUGIN_DLOPEN_FLAGS);
    if (!h) {
        const char *e = dlerror();
        snprintf(why, len, "plugin %s does not load: %s", base, e ? e : "unknown error");
        free(full);
        return PLUGIN_SKIP;
    }
    rn_plugin_fn entry;
    *(void **)&entry = dlsym(h, RN_PLUGIN_SYMBOL);
    if (!entry) {
        snprintf(why, len,
                 "plugin %s lacks the required function %s() (write RN_PLUGIN(&workload, ...) "
                 "from <runner/workload.h> in one of its files)",
                 base, RN_PLUGIN_SYMBOL);
        free(full);
        return PLUGIN_SKIP;
    }
    const rn_plugin *p = entry();
    if (!p) {
        snprintf(why, len, "plugin %s: %s() returned no table", base, RN_PLUGIN_SYMBOL);
        free(full);
        return PLUGIN_SKIP;
    }
    if (p->interface != RN_WORKLOAD_INTERFACE) {
        snprintf(why, len,
                 "plugin %s was built for workload interface version %d; this runner has "
                 "version %d (rebuild it against this runner's <runner/workload.h>)",
                 base, p->interface, RN_WORKLOAD_INTERFACE);
        free(full);
        return PLUGIN_SKIP;
    }
    const rn_workload_impl *w = NULL;
    for (int i = 0; p->workloads && p->workloads[i] && !w; i++)
        if (p->workloads[i]->name && !strcmp(p->workloads[i]->name, name))
            w = p->workloads[i];
    if (!w) {
        char have[512];
        list_names(p, have, sizeof have);
        snprintf(why, len, "plugin %s has no workload '%s' (it has: %s)", base, name, have);
        free(full);
        return PLUGIN_FAIL;
    }
    const char *missing = !w->prepare ? "prepare" : !w->run ? "run" : !w->release ? "release" : NULL;
    if (missing) {
        snprintf(why, len,
                 "plugin %s: workload '%s' lacks the required function %s (prepare, run and "
                 "release are required)",
                 base, name, missing);
        free(full);
        return PLUGIN_SKIP;
    }
    free(full);
    *impl = w;
    return PLUGIN_OK;
}
