/* stored_check.c - a dump of a stored index (stored.c) checked when its
 * body is read, and the index made from the text instead when the check
 * fails.
 *
 * Opening a stored index checks its numbers and every header, but not what
 * the bodies hold (that would inflate them, which the stored index is there
 * to avoid).  So the first time a body is read, its header and body are
 * run through the indexer's own line grammar (index_builder.c), and what it
 * finds (lengths, lines, digests, kernel, functions, level, flags) must be
 * what the stored index says: a bundle may lie, and a wrong digest would
 * show a changed pass as unchanged. */
#include "passes/index_builder.h"

#include <string.h>

/* Indexes the LEN bytes of TEXT (one dump: header, then body) into a
 * scratch index named PATH; NULL when it holds no dump. */
static tk_passes *index_text(const char *path, const char *text, size_t len,
                             uint64_t first_line)
{
    tk_passes *q = passes_new(path);
    tk_diags *quiet = tk_diags_new();
    passes_builder b;
    memset(&b, 0, sizeof b);
    b.ix = q;
    b.diags = quiet;
    b.name = path;
    b.again = 1; /* charged when the slice's text was first read */
    b.line = first_line - 1;
    for (size_t pos = 0; pos < len;) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
        if (memchr(text + pos, '\0', n))
            b.nul_until = pos + n + 1;
        passes_line_begin(&b, pos, text + pos, n, 0);
        pos += n + (nl ? 1 : 0);
        passes_line_end(&b, pos);
    }
    passes_finish_dump(&b);
    passes_finish_other(&b);
    tk_diags_free(quiet);
    q = b.ix;
    for (guint i = 0; i < q->dumps->len; i++) {
        tk_pass_dump *d = &g_array_index(q->dumps, tk_pass_dump, i);
        guint first = g_array_index(q->func_first, guint, i);
        d->functions = d->n_functions ? (const char *const *)&q->funcs->pdata[first] : NULL;
    }
    return q;
}

int passes_stored_check_body(const tk_passes *p, size_t i, const char *body, size_t len,
                             char **why)
{
    *why = NULL;
    if (!p->stored || i >= p->dumps->len)
        return 1;
    tk_passes *mp = (tk_passes *)p;
    g_mutex_lock(&mp->check_lock);
    int done = mp->body_ok && mp->body_ok[i];
    g_mutex_unlock(&mp->check_lock);
    if (done)
        return 1;
    const tk_pass_dump *d = &g_array_index(p->dumps, tk_pass_dump, i);
    uint64_t head = d->body_offset - d->header_offset;
    char *text = g_malloc((size_t)head + len + 1);
    if (passes_gz_pread(p->gz, d->header_offset, text, (size_t)head) != (int64_t)head) {
        g_free(text);
        *why = g_strdup_printf("dump %zu's header cannot be read", i + 1);
        return 0;
    }
    memcpy(text + head, body, len);
    /* The blank line after a body ends it as the next header would. */
    text[head + len] = '\n';
    tk_passes *q = index_text(p->path, text, (size_t)head + len + 1, d->header_line);
    g_free(text);
    const tk_pass_dump *e = q->dumps->len == 1 ? &g_array_index(q->dumps, tk_pass_dump, 0)
                                               : NULL;
    const char *what = NULL;
    if (!e)
        what = "it is not one dump";
    else if (e->body_offset != head || e->body_len != d->body_len ||
             e->body_lines != d->body_lines || e->header_line != d->header_line)
        what = "its length or lines differ";
    else if (e->kind != d->kind || e->status != d->status || e->level != d->level ||
             e->flags != d->flags || e->scope_kind != d->scope_kind ||
             strcmp(e->scope_name, d->scope_name) || strcmp(e->pass, d->pass))
        what = "its kind, status, scope, level or flags differ";
    else if (e->digest.exact != d->digest.exact || e->digest.noloc != d->digest.noloc)
        what = "its content digest differs";
    else if (strcmp(e->kernel, d->kernel) || strcmp(e->module_attrs, d->module_attrs) ||
             e->n_functions != d->n_functions)
        what = "the kernel, module or functions it defines differ";
    for (size_t f = 0; !what && f < d->n_functions; f++)
        if (strcmp(e->functions[f], d->functions[f]))
            what = "the functions it defines differ";
    tk_passes_free(q);
    if (what) {
        *why = g_strdup_printf("dump %zu (line %" G_GUINT64_FORMAT ", pass \"%s\"): %s", i + 1,
                               d->header_line, d->pass, what);
        return 0;
    }
    g_mutex_lock(&mp->check_lock);
    if (!mp->body_ok)
        mp->body_ok = g_new0(guint8, p->dumps->len);
    mp->body_ok[i] = 1;
    g_mutex_unlock(&mp->check_lock);
    return 1;
}

/* The arrays of an index, swapped as one. */
static void swap_contents(tk_passes *a, tk_passes *b)
{
#define SWAP(f)                                                                          \
    do {                                                                                 \
        __typeof__(a->f) t = a->f;                                                       \
        a->f = b->f;                                                                     \
        b->f = t;                                                                        \
    } while (0)
    SWAP(dumps);
    SWAP(func_first);
    SWAP(funcs);
    SWAP(others);
    SWAP(strings);
    SWAP(seqs);
    SWAP(seq_dumps);
    SWAP(n_lines);
#undef SWAP
}

int passes_stored_fallback(const tk_passes *p, const char *why, tk_diags *diags)
{
    tk_passes *mp = (tk_passes *)p;
    g_mutex_lock(&mp->check_lock);
    if (!mp->stored) {
        g_mutex_unlock(&mp->check_lock);
        return 0; /* another reader did it */
    }
    tk_diags_add(diags, TK_DIAG_WARNING, p->path, 0,
                 "its stored index does not match its text (%s); the text is "
                 "indexed instead, and what was shown of it before may be wrong",
                 why);
    tk_diags *quiet = tk_diags_new();
    tk_passes *q = tk_passes_index(p->path, quiet);
    tk_diags_free(quiet);
    int rc = -1;
    if (q) {
        passes_attribute_one_compile(q);
        /* Pointers handed out before stay valid: the old arrays live on in
         * RETIRED until P is freed. */
        swap_contents(mp, q);
        q->retired = mp->retired;
        mp->retired = q;
        mp->stored = 0;
        rc = 0;
    }
    g_mutex_unlock(&mp->check_lock);
    return rc;
}
