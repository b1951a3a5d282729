/* text.c - reading a file into memory and indexing its lines. */
#include "util/text.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/scan.h"

#define BINARY_PROBE (64 * 1024)

int text_looks_binary(const char *data, size_t len)
{
    return memchr(data, '\0', len < BINARY_PROBE ? len : BINARY_PROBE) != NULL;
}

/* Counts lines with memchr, which is vectorized in glibc: this pass runs at
 * memory speed and sizes the index exactly, so it is filled without
 * reallocation. */
static void index_lines(text_buf *t)
{
    const char *p = t->data, *end = t->data + t->len;
    uint32_t n = 0;
    for (const char *q; p < end && (q = memchr(p, '\n', (size_t)(end - p)));
         p = q + 1)
        n++;
    if (p < end)
        n++; /* a last line with no newline */
    t->n_lines = n;
    t->line_start = g_new(uint32_t, (size_t)n + 1);
    p = t->data;
    uint32_t i = 0;
    for (const char *q; p < end && (q = memchr(p, '\n', (size_t)(end - p)));
         p = q + 1)
        t->line_start[i++] = (uint32_t)(p - t->data);
    if (p < end)
        t->line_start[i++] = (uint32_t)(p - t->data);
    /* One past the last line: text_line() takes the difference. */
    t->line_start[n] = (uint32_t)t->len;
}

int text_from_memory(text_buf *t, const char *name, const char *data,
                     size_t len, tk_diags *diags)
{
    memset(t, 0, sizeof *t);
    if (len > TEXT_MAX_BYTES) {
        tk_diags_add(diags, TK_DIAG_ERROR, name, 0,
                     "file too large (%zu bytes; at most 4 GiB is read)", len);
        return -1;
    }
    t->name = g_strdup(name ? name : "");
    t->data = g_malloc(len + 1);
    if (len)
        memcpy(t->data, data, len);
    t->data[len] = '\0';
    t->len = len;
    index_lines(t);
    return 0;
}

int text_read(text_buf *t, const char *path, tk_diags *diags)
{
    memset(t, 0, sizeof *t);
    /* O_NONBLOCK: opening a FIFO must not wait for a writer. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0, "cannot open: %s",
                     g_strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0, "not a regular file");
        close(fd);
        return -1;
    }
    if ((uint64_t)st.st_size > TEXT_MAX_BYTES) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                     "file too large (%lld bytes; at most 4 GiB is read)",
                     (long long)st.st_size);
        close(fd);
        return -1;
    }
    /* Read to EOF rather than trusting st_size: the file may be growing (a
     * capture still running) or be a pipe-like special file. */
    size_t cap = (size_t)st.st_size + 1, len = 0;
    char *buf = g_malloc(cap + 1);
    for (;;) {
        if (len == cap) {
            if (cap >= TEXT_MAX_BYTES) {
                tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                             "file too large (at most 4 GiB is read)");
                g_free(buf);
                close(fd);
                return -1;
            }
            cap = MIN(cap * 2, TEXT_MAX_BYTES);
            buf = g_realloc(buf, cap + 1);
        }
        ssize_t r = read(fd, buf + len, cap - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            tk_diags_add(diags, TK_DIAG_ERROR, path, 0, "read error: %s",
                         g_strerror(errno));
            g_free(buf);
            close(fd);
            return -1;
        }
        if (r == 0)
            break;
        len += (size_t)r;
    }
    close(fd);
    if (text_looks_binary(buf, len)) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                     "binary data (a NUL byte), not a text dump");
        g_free(buf);
        return -1;
    }
    buf[len] = '\0';
    t->data = buf;
    t->len = len;
    t->name = g_strdup(path);
    index_lines(t);
    return 0;
}

ssize_t text_read_head(const char *path, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return -1;
    }
    size_t have = 0;
    while (have < cap) {
        ssize_t r = read(fd, buf + have, cap - have);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) /* EOF, or EAGAIN from a file that would block */
            break;
        have += (size_t)r;
    }
    close(fd);
    return (ssize_t)have;
}

void text_clear(text_buf *t)
{
    g_free(t->data);
    g_free(t->line_start);
    g_free(t->name);
    memset(t, 0, sizeof *t);
}

const char *scan_find_str(const char *p, const char *end, const char *lit)
{
    size_t n = strlen(lit);
    if (n == 0)
        return p;
    while (p < end && (size_t)(end - p) >= n) {
        const char *q = memchr(p, lit[0], (size_t)(end - p) - n + 1);
        if (!q)
            return NULL;
        if (memcmp(q, lit, n) == 0)
            return q;
        p = q + 1;
    }
    return NULL;
}
