/* cmd_new.c - `runner new workload NAME [--cuda] [--dir DIR]`: writes a
 * plugin that builds with `pkg-config runner` and runs as written
 * (doc/own-code-plugins.md#runner-new-workload).  The files' text is
 * experiment/registry/plugin_template.c's; this file parses the options and writes
 * them, never over a file that exists. */
#include "cli/commands.h"
#include "cli/help.h"
#include "cli/opts.h"
#include "experiment/registry/plugin_template.h"
#include "base/spawn.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { N_CUDA, N_DIR, N_HELP };

static const opt_def new_options[] = {
    {"--cuda", 0, OPT_NONE, N_CUDA}, {"--dir", 0, OPT_VALUE, N_DIR},
    {"--help", 'h', OPT_NONE, N_HELP}, {NULL, 0, 0, 0},
};

static void new_usage(FILE *f)
{
    cli_command_help(CMD_NEW, NULL, f);
}

/* Writes DIR/f->name, refusing one that exists; 0, or -1 with a message. */
static int write_new(const char *dir, const plugin_file *f)
{
    char *path = xasprintf("%s/%s", dir, f->name);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) {
        fprintf(stderr, "runner: new: cannot write %s: %s%s\n", path, strerror(errno),
                errno == EEXIST ? " (runner new never overwrites a file)" : "");
        free(path);
        return -1;
    }
    size_t len = strlen(f->text), at = 0;
    while (at < len) {
        ssize_t w = write(fd, f->text + at, len - at);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            fprintf(stderr, "runner: new: cannot write %s: %s\n", path, strerror(errno));
            close(fd);
            free(path);
            return -1;
        }
        at += (size_t)w;
    }
    close(fd);
    free(path);
    return 0;
}

/* The folder of the pkg-config file of this runner's plugin interface: in
 * the source tree it ran from, lib/pkgconfig (runner-uninstalled.pc,
 * written by make), or PREFIX/lib/pkgconfig after make install; NULL when
 * neither is there (doc/own-code-plugins.md#building-with-pkg-config). */
static char *pc_dir(void)
{
    /* bin/runner, PREFIX/bin/runner, then BUILD/bin/runner of the tree */
    static const char *const rel[] = {"../lib/pkgconfig/runner-uninstalled.pc",
                                      "../lib/pkgconfig/runner.pc",
                                      "../../lib/pkgconfig/runner-uninstalled.pc"};
    char path[4096];
    if (find_beside_exe(rel, 3, 0, path, sizeof path) < 0)
        return NULL;
    *strrchr(path, '/') = '\0';
    char *real = realpath(path, NULL);
    return real ? real : xstrdup(path);
}

/* How to start this runner from the folder `dir`: `runner` when PATH finds
 * this very program, else its path from `dir` (absolute when that would
 * climb more than three folders), so that the hint and the plugin's
 * `make run` work in a source tree that is not installed. */
static char *runner_from(const char *dir)
{
    char *self = realpath("/proc/self/exe", NULL), *found = spawn_find("runner");
    char *found_real = found ? realpath(found, NULL) : NULL, *from = realpath(dir, NULL);
    char *r = NULL;
    if (!self) {
        r = xstrdup("runner");
    } else if (found_real && !strcmp(found_real, self)) {
        r = xstrdup("runner");
    } else if (from) {
        /* the deepest folder the two share, then one ../ per folder of
         * `from` below it */
        size_t i = 0, common;
        while (self[i] && self[i] == from[i])
            i++;
        common = i;
        if (!(from[i] == '\0' && self[i] == '/')) /* `from` is not above self */
            do
                common--;
            while (common > 0 && self[common] != '/');
        int up = 0;
        for (const char *c = from + common; *c; c++)
            up += *c == '/';
        if (up <= 3 && common > 0) {
            strbuf b = {0};
            sb_puts(&b, up ? "" : "./");
            for (int k = 0; k < up; k++)
                sb_puts(&b, "../");
            sb_puts(&b, self + common + 1);
            r = sb_take(&b);
        }
    }
    if (!r)
        r = xstrdup(self ? self : "runner");
    free(self);
    free(found);
    free(found_real);
    free(from);
    return r;
}

static int new_workload(const char *name, int cuda, const char *dir)
{
    if (!plugin_name_ok(name)) {
        fprintf(stderr,
                "runner: new: '%s' cannot name a workload: a C identifier (letters, digits and "
                "'_', not starting with a digit; at most 64 characters)\n",
                name);
        return EXIT_INVALID;
    }
    char *d = xstrdup(dir ? dir : name);
    plugin_file files[PLUGIN_TEMPLATE_MAX];
    /* the files' names first: the runner's path from the folder is known
     * once the folder exists */
    int n = plugin_template(name, cuda, "runner", NULL, files);
    int rc = EXIT_OK;
    /* every file is checked before any is written: all or nothing */
    for (int i = 0; i < n && rc == EXIT_OK; i++) {
        char *path = xasprintf("%s/%s", d, files[i].name);
        if (access(path, F_OK) == 0) {
            fprintf(stderr, "runner: new: %s exists (runner new never overwrites a file)\n",
                    path);
            rc = EXIT_INVALID;
        }
        free(path);
    }
    if (rc == EXIT_OK && make_dirs(d) < 0) {
        fprintf(stderr, "runner: new: cannot make the folder %s: %s\n", d, strerror(errno));
        rc = EXIT_INVALID;
    }
    /* the folder exists now: the runner's path from it can be worked out */
    char *runner = rc == EXIT_OK ? runner_from(d) : NULL, *pc = pc_dir();
    if (rc == EXIT_OK) {
        plugin_template_free(files, n);
        n = plugin_template(name, cuda, runner, pc, files);
    }
    for (int i = 0; i < n && rc == EXIT_OK; i++)
        if (write_new(d, &files[i]) < 0)
            rc = EXIT_INVALID;
    if (rc == EXIT_OK) {
        printf("wrote");
        for (int i = 0; i < n; i++)
            printf(" %s/%s", d, files[i].name);
        printf("\nnext: cd %s && make && %s %s.yaml\n", d, runner, name);
    }
    plugin_template_free(files, n);
    free(runner);
    free(pc);
    free(d);
    return rc;
}

typedef struct new_args {
    const char *words[3], *dir;
    int nwords, cuda, help;
} new_args;

/* --help is taken with the rest: a wrong option after it is still wrong */
static int new_option(void *ctx, const opts *p, int id)
{
    new_args *n = ctx;
    if (id == N_HELP) {
        n->help = 1;
    } else if (id == N_CUDA) {
        n->cuda = 1;
    } else if (id == N_DIR) {
        n->dir = p->value;
        if (!p->value || !*p->value) {
            fprintf(stderr, "runner: new: --dir needs a folder\n");
            return EXIT_INVALID;
        }
    } else if (n->nwords < 3) {
        n->words[n->nwords++] = p->value;
    } else {
        n->nwords++;
    }
    return -1;
}

int cmd_new_main(int nargs, char **args)
{
    static const opts_cmd k = {"new", new_options, 0, NULL};
    new_args a = {{NULL, NULL, NULL}, NULL, 0, 0, 0};
    int rc = opts_parse(&k, nargs, args, new_option, &a);
    if (rc >= 0)
        return rc;
    const char **words = a.words;
    int nwords = a.nwords, help = a.help, cuda = a.cuda;
    const char *dir = a.dir;
    if (help) {
        new_usage(stdout);
        return EXIT_OK;
    }
    if (nwords == 0 || strcmp(words[0], "workload")) {
        if (nwords)
            fprintf(stderr, "runner: new: unknown kind '%s' (runner new makes a 'workload')\n",
                    words[0]);
        new_usage(stderr);
        return EXIT_INVALID;
    }
    if (nwords != 2) {
        fprintf(stderr, "runner: new workload takes one NAME%s\n",
                nwords < 2 ? "" : ", not more");
        new_usage(stderr);
        return EXIT_INVALID;
    }
    return new_workload(words[1], cuda, dir);
}
