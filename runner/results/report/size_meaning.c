/* size_meaning.c - see size_meaning.h. */
#include "results/report/size_meaning.h"

#include "base/util.h"
#include "experiment/lua/lua_engine.h"
#include "experiment/registry/workloads.h"

#include <stdlib.h>
#include <string.h>

/* One workload's meaning of size: "" when it declares none, NULL when it has
 * no size. */
static char *one(const char *w, const char *dir, const char *file_means)
{
    if (!strcmp(w, "command") || !strncmp(w, "plugin:", 7))
        return xstrdup(file_means ? file_means : "");
    if (!strncmp(w, "lua:", 4)) {
        char m[256];
        char *path = w[4] == '/' || !dir ? xstrdup(w + 4) : xasprintf("%s/%s", dir, w + 4);
        int ok = lua_file_size_means(path, m, sizeof m) == 0;
        free(path);
        return xstrdup(ok ? m : "");
    }
    const workload_desc *d = workload_find(w);
    if (!d || !d->size_means)
        return xstrdup("");
    return strcmp(d->size_means, "-") ? xstrdup(d->size_means) : NULL;
}

char *size_meaning(const char *const *workloads, int n, const char *dir, const char *file_means)
{
    char **m = xcalloc((size_t)n + 1, sizeof *m);
    int sized = 0, same = 1;
    for (int i = 0; i < n; i++) {
        m[i] = one(workloads[i], dir, file_means);
        if (!m[i])
            continue;
        for (int k = 0; k < i && same; k++)
            if (m[k])
                same = !strcmp(m[k], m[i]);
        sized++;
    }
    char *out = NULL;
    if (sized && same) {
        for (int i = 0; i < n && !out; i++)
            if (m[i])
                out = xstrdup(*m[i] ? m[i] : "not stated");
    } else if (sized) {
        strbuf b = {0};
        for (int i = 0; i < n; i++) {
            if (!m[i])
                continue;
            const char *name = workloads[i];
            /* a Lua file by its name alone */
            if (!strncmp(name, "lua:", 4))
                name = strrchr(name, '/') ? strrchr(name, '/') + 1 : name + 4;
            sb_printf(&b, "%s%s: %s", b.len ? "; " : "", name, *m[i] ? m[i] : "not stated");
        }
        out = sb_take(&b);
    }
    for (int i = 0; i < n; i++)
        free(m[i]);
    free(m);
    return out;
}
