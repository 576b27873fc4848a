/* util.h - allocation that cannot fail silently, growable strings, misc. */
#ifndef RUNNER_UTIL_H
#define RUNNER_UTIL_H
/* public header of runner/base/ */

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* free() of each of n pointers; FREE_ALL(a, b, c) frees a, b and c: the
 * owned fields of a struct in one statement. */
void free_all(void *const *ptrs, size_t n);
/* Room for one more element at the end of the growable array a of n
 * elements (a moves): a = xrealloc(a, (n + 1) * sizeof *a). */
#define XGROW(a, n) ((a) = xrealloc((a), (size_t)((n) + 1) * sizeof *(a)))
/* -1, 0 or 1 as a is below, equal to (or unordered with) or above b: what a
 * qsort comparison returns, for numbers of any type. */
#define CMP_NUM(a, b) (((a) > (b)) - ((a) < (b)))
#define FREE_ALL(...)                                                                        \
    free_all((void *const[]){__VA_ARGS__}, sizeof((void *const[]){__VA_ARGS__}) / sizeof(void *))

/* A growable NUL-terminated string. */
typedef struct strbuf {
    char *s;
    size_t len, cap;
} strbuf;

void sb_putc(strbuf *b, char c);
void sb_puts(strbuf *b, const char *s);
void sb_putn(strbuf *b, const char *s, size_t n);
/* Appends s as one sh word: single-quoted, a ' written as '\''. */
void sh_quote(strbuf *b, const char *s);
/* What a library module has to tell the user, one line each, for the CLI
 * to print (doc/contributing/architecture.md#architecture); nothing when notes is NULL. */
void notes_printf(strbuf *notes, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *b, const char *fmt, va_list ap);
char *sb_take(strbuf *b); /* returns the string (never NULL), resets b */
void sb_free(strbuf *b);

/* Human-readable sizes and durations: "8.6 GB", "1.2 ms". */
void fmt_bytes(char *out, size_t n, double bytes);
/* "n ns", "n us", "n ms", "n s" (or "XmYYs" from 120 s): see util.c */
const char *seconds_unit(double s, double *scale);
void fmt_seconds(char *out, size_t n, double s);

/* All n bytes to / from a file descriptor, retrying after EINTR and short
 * transfers: 0, or -1 on an error or end of file. */
int fd_write_all(int fd, const void *buf, size_t n);
int fd_read_all(int fd, void *buf, size_t n);

/* A whole file as a NUL-terminated string (*len its size, if len); NULL if
 * it cannot be read: read_file_max with READ_FILE_MAX. */
char *read_file(const char *path, size_t *len);

/* What read_file reads at most: a bound, so that no file makes the runner
 * read until its memory runs out (a sparse file of a terabyte). */
#define READ_FILE_MAX ((size_t)16 << 30)
/* A file the runner reads whole, from a user, a run folder or a cache
 * (doc/results.md#guarantees): opened without blocking (a FIFO never holds
 * the runner) and read only when it is a regular file of at most `max`
 * bytes (a link to /dev/zero is a device, refused).  The text,
 * NUL-terminated and malloc'd, its length in *len (when not NULL); else
 * NULL with errno (EINVAL: not a regular file; EFBIG: longer than max) and,
 * when why is not NULL, the reason ("a FIFO, not a regular file", "larger
 * than 1 MiB", strerror). */
char *read_file_max(const char *path, size_t max, size_t *len, char *why, size_t whylen);

/* The first of `rel` (paths relative to the folder of this executable, e.g.
 * "../lua" for bin/runner) that exists, as a directory when want_dir, else
 * as a readable file.  0 with the path in out, or -1. */
int find_beside_exe(const char *const *rel, int nrel, int want_dir, char *out, size_t len);

/* qsort that accepts an empty (NULL) array: qsort(NULL, 0, ...) is
 * undefined behaviour. */
void xqsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/* [A-Za-z0-9._-]+, not "." or "..": safe as a folder or file name. */
int valid_file_stem(const char *s);

/* Makes text from user code (Lua errors, hook reasons, extra columns) safe
 * to print on a terminal and to store in one CSV line, in place: tabs, CR
 * and LF become spaces; other control characters (C0, DEL, and C1 written
 * in UTF-8 as C2 80..9F) become '?', so no escape sequence survives.
 * Returns s. */
char *sanitize_text(char *s);
/* The same, but line feeds stay: for text of several lines. */
char *sanitize_lines(char *s);

/* Length of the valid UTF-8 sequence at s (RFC 3629: no overlong form, no
 * surrogate, nothing past U+10FFFF): 1 to 4, or 0 where none starts. */
int utf8_len(const unsigned char *s);
/* s as valid UTF-8, malloc'd: each byte that starts no valid sequence
 * becomes U+FFFD, as `runner export` writes them
 * (doc/results.md#exporting-a-run). */
char *utf8_text(const char *s);
/* s (malloc'd, or NULL) as valid UTF-8: s itself when it is, else
 * utf8_text(s), s freed.  For text from a user's program or plugin before it
 * becomes a cell (doc/own-code.md#what-the-runner-guarantees). */
char *utf8_own(char *s);

/* Seconds on CLOCK_MONOTONIC. */
double now_seconds(void);

/* Levenshtein distance, capped for speed; used for "did you mean". */
int edit_distance(const char *a, const char *b);
/* The closest of `cands` (NULL-terminated) to `word`, or NULL if none is close. */
const char *closest_word(const char *word, const char *const *cands);

/* mkdir -p: 0 when the folder exists afterwards. */
int make_dirs(const char *path);
/* Replaces `path` with `data` through a fresh temporary and rename(), so a
 * reader sees the old file or the new one, never half of one. */
int write_file_atomic(const char *path, const char *data, size_t len);
/* DIR/NAME holding text (write_file_atomic): 0, or -1 with "cannot write
 * DIR/NAME: why" in err. */
int write_text_in(const char *dir, const char *name, const char *text, char *err, size_t errlen);

#endif
