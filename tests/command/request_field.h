/* request_field.h - one field of a protocol request line, for the test
 * programs that speak the persistent protocol (proto_prog.c, hostile_prog.c:
 * each a program of its own, so the function is static here). */
#ifndef RUNNER_TESTS_REQUEST_FIELD_H
#define RUNNER_TESTS_REQUEST_FIELD_H

#include <stdio.h>
#include <string.h>

/* the text of "name":"value" or the number of "name":N in a request */
static const char *field(const char *line, const char *name, char *out, size_t len)
{
    char key[64];
    snprintf(key, sizeof key, "\"%s\":", name);
    const char *p = strstr(line, key);
    if (!p)
        return NULL;
    p += strlen(key);
    if (*p == '"')
        p++;
    size_t n = strcspn(p, "\",}");
    snprintf(out, len, "%.*s", (int)n, p);
    return out;
}

#endif
