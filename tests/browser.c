/* browser.c - see browser.h. */
#include "browser.h"

#include "base/util.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

const char *chromium_or_skip(const char *what)
{
    static const char *const names[] = {"/usr/bin/chromium", "/usr/bin/chromium-browser",
                                        "/usr/lib/chromium/chromium"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (access(names[i], X_OK) == 0)
            return names[i];
    cr_skip_test("chromium is not installed (Debian: apt-get install chromium, part of "
                 "make deps-test): %s was not opened in a browser",
                 what);
    return NULL;
}

char *dump_dom(const char *browser, const char *d, const char *url, char **log)
{
    char profile[4096], dom_path[4096], log_path[4096], profile_arg[4200];
    snprintf(profile, sizeof profile, "%s/chromium-profile", d);
    snprintf(dom_path, sizeof dom_path, "%s/dom.html", d);
    snprintf(log_path, sizeof log_path, "%s/chromium.log", d);
    snprintf(profile_arg, sizeof profile_arg, "--user-data-dir=%s", profile);
    pid_t pid = fork();
    if (pid == 0) {
        int o = open(dom_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e =
            log ? open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644) : open("/dev/null", O_WRONLY);
        dup2(o, 1);
        dup2(e, 2);
        setpgid(0, 0);
        /* --no-sandbox: the tests may run as root */
        if (log)
            execl("/usr/bin/timeout", "timeout", "-k", "10", "90", browser, "--headless",
                  "--no-sandbox", "--disable-gpu", "--no-first-run", profile_arg,
                  "--enable-logging=stderr", "--v=0", "--dump-dom", url, (char *)NULL);
        else
            execl("/usr/bin/timeout", "timeout", "-k", "10", "90", browser, "--headless",
                  "--no-sandbox", "--disable-gpu", "--no-first-run", profile_arg, "--dump-dom", url,
                  (char *)NULL);
        _exit(127);
    }
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    if (log)
        *log = read_file(log_path, NULL);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "chromium failed on %s: %s", url,
              log && *log ? *log : "");
    char *dom = read_file(dom_path, NULL);
    cr_assert_not_null(dom);
    return dom;
}
