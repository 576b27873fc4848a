/* util.c - see util.h. */
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void oom(size_t n)
{
    fprintf(stderr, "runner: out of memory (allocating %zu bytes)\n", n);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom(n);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        oom(n * size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        oom(n);
    return p;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

void free_all(void *const *ptrs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(ptrs[i]);
}

char *xasprintf(const char *fmt, ...)
{
    strbuf b = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    return sb_take(&b);
}

static void sb_grow(strbuf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1)
        cap *= 2;
    b->s = xrealloc(b->s, cap);
    b->cap = cap;
}

void sb_putn(strbuf *b, const char *s, size_t n)
{
    sb_grow(b, n);
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void sb_putc(strbuf *b, char c)
{
    sb_putn(b, &c, 1);
}

void sh_quote(strbuf *b, const char *s)
{
    sb_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '\'')
            sb_puts(b, "'\\''");
        else
            sb_putc(b, *s);
    }
    sb_putc(b, '\'');
}

void sb_puts(strbuf *b, const char *s)
{
    sb_putn(b, s, strlen(s));
}

void sb_vprintf(strbuf *b, const char *fmt, va_list ap)
{
    /* formatted once into the room the buffer has; a second time only when
     * it did not fit (formatting twice every time was a measurable share of
     * writing results, issue 38) */
    sb_grow(b, 63);
    va_list ap2;
    va_copy(ap2, ap);
    size_t room = b->cap - b->len;
    int n = vsnprintf(b->s + b->len, room, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        b->s[b->len] = '\0';
        return;
    }
    if ((size_t)n >= room) {
        sb_grow(b, (size_t)n);
        vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    }
    b->len += (size_t)n;
}

void notes_printf(strbuf *notes, const char *fmt, ...)
{
    if (!notes)
        return;
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(notes, fmt, ap);
    va_end(ap);
}

void sb_printf(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

char *sb_take(strbuf *b)
{
    char *s = b->s ? b->s : xstrdup("");
    b->s = NULL;
    b->len = b->cap = 0;
    return s;
}

void sb_free(strbuf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

void fmt_bytes(char *out, size_t n, double bytes)
{
    const char *units[] = {"B", "kB", "MB", "GB", "TB", "PB"};
    int u = 0;
    while (bytes >= 1000 && u < 5) {
        bytes /= 1000;
        u++;
    }
    snprintf(out, n, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
}

/* The one unit rule for durations (doc/timing.md#measurement-quality): the unit
 * follows the magnitude, so a value is never printed as "-1031944.5 ns". */
const char *seconds_unit(double s, double *scale)
{
    double a = fabs(s);
    static const char *const unit[] = {"ns", "us", "ms", "s"};
    int u = a == 0 ? 3 : a < 1e-6 ? 0 : a < 1e-3 ? 1 : a < 1 ? 2 : 3;
    *scale = u == 0 ? 1e9 : u == 1 ? 1e6 : u == 2 ? 1e3 : 1;
    return unit[u];
}

void fmt_seconds(char *out, size_t n, double s)
{
    double scale;
    const char *u = seconds_unit(s, &scale);
    if (s != s)
        snprintf(out, n, "-");
    else if (isinf(s))
        snprintf(out, n, "%s", s > 0 ? "inf" : "-inf");
    else if (fabs(s) >= 120) /* a long elapsed time reads better as minutes */
        snprintf(out, n, "%s%dm%02ds", s < 0 ? "-" : "", (int)(fabs(s) / 60),
                 (int)fabs(s) % 60);
    else
        snprintf(out, n, scale == 1e9 ? "%.1f %s" : "%.2f %s", s * scale, u);
}

char *read_file(const char *path, size_t *len)
{
    return read_file_max(path, READ_FILE_MAX, len, NULL, 0);
}

static const char *file_kind(mode_t m)
{
    return S_ISDIR(m) ? "a folder" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a file";
}

/* max as "1 MiB", "16 GiB", or bytes */
static void size_text(char *t, size_t len, size_t max)
{
    if (max >= (1 << 30) && max % (1 << 30) == 0)
        snprintf(t, len, "%zu GiB", max >> 30);
    else if (max >= (1 << 20) && max % (1 << 20) == 0)
        snprintf(t, len, "%zu MiB", max >> 20);
    else
        snprintf(t, len, "%zu bytes", max);
}

char *read_file_max(const char *path, size_t max, size_t *len, char *why, size_t whylen)
{
    char size[32];
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0) {
        int e = errno;
        if (why)
            snprintf(why, whylen, "%s", strerror(e));
        if (fd >= 0)
            close(fd);
        errno = e;
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        if (why)
            snprintf(why, whylen, "%s, not a regular file", file_kind(st.st_mode));
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return NULL;
    }
    strbuf b = {0};
    /* st_size may be 0 (a /proc file): read to the end, max at most */
    for (int too_long = st.st_size > 0 && (unsigned long long)st.st_size > max;;) {
        char buf[1 << 16];
        ssize_t n = too_long ? 0 : read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n > 0 && b.len + (size_t)n > max)
            too_long = 1;
        if (too_long || n < 0) {
            int e = too_long ? EFBIG : errno;
            close(fd);
            sb_free(&b);
            size_text(size, sizeof size, max);
            if (why)
                snprintf(why, whylen, too_long ? "larger than %s" : "%s",
                         too_long ? size : strerror(e));
            errno = e;
            return NULL;
        }
        if (n == 0)
            break;
        sb_putn(&b, buf, (size_t)n);
    }
    close(fd);
    if (len)
        *len = b.len;
    return sb_take(&b);
}

int find_beside_exe(const char *const *rel, int nrel, int want_dir, char *out, size_t len)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    for (int i = 0; i < nrel; i++) {
        struct stat st;
        snprintf(out, len, "%s/%s", exe, rel[i]);
        if (stat(out, &st) == 0 && (want_dir ? S_ISDIR(st.st_mode) : access(out, R_OK) == 0))
            return 0;
    }
    return -1;
}

void xqsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (base && n > 1)
        qsort(base, n, size, cmp);
}

int valid_file_stem(const char *s)
{
    if (!*s || !strcmp(s, ".") || !strcmp(s, "..") || strlen(s) > 128)
        return 0;
    for (; *s; s++)
        if (!(strchr("._-", *s) || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9')))
            return 0;
    return 1;
}

double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 99;
    int row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            int best = diag + cost;
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *closest_word(const char *word, const char *const *cands)
{
    const char *best = NULL;
    int best_d = 99;
    size_t wl = strlen(word);
    for (; *cands; cands++) {
        int d = edit_distance(word, *cands);
        if (d < best_d) {
            best_d = d;
            best = *cands;
        }
    }
    /* close enough: at most a third of the word's letters changed (min 1),
     * or the word is a prefix / extension of the candidate */
    int limit = wl <= 3 ? 1 : (int)(wl + 2) / 3;
    if (best && best_d <= limit)
        return best;
    return NULL;
}

static char *sanitize(char *s, int keep_newlines)
{
    if (!s)
        return s;
    for (unsigned char *p = (unsigned char *)s; *p; p++) {
        if (*p == '\n' && keep_newlines)
            continue;
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
        else if (*p < 0x20 || *p == 0x7f)
            *p = '?';
        else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
            p[0] = p[1] = '?';
            p++;
        }
    }
    return s;
}

char *sanitize_text(char *s)
{
    return sanitize(s, 0);
}

char *sanitize_lines(char *s)
{
    return sanitize(s, 1);
}

int utf8_len(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    int n = s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
            : s[0] >= 0xF0 && s[0] <= 0xF4                                ? 4
                                                                            : 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] > 0x9F) ||
        (s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] > 0x8F))
        return 0;
    return n;
}

char *utf8_text(const char *s)
{
    strbuf b = {0};
    sb_puts(&b, ""); /* "" stays "", not NULL */
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n = utf8_len(p);
        if (n) {
            sb_putn(&b, (const char *)p, (size_t)n);
            p += n;
        } else {
            sb_puts(&b, "\xEF\xBF\xBD");
            p++;
        }
    }
    return sb_take(&b);
}

char *utf8_own(char *s)
{
    if (!s)
        return s;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n = utf8_len(p);
        if (!n) {
            char *u = utf8_text(s);
            free(s);
            return u;
        }
        p += n;
    }
    return s;
}

/* All n bytes read into p, or written from it (EINTR retried): 0, or -1. */
static int fd_all(int fd, char *p, size_t n, int writing)
{
    while (n > 0) {
        ssize_t k = writing ? write(fd, p, n) : read(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

int fd_write_all(int fd, const void *buf, size_t n)
{
    return fd_all(fd, (char *)buf, n, 1); /* write() only reads it */
}

int fd_read_all(int fd, void *buf, size_t n)
{
    return fd_all(fd, buf, n, 0);
}

/* --- files ---------------------------------------------------------------- */

int make_dirs(const char *path)
{
    char *p = xstrdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0777) < 0 && errno != EEXIST) {
            free(p);
            return -1;
        }
        *s = '/';
    }
    int rc = mkdir(p, 0777) < 0 && errno != EEXIST ? -1 : 0;
    free(p);
    return rc;
}

/* see util.h */
int write_file_atomic(const char *path, const char *data, size_t len)
{
    /* a fresh temporary beside the file: O_EXCL | O_NOFOLLOW, so a link or
     * file planted under a guessable name is never written through
     * (doc/results.md#guarantees); rename() then replaces `path` itself, never
     * what a link at `path` points to */
    char *tmp = NULL;
    int fd = -1;
    for (int k = 0; fd < 0 && k < 100; k++) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        free(tmp);
        tmp = xasprintf("%s.tmp%d.%lx", path, (int)getpid(),
                        (unsigned long)(ts.tv_nsec ^ ((long)k << 20) ^ ts.tv_sec));
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int saved = errno;
        free(tmp);
        errno = saved;
        return -1;
    }
    int rc = fd_write_all(fd, data, len);
    if (rc == 0)
        rc = fsync(fd);
    int saved = errno;
    if (close(fd) < 0 && rc == 0) {
        rc = -1;
        saved = errno;
    }
    if (rc == 0 && rename(tmp, path) < 0) {
        rc = -1;
        saved = errno;
    }
    if (rc < 0)
        unlink(tmp);
    free(tmp);
    errno = saved;
    return rc;
}

int write_text_in(const char *dir, const char *name, const char *text, char *err, size_t errlen)
{
    char *p = xasprintf("%s/%s", dir, name);
    int rc = write_file_atomic(p, text, strlen(text));
    if (rc < 0)
        snprintf(err, errlen, "cannot write %s: %s", p, strerror(errno));
    free(p);
    return rc;
}
