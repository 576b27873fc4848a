/* lua_fixture.h - what the Lua tests share: the engine configured on the
 * fixture folders (the suite's init), a Lua workload prepared for a trial,
 * chunks evaluated in its state, and the Philox reference draws. */
#ifndef TESTS_LUA_FIXTURE_H
#define TESTS_LUA_FIXTURE_H

#include "experiment/registry/backends.h"
#include "experiment/lua/lua_engine.h"
#include "philox.h"

#include <limits.h>

/* The CPU backend's tensor operations (backends/cpu/tensor.c). */
extern const rn_tensor_ops cpu_tensor_ops;

/* $RUNNER_ROOT, its tests/lua and its lua/ (set by configure). */
extern char lua_root[PATH_MAX], lua_fixtures[PATH_MAX], project_lua[PATH_MAX];

/* The engine on the fixture folders, unsafe Lua or not. */
void configure(int unsafe);

/* The lua suite's init: configure(0). */
void init(void);

/* A CPU trial of `workload` (a Lua file) with `seed`. */
rn_trial trial(const char *workload, uint64_t seed);

/* The Lua workload prepared for a trial (asserted); prep: for trial(workload, seed). */
void *prep_t(const rn_trial *t);

void *prep(const char *workload, uint64_t seed);

/* Releases a prepared state. */
void release(void *st);

/* Runs `chunk` (after a prelude of helpers) in a prepared state: 0 or an
 * error with its message in msg; what it returns in out. */
int eval(void *st, const char *chunk, char *out, size_t len, char *msg, size_t mlen);

/* eval must pass; fails: must fail with `want` in its message; num: a
 * number expression's value. */
void ok(void *st, const char *chunk);

void fails(void *st, const char *chunk, const char *want);

double num(void *st, const char *expr);

/* fails for each {chunk, want} of `cases`, up to a {NULL} one. */
void fails_each(void *st, const char *const (*cases)[2]);

#endif
