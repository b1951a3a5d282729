/* text.c - reading a file into memory and indexing its lines. */
#include "util/text.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tkdump/tk_input_file.h"
#include "util/scan.h"

#define BINARY_PROBE (64 * 1024)

int text_looks_binary(const char *data, size_t len)
{
    return memchr(data, '\0', len < BINARY_PROBE ? len : BINARY_PROBE) != NULL;
}

/* Counts lines with memchr, which is vectorized in glibc: this pass runs at
 * memory speed and sizes the index exactly, so it is filled without
 * reallocation. */
/* Makes T's line records, once the load's budget of lines allows them
 * (a short file of newlines is millions of records).  Returns 0, or -1 with
 * an error naming T. */
static int index_lines(text_buf *t, tk_diags *diags)
{
    const char *p = t->data, *end = t->data + t->len;
    uint32_t n = 0;
    for (const char *q; p < end && (q = memchr(p, '\n', (size_t)(end - p)));
         p = q + 1)
        n++;
    if (p < end)
        n++; /* a last line with no newline */
    char *why = NULL;
    if (tk_input_budget_charge(TK_INPUT_BUDGET_LINES, n, &why) != 0) {
        tk_diags_add(diags, TK_DIAG_ERROR, t->name ? t->name : "", 0,
                     "%u lines not indexed: %s", n, why);
        g_free(why);
        return -1;
    }
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
    return 0;
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
    if (index_lines(t, diags) != 0) {
        text_clear(t);
        return -1;
    }
    return 0;
}

int text_read(text_buf *t, const char *path, tk_diags *diags)
{
    memset(t, 0, sizeof *t);
    /* Opened without blocking, a regular file only, sized before it is
     * read: a stage file may come from a stranger's bundle. */
    size_t len = 0;
    char *why = NULL;
    char *buf = tk_input_file_read(path, TK_INPUT_FILE_STAGE, &len, &why);
    if (!buf) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                     "cannot read this stage file: %s", why);
        g_free(why);
        return -1;
    }
    if (len > TEXT_MAX_BYTES) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                     "file too large (%zu bytes; at most 4 GiB is read)", len);
        g_free(buf);
        return -1;
    }
    if (text_looks_binary(buf, len)) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                     "binary data (a NUL byte), not a text dump");
        g_free(buf);
        return -1;
    }
    t->data = buf;
    t->len = len;
    t->name = g_strdup(path);
    if (index_lines(t, diags) != 0) {
        text_clear(t);
        return -1;
    }
    return 0;
}

ssize_t text_read_head(const char *path, char *buf, size_t cap)
{
    /* Any kind without a limit: only the head is read. */
    int fd = tk_input_file_open(path, TK_INPUT_FILE_PASS_DUMP, NULL, NULL);
    if (fd < 0)
        return -1;
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
