/* cmd_proto.h - the persistent protocol of `workload: command`
 * (doc/own-code.md#the-protocol): JSON lines on two pipes of the program's
 * own (not its stdout), one request and one reply at a time.  Library code:
 * it returns its diagnostics and prints nothing. */
#ifndef RUNNER_CMD_PROTO_H
#define RUNNER_CMD_PROTO_H
/* internal header of runner/run/exec/: other folders may not include it */

#include <json-c/json.h>
#include <stddef.h>

#define CMD_PROTO_VERSION 1
#define CMD_PROTO_MAX_LINE (1 << 20)

/* The runner's ends of the two pipes and what was read past a line. */
typedef struct cmd_chan {
    int to, from;
    char *buf;
    size_t len, cap;
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

/* Writes one request, {"op": op, ...fields}, as a line; `fields` (may be
 * NULL) is consumed.  0, or -1 when the program no longer reads. */
int cmd_send(cmd_chan *c, const char *op, json_object *fields);

/* Reads one reply line.  0 with the line (malloc'd, without its newline)
 * in *line; -1 at end of file (the program closed its end, or ended);
 * -2 when the line is longer than CMD_PROTO_MAX_LINE. */
int cmd_read_line(cmd_chan *c, char **line);

/* Parses a reply to `op` ("setup", "run", "check", "teardown").  0, or -1
 * with what is wrong with it in err (the line itself is the caller's to
 * quote). */
int cmd_parse_reply(const char *line, const char *op, cmd_reply *r, char *err, size_t errlen);
void cmd_reply_free(cmd_reply *r);

void cmd_chan_reset(cmd_chan *c); /* forgets what was read; frees the buffer */

#endif
