/* test_spawn.c - base/spawn.h: the one way the runner starts gnuplot and
 * Slurm's commands (an argument vector, stdin from /dev/null, output read,
 * a time limit). */
#include "base/spawn.h"
#include "base/util.h"

#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static spawn_result run(char *const argv[], spawn_opts o, int *rc)
{
    if (o.timeout == 0)
        o.timeout = 10;
    spawn_result r;
    *rc = spawn_run(argv, &o, &r);
    return r;
}

Test(spawn, captures_stdout_and_the_exit_status, .init = cr_redirect_stderr)
{
    int rc;
    char *argv[] = {"sh", "-c", "echo out; echo err >&2; exit 3", NULL};
    spawn_result r = run(argv, (spawn_opts){0}, &rc);
    cr_assert_eq(rc, 0);
    cr_assert(r.started);
    cr_assert_eq(r.status, 3);
    cr_assert_eq(r.signal, 0);
    cr_assert_str_eq(r.out, "out\n"); /* stderr stays ours */
    cr_assert_eq(r.len, 4);
    spawn_result_free(&r);
    spawn_opts both = {.with_stderr = 1};
    r = run(argv, both, &rc);
    cr_assert_str_eq(r.out, "out\nerr\n");
    spawn_result_free(&r);
}

Test(spawn, arguments_are_not_read_by_a_shell)
{
    int rc;
    char *argv[] = {"printf", "%s|", "a b", "$HOME", "'q'", ";x", NULL};
    spawn_result r = run(argv, (spawn_opts){0}, &rc);
    cr_assert_eq(rc, 0);
    cr_assert_str_eq(r.out, "a b|$HOME|'q'|;x|");
    spawn_result_free(&r);
}

Test(spawn, stdin_is_dev_null_and_the_folder_is_set)
{
    int rc;
    char *cat[] = {"cat", NULL};
    spawn_result r = run(cat, (spawn_opts){0}, &rc);
    cr_assert_eq(rc, 0);
    cr_assert_eq(r.status, 0);
    cr_assert_str_eq(r.out, "");
    spawn_result_free(&r);
    char *pwd[] = {"sh", "-c", "pwd -P", NULL};
    r = run(pwd, (spawn_opts){.dir = "/"}, &rc);
    cr_assert_str_eq(r.out, "/\n");
    spawn_result_free(&r);
}

Test(spawn, a_signal_is_128_plus_its_number)
{
    int rc;
    char *argv[] = {"sh", "-c", "kill -TERM $$", NULL};
    spawn_result r = run(argv, (spawn_opts){0}, &rc);
    cr_assert_eq(rc, 0);
    cr_assert_eq(r.signal, 15);
    cr_assert_eq(r.status, 128 + 15);
    spawn_result_free(&r);
}

Test(spawn, a_missing_program_is_not_started)
{
    int rc;
    char *argv[] = {"/nonexistent/program", NULL};
    spawn_result r = run(argv, (spawn_opts){0}, &rc);
    cr_assert_eq(rc, -1);
    cr_assert_not(r.started);
    cr_assert_eq(r.error, ENOENT);
    cr_assert_str_eq(r.out, "");
    spawn_result_free(&r);
}

Test(spawn, the_time_limit_kills_the_whole_group, .timeout = 10)
{
    int rc;
    /* the grandchild holds the pipe open: only killing the group ends it */
    char *argv[] = {"sh", "-c", "echo started; sleep 30 & sleep 30; wait", NULL};
    double t0 = now_seconds();
    spawn_result r = run(argv, (spawn_opts){.own_group = 1, .timeout = 0.3}, &rc);
    cr_assert_eq(rc, -1);
    cr_assert(r.started);
    cr_assert(r.timed_out);
    cr_assert_str_eq(r.out, "started\n");
    cr_assert_lt(now_seconds() - t0, 5.0);
    spawn_result_free(&r);
}

Test(spawn, keep_holds_the_last_bytes)
{
    int rc;
    char *argv[] = {"sh", "-c", "i=0; while [ $i -lt 2000 ]; do echo line$i; i=$((i+1)); done",
                    NULL};
    spawn_result r = run(argv, (spawn_opts){.keep = 16}, &rc);
    cr_assert_eq(rc, 0);
    cr_assert_eq(r.len, 16);
    cr_assert_str_eq(r.out, "ne1998\nline1999\n");
    spawn_result_free(&r);
}

Test(spawn, find_searches_path_and_skips_empty_entries)
{
    char dir[] = "/tmp/runner-spawn-XXXXXX";
    cr_assert(mkdtemp(dir));
    char *prog = xasprintf("%s/tool", dir);
    FILE *f = fopen(prog, "w");
    fputs("#!/bin/sh\n", f);
    fclose(f);
    char *p = spawn_find(prog);
    cr_assert_null(p, "not executable yet");
    chmod(prog, 0755);
    p = spawn_find(prog);
    cr_assert_str_eq(p, prog);
    free(p);
    char *path = xasprintf("::%s:/nonexistent", dir);
    setenv("PATH", path, 1);
    p = spawn_find("tool");
    cr_assert_str_eq(p, prog);
    free(p);
    cr_assert(chdir(dir) == 0);
    setenv("PATH", ":/nonexistent", 1);
    cr_assert_null(spawn_find("tool"), "an empty PATH entry is not the current folder");
    unsetenv("PATH");
    p = spawn_find("sh");
    cr_assert(p && (!strcmp(p, "/usr/bin/sh") || !strcmp(p, "/bin/sh")), "%s", p ? p : "NULL");
    free(p);
    unlink(prog);
    rmdir(dir);
    free(prog);
    free(path);
}
