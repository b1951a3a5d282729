/* index.c - one streaming pass over a pass dump file (reads of single
 * dumps on demand: read.c).
 *
 * The file is read front to back through a window of PASSES_WINDOW bytes;
 * lines are found with memchr and classified by their first bytes, so the
 * cost is linear and memory is the window plus the entries.  A line longer
 * than the window is classified by its first window's worth and hashed in
 * pieces.  Each line is one of: a header (starts a dump), a body line (the
 * body's grammar accepts it), blank, or other text (ends the dump; kept as an
 * "other" range: index_builder.c).  A big file is indexed in two halves at
 * once (index_halves.c).
 */
#include "passes/index_builder.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PASSES_WINDOW ((size_t)4 << 20)
#define READ_STEP ((size_t)256 << 10)

/* Reads up to N bytes of SRC at OFF (passes_source). */
static ssize_t read_some(const passes_source *src, char *buf, size_t n, uint64_t off)
{
    if (off >= src->limit)
        return 0;
    if (n > src->limit - off)
        n = (size_t)(src->limit - off);
    if (src->pipe)
        return passes_gz_pipe_read(src->pipe, buf, n);
    if (src->gz)
        return src->seq ? passes_gz_next(src->gz, buf, n)
                        : (ssize_t)passes_gz_pread(src->gz, off, buf, n);
    for (;;) {
        ssize_t r = src->seq ? read(src->fd, buf, n)
                             : pread(src->fd, buf, n, (off_t)off);
        if (r >= 0 || errno != EINTR)
            return r;
    }
}

/* Charges the lines scanned since the last call and BYTES of text to the
 * load's budget; once it runs out, says where the index stops and returns
 * -1 (what was indexed before stays usable: a dump cut there ends there). */
static int charge_budget(passes_builder *b, uint64_t bytes)
{
    if (b->over_budget)
        return -1;
    char *why = NULL;
    uint64_t lines = b->line - b->charged;
    if (b->again && !(b->stop_line && b->line >= b->stop_line))
        return 0;
    if (b->again)
        why = g_strdup("over the load's budget, as on its first reading");
    else if (passes_charge(b, TK_INPUT_BUDGET_LINES, lines, &why) == 0 &&
             passes_charge(b, TK_INPUT_BUDGET_STREAM_BYTES, bytes, &why) == 0) {
        b->charged = b->line;
        return 0;
    }
    tk_diags_add(b->diags, TK_DIAG_WARNING, b->name, b->line,
                 "not indexed past this line: %s; the dumps before it stay "
                 "usable",
                 why);
    if (b->in_dump)
        b->cur.flags |= TK_PASS_CUT; /* not whole: said so where shown */
    g_free(why);
    b->over_budget = 1;
    b->stop_line = b->line;
    return -1;
}

/* Feeds every line of SRC from offset START (a line start) to the builder.
 * Returns 0, or -1 on a read error (reported). */
int passes_scan(passes_builder *b, const passes_source *src, uint64_t start, size_t window,
                char *buf)
{
    size_t have = 0, pos = 0;
    uint64_t base = start; /* file offset of buf[0] */
    int eof = 0, rc = 0;
    for (;;) {
        while (pos < have) {
            char *s = buf + pos;
            char *nl = memchr(s, '\n', have - pos);
            if (!nl)
                break;
            size_t n = (size_t)(nl - s);
            passes_line_begin(b, base + pos, s, n, 0);
            passes_line_end(b, base + pos + n + 1);
            pos += n + 1;
        }
        if (charge_budget(b, (uint64_t)pos) != 0)
            break;
        if (eof) {
            if (pos < have) {
                passes_line_begin(b, base + pos, buf + pos, have - pos, 0);
                passes_line_end(b, base + have);
            }
            break;
        }
        if (pos > 0) {
            memmove(buf, buf + pos, have - pos);
            base += pos;
            have -= pos;
            pos = 0;
        }
        if (have == window) {
            /* A line longer than the window: classify it by its first
             * window, then hash the rest as it streams by. */
            passes_line_begin(b, base, buf, have, 1);
            for (;;) {
                base += have;
                have = 0;
                ssize_t r = read_some(src, buf, window, base);
                if (r < 0) {
                    rc = -1;
                    break;
                }
                if (r == 0) {
                    eof = 1;
                    passes_line_end(b, base);
                    break;
                }
                have = (size_t)r;
                if (memchr(buf, '\0', have))
                    b->nul_until = base + have;
                char *nl = memchr(buf, '\n', have);
                if (nl) {
                    passes_line_more(b, buf, (size_t)(nl - buf));
                    pos = (size_t)(nl - buf) + 1;
                    passes_line_end(b, base + pos);
                    break;
                }
                passes_line_more(b, buf, have);
            }
            if (rc < 0)
                break;
            continue;
        }
        /* Read in steps, so that only as much of the window is touched
         * (made resident) as the longest line needs. */
        size_t step = window - have < READ_STEP ? window - have : READ_STEP;
        ssize_t r = read_some(src, buf + have, step, base + have);
        if (r < 0) {
            rc = -1;
            break;
        }
        if (r == 0) {
            eof = 1;
            continue;
        }
        if (memchr(buf + have, '\0', (size_t)r))
            b->nul_until = base + have + (size_t)r;
        have += (size_t)r;
    }
    if (rc < 0)
        tk_diags_add(b->diags, TK_DIAG_ERROR, b->name, b->line + 1,
                     "cannot read past line %llu: %s",
                     (unsigned long long)b->line, g_strerror(errno));
    return rc;
}

tk_passes *passes_new(const char *path)
{
    tk_passes *p = g_new0(tk_passes, 1);
    p->path = g_strdup(path);
    p->fd = -1;
    p->dumps = g_array_new(FALSE, FALSE, sizeof(tk_pass_dump));
    p->func_first = g_array_new(FALSE, FALSE, sizeof(guint));
    p->funcs = g_ptr_array_new();
    p->others = g_array_new(FALSE, FALSE, sizeof(tk_pass_range));
    p->strings = g_string_chunk_new(64 * 1024);
    p->interned = g_hash_table_new(g_str_hash, g_str_equal);
    p->scratch = g_string_new(NULL);
    p->seqs = g_array_new(FALSE, FALSE, sizeof(tk_pass_seq));
    return p;
}

/* The index P is complete (from the text or a stored index): lets go of
 * what only building needed and points each dump at its functions, now
 * that the arrays have stopped growing. */
void passes_index_seal(tk_passes *p)
{
    g_string_free(p->scratch, TRUE);
    p->scratch = NULL;
    g_hash_table_destroy(p->interned);
    p->interned = NULL;
    for (guint i = 0; i < p->dumps->len; i++) {
        tk_pass_dump *d = &g_array_index(p->dumps, tk_pass_dump, i);
        guint first = g_array_index(p->func_first, guint, i);
        d->functions = d->n_functions
                           ? (const char *const *)&p->funcs->pdata[first]
                           : NULL;
    }
}

static tk_passes *index_file(const char *path, size_t window, int one_scan,
                             tk_diags *diags)
{
    if (window < 64)
        window = 64;
    /* A regular file only, opened without blocking: a FIFO named like a
     * dump must not hang the index (tk_input_file.h). */
    char *why = NULL;
    int fd = tk_input_file_open(path, TK_INPUT_FILE_PASS_DUMP, NULL, &why);
    if (fd < 0) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                     "cannot read this pass dump file: %s", why);
        g_free(why);
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0, "cannot read: %s",
                     g_strerror(errno));
        close(fd);
        return NULL;
    }
    /* No window larger than the file: a bundle's pass dump slices are
     * often a few KB, and a 4 MiB buffer each is memory for nothing.  Every
     * line still fits in it. */
    size_t asked_window = window;
    if ((uint64_t)st.st_size + 1 < window)
        window = MAX((size_t)st.st_size + 1, 64);
#ifdef POSIX_FADV_SEQUENTIAL
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    tk_passes *p = passes_new(path);
    /* A gzip file (a bundle's slices) is read as its text. */
    unsigned char magic[2];
    if (S_ISREG(st.st_mode) && pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f &&
        magic[1] == 0x8b) {
        p->gz = passes_gz_new(fd);
        if (!p->gz) {
            tk_diags_add(diags, TK_DIAG_ERROR, path, 0, "cannot decompress");
            close(fd);
            tk_passes_free(p);
            return NULL;
        }
    } else if (S_ISREG(st.st_mode) && passes_refs_is(fd)) {
        /* A bundle's slice stored as pieces of its shared pool (refs.c). */
        passes_refs *r = passes_refs_open(path, &why);
        if (r) /* the window is sized by the text, not by the small file */
            window = (size_t)MIN((uint64_t)asked_window,
                                 MAX(passes_refs_size(r) + 1, 64));
        if (!r || !(p->gz = passes_gz_new_refs(r))) {
            tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                         "cannot read this dump refs file: %s", why ? why : "");
            g_free(why);
            close(fd);
            tk_passes_free(p);
            return NULL;
        }
    }
    passes_builder b;
    memset(&b, 0, sizeof b);
    b.ix = p;
    b.one_scan = one_scan;
    /* Damage in a gzip file is found at its end (a wrong check sum): its
     * warning goes before what the text read says. */
    tk_diags *scan_diags = p->gz ? tk_diags_new() : diags;
    b.diags = scan_diags;
    b.name = path;
    int rc = passes_scan_file(&b, fd, &st, window);
    p = b.ix;
    if (p->gz) {
        passes_gz_done(p->gz);
        const char *damage = passes_gz_damage(p->gz);
        if (damage && rc == 0)
            tk_diags_add(diags, TK_DIAG_WARNING, path, 0,
                         "%s after %llu bytes of text; the text before that is "
                         "read",
                         damage, (unsigned long long)passes_gz_size(p->gz));
        if (tk_diags_count(scan_diags) < TK_DIAGS_PER_FILE) {
            for (size_t i = 0; i < tk_diags_count(scan_diags); i++) {
                const tk_diag *d = tk_diags_get(scan_diags, i);
                tk_diags_add(diags, d->severity, d->file, d->line, "%s", d->message);
            }
        } else if (rc == 0) {
            /* A capped list cannot be joined to another (what it dropped
             * is only counted): the text is indexed again, by offset. */
            tk_passes *q = passes_new(path);
            q->gz = p->gz;
            p->gz = NULL;
            memcpy(q->charged, p->charged, sizeof q->charged);
            tk_passes_free(p);
            uint64_t stop = b.stop_line;
            memset(&b, 0, sizeof b);
            b.again = 1;
            b.stop_line = stop;
            b.ix = q;
            b.diags = diags;
            b.name = path;
            b.one_scan = one_scan;
            rc = passes_scan_file(&b, fd, &st, window);
            p = b.ix;
        }
        tk_diags_free(scan_diags);
    }
    if (rc < 0) {
        close(fd);
        tk_passes_free(p);
        return NULL;
    }
    p->fd = fd;
    p->file_size = (uint64_t)st.st_size;
    p->size = (uint64_t)st.st_size;
    if (p->gz)
        p->size = passes_gz_size(p->gz);
    p->mtime = (int64_t)st.st_mtime;
    p->n_lines = b.line;
    passes_index_seal(p);
    if (p->dumps->len == 0)
        tk_diags_add(diags, TK_DIAG_NOTE, path, 0,
                     "no pass dump header in this file");
    /* A stderr is full of other text; an MLIR_DUMP_PATH file holds none,
     * so there it is worth a word. */
    int only_mlir = p->dumps->len > 0;
    for (guint i = 0; i < p->dumps->len && only_mlir; i++)
        only_mlir = g_array_index(p->dumps, tk_pass_dump, i).kind ==
                    TK_PASS_MLIR;
    for (guint i = 0; only_mlir && i < p->others->len; i++) {
        const tk_pass_range *r = &g_array_index(p->others, tk_pass_range, i);
        tk_diags_add(diags, TK_DIAG_NOTE, path, r->line,
                     "lines %llu-%llu are not part of any dump; kept aside",
                     (unsigned long long)r->line,
                     (unsigned long long)(r->line + r->n_lines - 1));
    }
    passes_attribute(p);
    return p;
}

tk_passes *passes_index_window(const char *path, size_t window, tk_diags *diags)
{
    return index_file(path, window, 0, diags);
}

tk_passes *passes_index_one_scan(const char *path, tk_diags *diags)
{
    return index_file(path, PASSES_WINDOW, 1, diags);
}

tk_passes *tk_passes_index(const char *path, tk_diags *diags)
{
    return passes_index_window(path, PASSES_WINDOW, diags);
}
