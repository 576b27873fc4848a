/* notes.h - where what library modules had to say is printed: they
 * return notes (a strbuf) and never print (doc/contributing/architecture.md#architecture). */
#ifndef RUNNER_CLI_NOTES_H
#define RUNNER_CLI_NOTES_H
/* internal header of runner/cli/: other folders may not include it */

#include "base/util.h"

/* Prints the notes on stderr, and empties them. */
void print_notes(strbuf *notes);

#endif
