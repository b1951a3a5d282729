/* index_halves.c - a big pass dump file indexed as two halves on two
 * threads, and the halves joined into one index as one pass would have
 * made it.  Apart from index.c: only this file knows the file may be cut. */
#include "passes/index_builder.h"
#include "tkdump/tk_lines.h"

#include <string.h>
#include <unistd.h>

/* ---- two halves at once ----------------------------------------------------
 *
 * A big file is indexed as two halves on two threads, cut at a dump header
 * line: a header starts a new dump whatever came before it (the dump or
 * other text before it is finished first, in the same order), so the second
 * half indexes from there exactly as the whole file would, given the number
 * of lines before the cut.  The halves are then joined, the second's strings
 * interned again in the first's table, and its diagnostics put after the
 * first's, so the index and the diagnostics are those of one pass. */

/* Files smaller than this are indexed in one go: a thread is not worth it. */
#define SPLIT_MIN ((uint64_t)16 << 20)
/* How far past the middle a header is looked for, and in what pieces. */
#define SPLIT_SEARCH ((uint64_t)16 << 20)
#define SPLIT_CHUNK ((size_t)1 << 20)

/* Whether the whole line S (N bytes, no "\n") is a header passes_line_begin()
 * would start a dump at, whatever the state. */
static int is_cut_line(const char *s, size_t n)
{
    if (memchr(s, '\0', n))
        return 0;
    n = tk_lines_trim(s, n);
    passes_header h;
    return !passes_is_blank(s, n) && passes_parse_header(s, n, &h);
}

/* The offset of a header line in the second half of the SIZE bytes of FD,
 * near the middle; 0 for none.  A line passes_scan() would take in pieces (no
 * shorter than WINDOW) is never a cut. */
static uint64_t find_cut(int fd, uint64_t size, size_t window)
{
    char *buf = g_malloc(SPLIT_CHUNK);
    uint64_t off = size / 2, cut = 0;
    int at_start = 0; /* OFF is known to be a line start */
    while (!cut && off < size && off < size / 2 + SPLIT_SEARCH) {
        ssize_t r = pread(fd, buf, SPLIT_CHUNK, (off_t)off);
        if (r <= 0)
            break;
        const char *p = buf, *end = buf + r;
        if (!at_start) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            if (!nl)
                break; /* a line of a megabyte: give up */
            p = nl + 1;
            at_start = 1;
        }
        for (;;) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            if (!nl)
                break;
            size_t n = (size_t)(nl - p);
            if (n + 1 <= window && is_cut_line(p, n)) {
                cut = off + (uint64_t)(p - buf);
                break;
            }
            p = nl + 1;
        }
        if (p == buf)
            break; /* no whole line in a chunk */
        off += (uint64_t)(p - buf);
    }
    g_free(buf);
    return cut;
}

typedef struct {
    passes_builder b;
    passes_source src;
    uint64_t cut;
    size_t window;
    char *buf;       /* WINDOW bytes, allocated and freed by the caller's
                        thread, like the first half's */
    int rc;
    tk_input_budget *budget; /* the starting thread's: the load's */
} second_half;

/* Indexes from the cut on, numbering lines from 1 there: the lines before
 * it are known once the first half is done (shift_lines()).  Counting them
 * first meant reading the first half twice. */
static gpointer index_second_half(gpointer data)
{
    second_half *h = data;
    tk_input_budget *before = tk_input_budget_use(h->budget);
    h->rc = passes_scan(&h->b, &h->src, h->cut, h->window, h->buf);
    passes_finish_dump(&h->b);
    passes_finish_other(&h->b);
    tk_input_budget_use(before);
    return NULL;
}

/* Moves the line numbers of Q (indexed from a cut) down by BEFORE, the
 * lines before the cut. */
static void shift_lines(tk_passes *q, uint64_t before)
{
    for (guint i = 0; i < q->dumps->len; i++)
        g_array_index(q->dumps, tk_pass_dump, i).header_line += before;
    for (guint i = 0; i < q->others->len; i++)
        g_array_index(q->others, tk_pass_range, i).line += before;
}

static const char *reintern(tk_passes *p, const char *s)
{
    return passes_intern(p, s, strlen(s));
}

/* Appends the dumps and other text of Q (the second half) to P. */
static void join(tk_passes *p, const tk_passes *q)
{
    for (int i = 0; i < TK_INPUT_BUDGET_COUNT; i++)
        p->charged[i] += q->charged[i];
    guint f0 = p->funcs->len;
    for (guint i = 0; i < q->funcs->len; i++)
        g_ptr_array_add(p->funcs, (gpointer)reintern(p, g_ptr_array_index(q->funcs, i)));
    for (guint i = 0; i < q->func_first->len; i++) {
        guint first = f0 + g_array_index(q->func_first, guint, i);
        g_array_append_val(p->func_first, first);
    }
    for (guint i = 0; i < q->dumps->len; i++) {
        tk_pass_dump d = g_array_index(q->dumps, tk_pass_dump, i);
        d.pass = reintern(p, d.pass);
        d.arg = reintern(p, d.arg);
        d.scope = reintern(p, d.scope);
        d.scope_name = reintern(p, d.scope_name);
        d.kernel = reintern(p, d.kernel);
        d.module_attrs = reintern(p, d.module_attrs);
        g_array_append_val(p->dumps, d);
    }
    g_array_append_vals(p->others, q->others->data, q->others->len);
}

static int scan_whole(passes_builder *b, int fd, const struct stat *st, size_t window)
{
    /* A gzip file is read in order the first time (restart points are
     * recorded as it goes), by offset after that. */
    passes_gz *gz = b->ix->gz;
    passes_source src = {fd, !S_ISREG(st->st_mode) || (gz && passes_gz_in_order(gz)), UINT64_MAX,
                  gz, NULL};
    if (gz && src.seq && S_ISREG(st->st_mode))
        src.pipe = passes_gz_pipe_start(gz); /* NULL: read here */
    char *buf = g_malloc(window);
    int rc = passes_scan(b, &src, 0, window, buf);
    passes_gz_pipe_end(src.pipe);
    g_free(buf);
    passes_finish_dump(b);
    passes_finish_other(b);
    return rc;
}

/* Indexes FD into B (whose index is replaced when it is done again): in
 * two halves when it is big and there are two processors.  Returns passes_scan()'s
 * result; B->line is then the number of lines. */
int passes_scan_file(passes_builder *b, int fd, const struct stat *st, size_t window)
{
    uint64_t size = (uint64_t)st->st_size;
    uint64_t cut = 0;
    if (S_ISREG(st->st_mode) && !b->ix->gz && size >= SPLIT_MIN && !b->one_scan &&
        g_get_num_processors() > 1)
        cut = find_cut(fd, size, window);
    if (cut == 0)
        return scan_whole(b, fd, st, window);

    /* Each half's diagnostics wait in a list of their own. */
    tk_diags *diags = b->diags;
    b->diags = tk_diags_new();
    second_half h;
    memset(&h, 0, sizeof h);
    h.b.ix = passes_new(b->ix->path);
    h.b.diags = tk_diags_new();
    h.b.name = b->name;
    h.src = (passes_source){fd, 0, UINT64_MAX, NULL, NULL};
    h.cut = cut;
    h.window = window;
    h.buf = g_malloc(window);
    h.budget = tk_input_budget_use(NULL);
    tk_input_budget_use(h.budget);
    GThread *t = g_thread_try_new("tkdump-index", index_second_half, &h, NULL);
    if (!t)
        index_second_half(&h);
    passes_source src = {fd, 0, cut, NULL, NULL};
    char *buf = g_malloc(window);
    int rc = passes_scan(b, &src, 0, window, buf);
    g_free(buf);
    passes_finish_dump(b);
    passes_finish_other(b);
    if (t)
        g_thread_join(t);
    g_free(h.buf);
    tk_diags *first = b->diags;
    b->diags = diags;
    /* A capped list cannot be joined to another as if it were one (what it
     * dropped is only counted): a file torn all over, like one that could
     * not be read, is indexed again in one go.  So is one whose second
     * half has anything to say: its messages number lines from the cut
     * (rare: a damaged dump). */
    int ok = rc == 0 && h.rc == 0 && tk_diags_count(first) < TK_DIAGS_PER_FILE &&
             tk_diags_count(h.b.diags) == 0;
    if (ok) {
        shift_lines(h.b.ix, b->line);
        join(b->ix, h.b.ix);
        b->line += h.b.line;
        for (int k = 0; k < 2; k++) {
            const tk_diags *from = k == 0 ? first : h.b.diags;
            for (size_t i = 0; i < tk_diags_count(from); i++) {
                const tk_diag *d = tk_diags_get(from, i);
                tk_diags_add(diags, d->severity, d->file, d->line, "%s",
                             d->message);
            }
        }
    }
    uint64_t half_charged[TK_INPUT_BUDGET_COUNT];
    memcpy(half_charged, h.b.ix->charged, sizeof half_charged);
    tk_passes_free(h.b.ix);
    tk_diags_free(h.b.diags);
    tk_diags_free(first);
    if (ok)
        return 0;
    const char *name = b->name;
    tk_passes *p = passes_new(b->ix->path);
    memcpy(p->charged, b->ix->charged, sizeof p->charged);
    for (int i = 0; i < TK_INPUT_BUDGET_COUNT; i++)
        p->charged[i] += half_charged[i]; /* the second half's too */
    tk_passes_free(b->ix);
    uint64_t stop = b->stop_line;
    memset(b, 0, sizeof *b);
    b->again = 1;
    b->stop_line = stop;
    b->ix = p;
    b->diags = diags;
    b->name = name;
    b->one_scan = 1;
    return scan_whole(b, fd, st, window);
}
