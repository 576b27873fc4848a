/* runs.c - see rundir.h: the runs of an experiment folder: their ids (UTC
 * start times), which one is unfinished, the lock of a run being written,
 * and `latest`. */
#include "results/rundir/rundir.h"

#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void run_id_now(char *out, size_t n)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(out, n, "%Y%m%dT%H%M%SZ", &tm);
}

/* Is this run folder unfinished?  meta.json says "finished": false. */
static int unfinished(const char *run_dir)
{
    /* a run submitted to Slurm is resumed with `runner submit --resume` */
    char *job = xasprintf("%s/job.sbatch", run_dir);
    int submitted = access(job, F_OK) == 0;
    free(job);
    if (submitted)
        return 0;
    char *p = xasprintf("%s/meta.json", run_dir);
    if (access(p, F_OK) < 0) { /* killed before its meta.json: unfinished */
        free(p);
        return errno == ENOENT;
    }
    int absent;
    char err[8]; /* unreadable: not an open run */
    json_object *m = rundir_meta_parse(p, &absent, err, sizeof err);
    free(p);
    json_object *fin = NULL;
    int open = m && json_object_object_get_ex(m, "finished", &fin) && !json_object_get_boolean(fin);
    json_object_put(m);
    return open;
}

static int cmp_desc(const void *a, const void *b)
{
    return strcmp(*(char *const *)b, *(char *const *)a);
}

/* The newest unfinished run of this experiment, or NULL. */
char *rundir_find_unfinished(const char *exp_dir)
{
    DIR *d = opendir(exp_dir);
    if (!d)
        return NULL;
    char **names = NULL;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (strlen(de->d_name) < 16 || de->d_name[8] != 'T' || de->d_name[15] != 'Z')
            continue;
        XGROW(names, n);
        names[n++] = xstrdup(de->d_name);
    }
    closedir(d);
    if (n)
        xqsort(names, (size_t)n, sizeof *names, cmp_desc);
    char *found = NULL;
    for (int i = 0; i < n && !found; i++) {
        char *dir = xasprintf("%s/%s", exp_dir, names[i]);
        if (unfinished(dir))
            found = xstrdup(names[i]);
        free(dir);
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return found;
}

/* The run's lock: an exclusive fcntl() lock on RUN/.lock, held until
 * results_free, so that two runners never write one run folder
 * (doc/results.md#results).  A POSIX record lock, not flock(): it belongs to this process
 * alone, so the worker and hooks processes forked from it do not hold it on
 * after a SIGKILL of the runner; the kernel drops it when the runner dies.
 * The holder's pid comes from F_GETLK, and is written in the file too. */
int rundir_lock(const char *run_dir, int *lock_fd, char *err, size_t len)
{
    char *p = xasprintf("%s/.lock", run_dir);
    int fd = open(p, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) {
        snprintf(err, len, "cannot lock %s: %s", p, strerror(errno));
        free(p);
        return -1;
    }
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    if (fcntl(fd, F_SETLK, &fl) < 0) {
        struct flock who = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
        long long pid = 0;
        if (fcntl(fd, F_GETLK, &who) == 0 && who.l_type != F_UNLCK)
            pid = who.l_pid;
        else {
            char buf[32] = "";
            ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
            buf[n > 0 ? n : 0] = '\0';
            pid = atoll(buf);
        }
        snprintf(err, len, "%s: run is locked by pid %lld (another runner is writing it)",
                 run_dir, pid);
        close(fd);
        free(p);
        return -1;
    }
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%d\n", (int)getpid());
    if (ftruncate(fd, 0) < 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
        /* the lock holds without the pid: only the message loses it */
    }
    *lock_fd = fd;
    free(p);
    return 0;
}

/* latest -> <run-id>, replaced atomically.  Only a run that finished with an
 * ok trial earns it (doc/results.md#results; issue 16: an empty --filter run or a
 * crashed run must not become what `compare` and `plot` take as latest). */
int rundir_point_latest(const char *exp_dir, const char *run_id)
{
    char *tmp = xasprintf("%s/.latest.%d", exp_dir, (int)getpid());
    char *lnk = xasprintf("%s/latest", exp_dir);
    unlink(tmp);
    int rc = symlink(run_id, tmp) == 0 && rename(tmp, lnk) == 0 ? 0 : -1;
    if (rc < 0)
        unlink(tmp);
    free(tmp);
    free(lnk);
    return rc;
}



int rundir_earn_latest(const char *run_dir)
{
    char *abs = realpath(run_dir, NULL);
    if (!abs)
        return 0;
    char *slash = strrchr(abs, '/');
    int ok = slash && slash != abs && rundir_has_ok_trial(abs);
    if (ok) {
        *slash = '\0';
        ok = rundir_point_latest(abs, slash + 1) == 0;
    }
    free(abs);
    return ok;
}

char *rundir_create(const char *exp_dir, char **run_id, char *err, size_t len)
{
    char id[40];
    run_id_now(id, sizeof id);
    char *dir = xasprintf("%s/%s", exp_dir, id);
    for (int k = 2; mkdir(dir, 0777) < 0; k++) {
        if (errno != EEXIST || k > 1000) {
            snprintf(err, len, "cannot create %s: %s", dir, strerror(errno));
            free(dir);
            return NULL;
        }
        free(dir);
        dir = xasprintf("%s/%s-%d", exp_dir, id, k);
    }
    *run_id = xstrdup(strrchr(dir, '/') + 1);
    return dir;
}
