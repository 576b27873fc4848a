/* cmd_spawn.c - see cmd_spawn.h. */
#include "run/exec/cmd_spawn.h"

#include "base/spawn.h"

#include <stdio.h>

int cmd_spawn_time(series *sp, char **true_path, const cmd_launch *like, const cmd_callenv *c,
                   int n, cmd_call_fn call, rn_error *err)
{
    int first = !*true_path;
    if (first && !(*true_path = spawn_find("true"))) {
        snprintf(err->msg, sizeof err->msg, "no program 'true' on PATH to time a start with");
        return -1;
    }
    char *argv[] = {*true_path, NULL};
    cmd_launch t = {*true_path, argv, like->envp, like->cwd};
    for (int i = first ? -1 : 0; i < n; i++) {
        double d;
        if (call(&t, c, &d, err) < 0)
            return -1;
        if (i >= 0)
            series_add(sp, d);
    }
    return 0;
}
