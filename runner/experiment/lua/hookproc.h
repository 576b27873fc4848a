/* hookproc.h - user Lua outside the runner's process
 * (doc/lua.md#experiment-hooks, "Guarantees"): an experiment's hooks run in one long-lived child
 * process, killed and restarted when a hook crashes it or outlives its
 * time limit; `runner validate`'s Lua checks run in a child of their own.
 * Nothing a Lua file does (a C-stack overflow, a C function that never
 * returns, a finalizer that loops) reaches the runner itself.  This module
 * returns messages; it prints nothing. */
#ifndef RUNNER_HOOKPROC_H
#define RUNNER_HOOKPROC_H
/* public header of runner/experiment/lua/ */

#include "experiment/config.h"
#include "experiment/lua/lua_engine.h"

#include <signal.h>

typedef struct hookproc hookproc;

/* Return values besides lua_hooks_*'s own: the run was interrupted. */
#define HOOKPROC_INTERRUPTED (-2)

/* Starts the hooks process of `e` for the hooks file `path` (loaded there,
 * under the sandbox configured by lua_engine_configure).  NULL with the
 * loading error in err.  `interrupted` is polled while a hook runs: when it
 * is set the hook's process is killed and the call returns
 * HOOKPROC_INTERRUPTED. */
hookproc *hookproc_open(const experiment *e, const char *path,
                        volatile sig_atomic_t *interrupted, char *err, size_t len);
int hookproc_has(const hookproc *hp, const char *name);
/* As lua_hooks_skip / _before / _after for trial t of the experiment; a
 * crash or a hang of the hooks process is an error (-1) with the reason
 * ("hooks.lua: skip() did not return within 6 s", "hooks process crashed:
 * signal 11 (Segmentation fault)"), and the next call starts a new one. */
int hookproc_skip(hookproc *hp, long long t, char *reason, size_t len);
int hookproc_before(hookproc *hp, long long t, char *err, size_t len);
int hookproc_after(hookproc *hp, long long t, const lua_result_view *r, lua_extra *out,
                   char *err, size_t len);
/* Restarts so far (crashes and hangs), for tests. */
int hookproc_restarts(const hookproc *hp);
void hookproc_close(hookproc *hp);

/* `runner validate`: lua_file_check (hooks = 0) or lua_hooks_open (hooks =
 * 1) of path, in a child given the hook time limit plus 1 s.  0, or -1 with
 * the message ("...: the check crashed: signal 11 (...)", "...: the check
 * did not finish within 6 s"). */
int lua_check_isolated(int hooks, const char *path, char *err, size_t len);

#endif
