/* cmd_proto.h - the persistent protocol of `workload: command`
 * (doc/own-code.md#the-protocol): JSON lines on two pipes of the program's
 * own (not its stdout), one request and one reply at a time.  Library code:
 * it returns its diagnostics and prints nothing. */
#ifndef RUNNER_CMD_PROTO_H
#define RUNNER_CMD_PROTO_H
/* internal header of runner/run/exec/: other folders may not include it */

#include <json-c/json.h>
#include <stddef.h>
#include <sys/types.h>

#define CMD_PROTO_VERSION 1
#define CMD_PROTO_MAX_LINE (1 << 20)

/* The runner's ends of the two pipes and what was read past a line; the
 * program's pid and a descriptor that says when it ends (pidfd: -1 where
 * the kernel has none), so that a reply is not waited for after the program
 * ended while a child of its still holds the reply pipe; its stderr file,
 * kept to a tail while a reply is waited for. */
typedef struct cmd_chan {
    int to, from;
    char *buf;
    size_t len, cap;
    pid_t pid;
    int pidfd, errfd;
    long long id; /* the last request's id */
} cmd_chan;

/* What a reply says (fields absent are NAN / NULL). */
typedef enum { REPLY_OK, REPLY_SKIP, REPLY_ERROR } reply_kind;

typedef struct cmd_reply {
    reply_kind kind;
    char *message;        /* skip's reason, error's message */
    double seconds;       /* run: the program's own time for its k calls */
    double device_seconds;
    double flops, bytes;  /* setup: the work of one call */
    json_object *extras;  /* {"column": value, ...} (a reference the reply holds) */
    json_object *root;
} cmd_reply;

/* Writes one request, {"op": op, "id": N, ...fields}, as a line, N one
 * more than the last request's (c->id); `fields` (may be NULL) is
 * consumed.  0, or -1 when the program no longer reads. */
int cmd_send(cmd_chan *c, const char *op, json_object *fields);

/* Reads one reply line.  0 with the line (malloc'd, without its newline)
 * in *line; CMD_EOF at end of file (the program closed its end); CMD_ENDED
 * when the program ended without a whole line (a child of its may hold
 * the pipe open); CMD_LONG when the line is longer than CMD_PROTO_MAX_LINE.
 * While it waits, the program's stderr is cut to its tail (cmd_err_trim). */
enum { CMD_EOF = -1, CMD_LONG = -2, CMD_ENDED = -3 };
int cmd_read_line(cmd_chan *c, char **line);
/* 1 when the program wrote something nobody asked for (a second reply),
 * kept in the buffer for the caller to quote; 0 when nothing waits. */
int cmd_unasked(cmd_chan *c);
/* The pidfd of pid (close-on-exec), or -1 where the kernel has none. */
int cmd_pidfd(pid_t pid);

/* Parses a reply to `op` ("setup", "run", "check", "teardown"), request
 * `id`: a reply's "id", when it has one, must be that id (a program that
 * echoes it is never answered by a stale line).  0, or -1 with what is
 * wrong with it in err (the line itself is the caller's to quote). */
int cmd_parse_reply(const char *line, const char *op, long long id, cmd_reply *r, char *err,
                    size_t errlen);
void cmd_reply_free(cmd_reply *r);

/* A reply's `extras` added to the columns kept so far (*xk names, *xv
 * values, *nx of them; malloc'd): the last value of a column wins, as text,
 * sanitized (doc/own-code.md#replies). */
void cmd_extras_keep(char ***xk, char ***xv, int *nx, json_object *x);

/* A run reply's times against the round trip rt that contained them
 * (calls calls; own the program's seconds, dev its device seconds, 0 when
 * none): the program's clocks run inside the runner's, so a longer time is
 * not the calls' (doc/own-code.md#what-the-runner-guarantees).  0, or -1
 * with msg saying which. */
int cmd_times_fit(double own, double dev, double rt, int calls, char *msg, size_t len);

void cmd_chan_reset(cmd_chan *c); /* forgets what was read; frees the buffer */

#endif
