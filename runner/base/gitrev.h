/* gitrev.h - the revision of the git checkout a folder is in
 * (doc/history.md#what-is-recorded), found so that nothing the folder holds
 * runs: a received tarball's .git/config may name commands (core.fsmonitor,
 * a filter's clean, hooks), and `git status` in it ran them, even for
 * `workload: noop`.  The commit is read from .git's own files (HEAD, its
 * ref, packed-refs; a worktree's `.git` file and its commondir followed);
 * git is asked only what those files do not say plainly (whether the
 * checkout has changes, the commit's time), with every command the
 * repository's configuration names switched off.  Library code: it prints
 * nothing. */
#ifndef RUNNER_GITREV_H
#define RUNNER_GITREV_H
/* public header of runner/base/ */

typedef struct git_rev {
    char commit[65]; /* 40 (SHA-1) or 64 (SHA-256) hex digits; "" when none */
    int dirty;       /* uncommitted changes to tracked files; -1: unknown */
    long long time;  /* the commit's time (Unix seconds); 0: unknown */
} git_rev;

/* The checkout that folder `dir` is in: 0 with r filled, or -1 (r->commit
 * "") when dir is in none, or its HEAD names no commit (a branch without
 * one). */
int git_revision(const char *dir, git_rev *r);

#endif
