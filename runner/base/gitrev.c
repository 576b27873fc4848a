/* gitrev.c - see gitrev.h.  The files read are git's documented layout
 * (gitrepository-layout(5)): HEAD holds a commit or "ref: refs/...", a
 * loose ref the same, packed-refs lines of "<commit> <ref>"; a linked
 * worktree's `.git` is a file "gitdir: PATH" whose folder has its own HEAD
 * and a `commondir` file naming the folder with the shared refs. */
#include "base/gitrev.h"

#include "base/spawn.h"
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* HEAD, a loose ref, a `.git` file, commondir: a line */
#define SMALL_MAX ((size_t)4096)
/* packed-refs: a line per ref; a repository of 100,000 tags holds 10 MB */
#define PACKED_MAX ((size_t)256 << 20)
/* symbolic refs followed at most (git's own limit is 5) */
#define REF_DEPTH 5

/* The first line of a small file, or NULL; malloc'd. */
static char *first_line(const char *path)
{
    char *t = read_file_max(path, SMALL_MAX, NULL, NULL, 0);
    if (t)
        t[strcspn(t, "\r\n")] = '\0';
    return t;
}

static char *join(const char *dir, const char *rel)
{
    return rel[0] == '/' ? xstrdup(rel) : xasprintf("%s/%s", dir, rel);
}

static int is_commit(const char *s)
{
    size_t n = strspn(s, "0123456789abcdef");
    return (n == 40 || n == 64) && s[n] == '\0';
}

/* A ref name that stays inside the refs folders: "refs/...", no "..", no
 * empty or hidden component (git refuses those names too). */
static int safe_ref(const char *r)
{
    if (strncmp(r, "refs/", 5) || strstr(r, "..") || strstr(r, "//") || strstr(r, "/.") ||
        r[strlen(r) - 1] == '/')
        return 0;
    for (const unsigned char *p = (const unsigned char *)r; *p; p++)
        if (*p <= ' ' || *p == 0x7f || strchr("~^:?*[\\", *p))
            return 0;
    return 1;
}

/* The refs of one worktree alone (gitrepository-layout(5)); the others are
 * in the common folder. */
static int per_worktree(const char *r)
{
    return !strncmp(r, "refs/bisect/", 12) || !strncmp(r, "refs/worktree/", 14) ||
           !strncmp(r, "refs/rewritten/", 15);
}

/* The commit of ref `name` in common/packed-refs, or NULL. */
static char *packed(const char *common, const char *name)
{
    char *p = join(common, "packed-refs");
    char *text = read_file_max(p, PACKED_MAX, NULL, NULL, 0), *found = NULL;
    free(p);
    for (char *line = text, *next; line && *line && !found; line = next) {
        next = line + strcspn(line, "\n");
        if (*next)
            *next++ = '\0';
        char *sp = strchr(line, ' ');
        if (line[0] == '#' || line[0] == '^' || !sp)
            continue;
        *sp = '\0';
        if (!strcmp(sp + 1, name) && is_commit(line))
            found = xstrdup(line);
    }
    free(text);
    return found;
}

/* HEAD's commit into out (65 bytes): 0, or -1 when it names none. */
static int head_commit(const char *gitdir, const char *common, char *out)
{
    char *p = join(gitdir, "HEAD"), *ref = first_line(p);
    free(p);
    for (int depth = 0; ref && depth <= REF_DEPTH; depth++) {
        if (is_commit(ref)) {
            snprintf(out, 65, "%s", ref);
            free(ref);
            return 0;
        }
        const char *name = ref + 4;
        if (strncmp(ref, "ref:", 4))
            break;
        name += strspn(name, " \t");
        if (!safe_ref(name))
            break;
        p = join(per_worktree(name) ? gitdir : common, name);
        char *next = first_line(p);
        free(p);
        if (!next)
            next = packed(common, name);
        free(ref);
        ref = next;
    }
    free(ref);
    return -1;
}

/* The checkout dir is in: its git folder and work tree (malloc'd), found
 * as git finds them, walking up from dir; -1 when there is none. */
static int find_checkout(const char *dir, char **gitdir, char **worktree)
{
    char *p = realpath(dir, NULL);
    while (p) {
        char *g = join(p, ".git");
        struct stat st;
        char *t = NULL;
        if (stat(g, &st) == 0 && S_ISDIR(st.st_mode)) {
            *gitdir = g;
            *worktree = p;
            return 0;
        }
        if (stat(g, &st) == 0 && S_ISREG(st.st_mode) && (t = first_line(g)) &&
            !strncmp(t, "gitdir: ", 8) && t[8]) {
            *gitdir = join(p, t + 8);
            *worktree = p;
            free(t), free(g);
            return 0;
        }
        free(t), free(g);
        char *slash = strrchr(p, '/');
        if (!slash || slash == p) {
            free(p);
            return -1;
        }
        *slash = '\0';
    }
    return -1;
}

/* git with the repository's commands off: fsmonitor, hooks, network (a
 * partial clone's fetch of a missing object), the optional index write;
 * filter drivers the repository itself configures are added by the
 * caller.  Its output (malloc'd), or NULL when it failed. */
static char *git(const char *gitdir, const char *worktree, char **more, int nmore,
                 const char *const *cmd)
{
    char *gd = xasprintf("--git-dir=%s", gitdir), *wt = xasprintf("--work-tree=%s", worktree);
    const char *base[] = {"git", "--no-pager", "--no-optional-locks", gd, wt,
                          "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
                          "-c", "protocol.allow=never", "-c", "core.untrackedCache=false"};
    int nb = (int)(sizeof base / sizeof base[0]), nc = 0;
    while (cmd[nc])
        nc++;
    char **argv = xcalloc((size_t)(nb + nmore + nc + 1), sizeof *argv);
    for (int i = 0; i < nb; i++)
        argv[i] = (char *)base[i];
    for (int i = 0; i < nmore; i++)
        argv[nb + i] = more[i];
    for (int i = 0; i < nc; i++)
        argv[nb + nmore + i] = (char *)cmd[i];
    /* stderr with stdout: its complaints are ours to judge, not the user's terminal's */
    spawn_opts o = {.dir = worktree, .timeout = 10, .keep = 1 << 16, .with_stderr = 1};
    spawn_result r;
    int ok = spawn_run(argv, &o, &r) == 0 && r.status == 0;
    char *out = ok ? xstrdup(r.out ? r.out : "") : NULL;
    spawn_result_free(&r);
    free(argv), free(gd), free(wt);
    return out;
}

/* "-c" "filter.NAME.clean=" ... for each filter driver that the
 * repository's own configuration (scope local or worktree, includes
 * followed) names: a clean or process command there would run on every
 * file whose stat data changed.  The user's own (system, global) stay. */
static int filters_off(const char *gitdir, const char *worktree, char ***out)
{
    static const char *const list[] = {"config", "--show-scope", "--includes", "--name-only",
                                       "--get-regexp", "^filter\\.", NULL};
    char *text = git(gitdir, worktree, NULL, 0, list);
    if (!text) /* none configured exits 1; a git too old for --show-scope too */
        return 0;
    int n = 0;
    char **v = NULL;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *tab = strchr(line, '\t');
        if (!tab || (strncmp(line, "local\t", 6) && strncmp(line, "worktree\t", 9)))
            continue;
        char *name = tab + 1 + 7, *dot = strrchr(name, '.'); /* "filter." NAME "." key */
        if (strncmp(tab + 1, "filter.", 7) || !dot || dot == name)
            continue;
        static const char *const keys[] = {"clean=", "smudge=", "process=", "required=false"};
        for (int k = 0; k < 4; k++) {
            v = xrealloc(v, (size_t)(n + 2) * sizeof *v);
            v[n++] = xstrdup("-c");
            v[n++] = xasprintf("filter.%.*s.%s", (int)(dot - name), name, keys[k]);
        }
    }
    free(text);
    *out = v;
    return n;
}

int git_revision(const char *dir, git_rev *r)
{
    memset(r, 0, sizeof *r);
    r->dirty = -1;
    char *gitdir, *worktree;
    if (find_checkout(dir, &gitdir, &worktree) < 0)
        return -1;
    char *cp = join(gitdir, "commondir"), *cd = first_line(cp);
    char *common = cd && *cd ? join(gitdir, cd) : xstrdup(gitdir);
    free(cp), free(cd);
    int rc = head_commit(gitdir, common, r->commit);
    if (rc == 0) {
        char **off = NULL;
        int noff = filters_off(gitdir, worktree, &off);
        /* a submodule at another commit counts; its own files are not
         * looked into (that would be git in the submodule's checkout) */
        static const char *const status[] = {"status", "--porcelain", "--untracked-files=no",
                                             "--ignore-submodules=dirty", NULL};
        char *st = git(gitdir, worktree, off, noff, status);
        r->dirty = st ? *st != '\0' : -1;
        free(st);
        for (int i = 0; i < noff; i++)
            free(off[i]);
        free(off);
        const char *const show[] = {"cat-file", "commit", r->commit, NULL};
        char *c = git(gitdir, worktree, NULL, 0, show);
        /* "committer NAME <EMAIL> SECONDS +ZONE" */
        char *line = c ? strstr(c, "\ncommitter ") : NULL;
        if (line) {
            line[1 + strcspn(line + 1, "\n")] = '\0';
            char *zone = strrchr(line, ' ');
            if (zone) {
                *zone = '\0';
                char *secs = strrchr(line, ' ');
                r->time = secs ? atoll(secs + 1) : 0;
            }
        }
        free(c);
    }
    free(gitdir), free(worktree), free(common);
    return rc;
}
