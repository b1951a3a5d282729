/* read.c - a built index read back: one dump's body or any byte range,
 * checked against the file as it was indexed, and the index freed. */
#include "passes/internal.h"
#include "tkdump/tk_input_file.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void tk_passes_free(tk_passes *p)
{
    if (!p)
        return;
    passes_gz_free(p->gz);
    if (p->fd >= 0)
        close(p->fd);
    g_free(p->path);
    g_array_free(p->dumps, TRUE);
    g_array_free(p->func_first, TRUE);
    g_ptr_array_free(p->funcs, TRUE);
    g_array_free(p->others, TRUE);
    g_string_chunk_free(p->strings);
    if (p->interned)
        g_hash_table_destroy(p->interned);
    if (p->scratch)
        g_string_free(p->scratch, TRUE);
    g_array_free(p->seqs, TRUE);
    g_free(p->seq_dumps);
    g_free(p->body_ok);
    tk_passes_free(p->retired);
    g_free(p);
}

const char *tk_pass_level_name(tk_pass_level level)
{
    switch (level) {
    case TK_PASS_LEVEL_TTIR:
        return "ttir";
    case TK_PASS_LEVEL_TTGIR:
        return "ttgir";
    case TK_PASS_LEVEL_LLVM_MLIR:
        return "llvm-dialect";
    case TK_PASS_LEVEL_LLVM_IR:
        return "llvm-ir";
    case TK_PASS_LEVEL_CODEGEN:
        return "codegen-ir";
    case TK_PASS_LEVEL_MACHINE:
        return "machine";
    default:
        return "unknown";
    }
}

/* Reads LEN bytes at OFF into BUF, checking first that the file still holds
 * them. */
static int read_at(const tk_passes *p, uint64_t off, uint64_t len, char *buf,
                   tk_diags *diags)
{
    struct stat st;
    if (p->gz) {
        if (fstat(p->fd, &st) != 0 || (uint64_t)st.st_size != p->file_size ||
            off + len > p->size) {
            tk_diags_add(diags, TK_DIAG_ERROR, p->path, 0,
                         "the file has changed since it was indexed");
            return -1;
        }
        for (uint64_t done = 0; done < len;) {
            size_t want = len - done > ((size_t)1 << 30) ? (size_t)1 << 30 : (size_t)(len - done);
            int64_t r = passes_gz_pread(p->gz, off + done, buf + done, want);
            if (r <= 0) {
                tk_diags_add(diags, TK_DIAG_ERROR, p->path, 0,
                             "cannot read the text at byte %llu: %s",
                             (unsigned long long)(off + done),
                             r < 0 ? "the compressed data cannot be read" : "end of text");
                return -1;
            }
            done += (uint64_t)r;
        }
        return 0;
    }
    if (fstat(p->fd, &st) != 0 || (uint64_t)st.st_size < off + len) {
        tk_diags_add(diags, TK_DIAG_ERROR, p->path, 0,
                     "the file has changed since it was indexed (it is "
                     "shorter than the dump at byte %llu)",
                     (unsigned long long)off);
        return -1;
    }
    uint64_t done = 0;
    while (done < len) {
        ssize_t r = pread(p->fd, buf + done, (size_t)(len - done),
                          (off_t)(off + done));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            tk_diags_add(diags, TK_DIAG_ERROR, p->path, 0,
                         "cannot read at byte %llu: %s",
                         (unsigned long long)(off + done),
                         r < 0 ? g_strerror(errno) : "end of file");
            return -1;
        }
        done += (uint64_t)r;
    }
    return 0;
}

int64_t tk_passes_read_at(const tk_passes *p, uint64_t offset, char *buf, size_t len,
                          tk_diags *diags)
{
    if (offset >= p->size || len == 0)
        return 0;
    uint64_t n = p->size - offset < len ? p->size - offset : len;
    if (read_at(p, offset, n, buf, diags) != 0)
        return -1;
    return (int64_t)n;
}

/* The most bytes of a dump file read into memory at once (a body; the
 * index itself streams). */
#define PASSES_READ_WHOLE_MAX ((uint64_t)512 << 20)

char *tk_passes_read_range(const tk_passes *p, uint64_t offset, uint64_t len,
                           tk_diags *diags)
{
    if (len >= (uint64_t)G_MAXSIZE) {
        tk_diags_add(diags, TK_DIAG_ERROR, p->path, 0, "range too large");
        return NULL;
    }
    /* A body is read whole: it counts against the load's budget of dump
     * text before anything is allocated. */
    char *why = NULL;
    if (len > PASSES_READ_WHOLE_MAX)
        why = g_strdup("over the 512 MiB a dump body read whole may have "
                       "(the largest in real captures: a few hundred MB)");
    else if (tk_input_budget_charge(TK_INPUT_BUDGET_STREAM_BYTES, len, &why) == 0)
        why = NULL;
    if (why) {
        tk_diags_add(diags, TK_DIAG_ERROR, p->path, 0,
                     "%" G_GUINT64_FORMAT " bytes at offset %" G_GUINT64_FORMAT
                     " not read: %s",
                     len, offset, why);
        g_free(why);
        return NULL;
    }
    char *buf = g_malloc((size_t)len + 1);
    if (read_at(p, offset, len, buf, diags) != 0) {
        g_free(buf);
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

/* Whether dump I's body, just read as BODY (LEN bytes), may be handed out:
 * from a stored index it is first checked (stored_check.c); when that
 * fails, the text is indexed instead (a warning naming the file) and the
 * caller reads dump I again from that.  1: hand it out; 0: read again;
 * -1: neither (an error in DIAGS). */
static int body_trusted(const tk_passes *p, size_t i, const char *body, size_t len,
                        tk_diags *diags)
{
    char *why = NULL;
    if (passes_stored_check_body(p, i, body, len, &why))
        return 1;
    int rc = passes_stored_fallback(p, why, diags);
    g_free(why);
    if (rc != 0)
        tk_diags_add(diags, TK_DIAG_ERROR, p->path, 0, "its text cannot be indexed");
    else if (i >= p->dumps->len)
        tk_diags_add(diags, TK_DIAG_ERROR, p->path, 0,
                     "no dump %zu in the index made from its text", i + 1);
    else
        return 0;
    return -1;
}

int tk_passes_is_stored(const tk_passes *p)
{
    return p && p->stored;
}

int tk_passes_check_body(const tk_passes *p, size_t i, const char *body, size_t len,
                         tk_diags *diags)
{
    return p->stored ? body_trusted(p, i, body, len, diags) : 1;
}

int tk_passes_check_dump(const tk_passes *p, size_t i, tk_diags *diags)
{
    if (!p->stored)
        return 1;
    const tk_pass_dump *d = tk_passes_get(p, i);
    if (!d)
        return 1;
    char *s = tk_passes_read_range(p, d->body_offset, d->body_len, diags);
    if (!s)
        return -1;
    int rc = body_trusted(p, i, s, (size_t)d->body_len, diags);
    g_free(s);
    return rc;
}

char *tk_passes_read(const tk_passes *p, size_t i, size_t *len,
                     tk_diags *diags)
{
    for (;;) {
        const tk_pass_dump *d = tk_passes_get(p, i);
        if (!d) {
            tk_diags_add(diags, TK_DIAG_ERROR, p->path, 0, "no dump %zu", i);
            return NULL;
        }
        uint64_t blen = d->body_len;
        char *s = tk_passes_read_range(p, d->body_offset, blen, diags);
        if (!s)
            return NULL;
        int ok = p->stored ? body_trusted(p, i, s, (size_t)blen, diags) : 1;
        if (ok == 1) {
            if (len)
                *len = (size_t)blen;
            return s;
        }
        g_free(s);
        if (ok < 0)
            return NULL;
    }
}

int64_t tk_passes_read_into(const tk_passes *p, size_t i, char *buf,
                            size_t cap, tk_diags *diags)
{
    for (;;) {
        const tk_pass_dump *d = tk_passes_get(p, i);
        if (!d) {
            tk_diags_add(diags, TK_DIAG_ERROR, p->path, 0, "no dump %zu", i);
            return -1;
        }
        if (d->body_len > cap)
            return (int64_t)d->body_len;
        if (read_at(p, d->body_offset, d->body_len, buf, diags) != 0)
            return -1;
        int ok = p->stored ? body_trusted(p, i, buf, (size_t)d->body_len, diags) : 1;
        if (ok == 1)
            return (int64_t)d->body_len;
        if (ok < 0)
            return -1;
    }
}
