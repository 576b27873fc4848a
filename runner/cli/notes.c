/* notes.c - see notes.h. */
#include "cli/notes.h"

#include <stdio.h>

void print_notes(strbuf *notes)
{
    if (notes->len)
        fputs(notes->s, stderr);
    sb_free(notes);
}
