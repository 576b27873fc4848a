/* lua_fixture.c - see lua_fixture.h. */
#include "lua_fixture.h"

#include <criterion/criterion.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


char lua_root[PATH_MAX], lua_fixtures[PATH_MAX], project_lua[PATH_MAX];

void configure(int unsafe)
{
    const char *r = getenv("RUNNER_ROOT");
    snprintf(lua_root, sizeof lua_root, "%s", r && *r ? r : ".");
    snprintf(lua_fixtures, sizeof lua_fixtures, "%s/tests/lua", lua_root);
    snprintf(project_lua, sizeof project_lua, "%s/lua", lua_root);
    lua_engine_configure(lua_fixtures, project_lua, unsafe);
    /* until (and after) the CPU backend registers its ops itself */
    lua_engine_override_tensor_ops(RN_DEV_CPU, &cpu_tensor_ops);
    lua_hooks_set_time_limit(1.0);
}

void init(void)
{
    configure(0);
}

rn_trial trial(const char *workload, uint64_t seed)
{
    rn_trial t = {.workload = workload, .device = RN_DEV_CPU, .threads = 1, .size = -1,
                  .seed = seed};
    return t;
}

void *prep_t(const rn_trial *t)
{
    void *st = NULL;
    rn_error err = {{0}};
    int rc = lua_workload_impl()->prepare(t, &st, &err);
    cr_assert_eq(rc, 0, "prepare %s: %d: %s", t->workload, rc, err.msg);
    cr_assert_not_null(st);
    return st;
}

void *prep(const char *workload, uint64_t seed)
{
    rn_trial t = trial(workload, seed);
    return prep_t(&t);
}

void release(void *st)
{
    lua_workload_impl()->release(st);
}

static const char *const prelude =
    "local function same(t, want, tol)\n"
    "  tol = tol or 0\n"
    "  local got = t:totable()\n"
    "  if #got ~= #want then error(('size %d, want %d'):format(#got, #want), 2) end\n"
    "  for i = 1, #want do\n"
    "    if math.abs(got[i] - want[i]) > tol then\n"
    "      error(('element %d = %.9g, want %.9g'):format(i, got[i], want[i]), 2)\n"
    "    end\n"
    "  end\n"
    "end\n";

int eval(void *st, const char *chunk, char *out, size_t len, char *msg, size_t mlen)
{
    char *src = malloc(strlen(prelude) + strlen(chunk) + 1);
    strcpy(src, prelude);
    strcat(src, chunk);
    rn_error err = {{0}};
    char dummy[8];
    int rc = lua_workload_eval(st, src, out ? out : dummy, out ? len : sizeof dummy, &err);
    free(src);
    if (msg)
        snprintf(msg, mlen, "%s", err.msg);
    return rc;
}

void ok(void *st, const char *chunk)
{
    char msg[1024];
    int rc = eval(st, chunk, NULL, 0, msg, sizeof msg);
    cr_assert_eq(rc, 0, "%s\n-> %s", chunk, msg);
}

void fails(void *st, const char *chunk, const char *want)
{
    char msg[1024];
    int rc = eval(st, chunk, NULL, 0, msg, sizeof msg);
    cr_assert_neq(rc, 0, "%s: succeeded, expected an error with '%s'", chunk, want);
    cr_assert(strstr(msg, want), "%s:\n  got  '%s'\n  want '%s'", chunk, msg, want);
}

void fails_each(void *st, const char *const (*cases)[2])
{
    for (; cases[0][0]; cases++)
        fails(st, cases[0][0], cases[0][1]);
}

double num(void *st, const char *expr)
{
    char chunk[1024], out[128], msg[1024];
    snprintf(chunk, sizeof chunk, "return string.format('%%.17g', %s)", expr);
    int rc = eval(st, chunk, out, sizeof out, msg, sizeof msg);
    cr_assert_eq(rc, 0, "%s: %s", expr, msg);
    return strtod(out, NULL);
}
