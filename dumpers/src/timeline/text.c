/* text.c - assembling the texts a timeline compares, two at a
 * time: whole dump bodies, functions cut out of dumps, module dumps with
 * functions replaced by later versions, final stages.
 *
 * Two text buffers (before and after) are reused from pass to pass and
 * swapped rather than copied: the text after pass k is the text before pass
 * k + 1, so it is read and normalized once.  Two raw buffers hold a dump that
 * functions are cut from, only while a text is assembled from several dumps.
 */
#include <string.h>

#include "timeline/internal.h"

static void text_reset(tl_text *t)
{
    tk_normalize_free(t->norm);
    tk_stage_free(t->stage);
    t->norm = NULL;
    t->stage = NULL;
    t->stage_done = 0;
    g_free(t->line_start);
    t->line_start = NULL;
    t->n_lines = 0;
    t->lines_done = 0;
    t->valid = 0;
    t->cacheable = 0;
    t->serial = 0;
    t->digest = 0;
}

void tl_walker_init(tl_walker *w, const tk_timeline *tl, tk_diags *diags)
{
    memset(w, 0, sizeof *w);
    w->tl = tl;
    w->diags = diags;
}

void tl_walker_clear(tl_walker *w)
{
    for (int s = 0; s < 2; s++) {
        text_reset(&w->side[s]);
        g_free(w->side[s].buf);
        g_free(w->raw[s].buf);
    }
    g_free(w->meta.buf);
    memset(w, 0, sizeof *w);
}

/* Grows *BUF to at least NEED bytes (plus one for a NUL). */
static void reserve(char **buf, size_t *cap, size_t need)
{
    if (need + 1 <= *cap)
        return;
    size_t c = *cap ? *cap : 4096;
    while (c < need + 1)
        c = c * 2 > c ? c * 2 : need + 1;
    *buf = g_realloc(*buf, c);
    *cap = c;
}

static void append(char **buf, size_t *cap, size_t *len, const char *s,
                   size_t n)
{
    reserve(buf, cap, *len + n);
    memcpy(*buf + *len, s, n);
    *len += n;
}

/* Reads the body of dump DUMP of PART into *BUF. */
static int read_dump(tl_walker *w, size_t part, size_t dump, char **buf,
                     size_t *cap, size_t *len)
{
    const tk_passes *p = w->tl->parts[part].passes;
    for (;;) {
        int64_t n = tk_passes_read_into(p, dump, *buf, *cap ? *cap - 1 : 0,
                                        w->diags);
        if (n < 0)
            return -1;
        if ((uint64_t)n < *cap) {
            *len = (size_t)n;
            (*buf)[*len] = '\0';
            return 0;
        }
        reserve(buf, cap, (size_t)n);
    }
}

int tl_same_side(const tk_timeline_side *x, const tk_timeline_side *y)
{
    if (x->kind != y->kind || x->n_pieces != y->n_pieces)
        return 0;
    switch (x->kind) {
    case TK_SIDE_NONE:
        return 1;
    case TK_SIDE_FINAL:
        return x->final == y->final;
    case TK_SIDE_STATE:
    case TK_SIDE_DUMP:
        if (x->part != y->part || x->dump != y->dump)
            return 0;
        break;
    default:
        break;
    }
    for (size_t i = 0; i < x->n_pieces; i++)
        if (x->pieces[i].part != y->pieces[i].part ||
            x->pieces[i].dump != y->pieces[i].dump ||
            strcmp(x->pieces[i].function, y->pieces[i].function) != 0)
            return 0;
    return 1;
}

/* The body of a dump, from whichever buffer already holds it, else read
 * into raw slot SLOT.  Never returns the text of side AVOID. */
static const char *raw_text(tl_walker *w, int slot, int avoid, size_t part,
                            size_t dump, size_t *len)
{
    tk_timeline_side want = {0};
    want.kind = TK_SIDE_DUMP;
    want.part = part;
    want.dump = dump;
    for (int s = 0; s < 2; s++) {
        tl_text *t = &w->side[s];
        if (s != avoid && t->valid && t->cacheable && tl_same_side(&t->key, &want)) {
            *len = t->len;
            return t->buf;
        }
    }
    for (int r = 0; r < 2; r++)
        if (w->raw[r].valid && w->raw[r].part == part && w->raw[r].dump == dump) {
            *len = w->raw[r].len;
            return w->raw[r].buf;
        }
    tl_raw *r = &w->raw[slot];
    r->valid = 0;
    if (read_dump(w, part, dump, &r->buf, &r->cap, &r->len) != 0)
        return NULL;
    r->valid = 1;
    r->part = part;
    r->dump = dump;
    *len = r->len;
    return r->buf;
}

static const char *line_end(const char *p, const char *end)
{
    const char *e = memchr(p, '\n', (size_t)(end - p));
    return e ? e : end;
}

static int starts(const char *p, const char *e, const char *lit)
{
    size_t n = strlen(lit);
    return (size_t)(e - p) >= n && memcmp(p, lit, n) == 0;
}

static int label_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$' ||
           c == '-';
}

/* The function a line opens, or 0: LLVM "define ... @name(", MIR "# Machine
 * code for function name:". */
static int opens_function(tk_ir_dialect dialect, const char *p, const char *e,
                          const char **name, size_t *name_len)
{
    if (dialect == TK_IR_MIR) {
        if (!starts(p, e, "# Machine code for function "))
            return 0;
        const char *q = p + 28, *r = q;
        while (r < e && *r != ':')
            r++;
        *name = q;
        *name_len = (size_t)(r - q);
        return 1;
    }
    if (!starts(p, e, "define "))
        return 0;
    const char *at = memchr(p, '@', (size_t)(e - p));
    if (!at)
        return 0;
    const char *q = at + 1, *r;
    if (q < e && *q == '"') {
        r = ++q;
        while (r < e && *r != '"') {
            if (*r == '\\' && r + 1 < e)
                r++;
            r++;
        }
    } else {
        r = q;
        while (r < e && label_char((unsigned char)*r))
            r++;
    }
    *name = q;
    *name_len = (size_t)(r - q);
    return 1;
}

static int closes_function(tk_ir_dialect dialect, const char *p, const char *e)
{
    if (e > p && e[-1] == '\r')
        e--;
    if (dialect == TK_IR_MIR)
        return starts(p, e, "# End machine code for function ");
    return e - p == 1 && *p == '}';
}

/* From the line opening a function at P, the end of its last line. */
static const char *function_end(tk_ir_dialect dialect, const char *p,
                                const char *end)
{
    const char *e = line_end(p, end);
    p = e < end ? e + 1 : end;
    while (p < end) {
        e = line_end(p, end);
        const char *next = e < end ? e + 1 : end;
        if (closes_function(dialect, p, e))
            return next;
        p = next;
    }
    return end;
}

int tl_find_function(tk_ir_dialect dialect, const char *text, size_t len,
                     const char *name, size_t *start, size_t *end_out)
{
    const char *p = text, *end = text + len;
    size_t want = strlen(name);
    while (p < end) {
        const char *e = line_end(p, end);
        const char *nm;
        size_t nl;
        if (opens_function(dialect, p, e, &nm, &nl) && nl == want &&
            memcmp(nm, name, nl) == 0) {
            *start = (size_t)(p - text);
            *end_out = (size_t)(function_end(dialect, p, end) - text);
            return 0;
        }
        p = e < end ? e + 1 : end;
    }
    return -1;
}

/* Appends function NAME of TEXT to *BUF; a missing one adds nothing. */
static void append_function(tk_ir_dialect dialect, const char *text,
                            size_t len, const char *name, char **buf,
                            size_t *cap, size_t *blen)
{
    size_t s, e;
    if (tl_find_function(dialect, text, len, name, &s, &e) != 0)
        return;
    append(buf, cap, blen, text + s, e - s);
    if (e > s && text[e - 1] != '\n')
        append(buf, cap, blen, "\n", 1);
}

static int text_functions(tl_walker *w, int s, const tk_timeline_side *side,
                          tk_ir_dialect dialect)
{
    tl_text *t = &w->side[s];
    t->len = 0;
    if (side->n_pieces == 1) {
        /* The common case, a function dump: read it where it goes and cut
         * the function in place. */
        const tk_timeline_piece *pc = &side->pieces[0];
        size_t len;
        const char *src = NULL;
        for (int o = 0; o < 2 && !src; o++) {
            const tl_text *x = &w->side[o];
            if (o != s && x->valid && x->cacheable && x->key.kind == TK_SIDE_DUMP &&
                x->key.part == pc->part && x->key.dump == pc->dump) {
                src = x->buf;
                len = x->len;
            }
        }
        if (src) {
            append_function(dialect, src, len, pc->function, &t->buf, &t->cap, &t->len);
            return 0;
        }
        if (read_dump(w, pc->part, pc->dump, &t->buf, &t->cap, &t->len) != 0)
            return -1;
        size_t a, b;
        if (tl_find_function(dialect, t->buf, t->len, pc->function, &a, &b) != 0) {
            t->len = 0;
            return 0;
        }
        memmove(t->buf, t->buf + a, b - a);
        t->len = b - a;
        if (t->len && t->buf[t->len - 1] != '\n')
            append(&t->buf, &t->cap, &t->len, "\n", 1);
        return 0;
    }
    for (size_t i = 0; i < side->n_pieces; i++) {
        const tk_timeline_piece *pc = &side->pieces[i];
        size_t len;
        const char *src = raw_text(w, 0, s, pc->part, pc->dump, &len);
        if (!src)
            return -1;
        append_function(dialect, src, len, pc->function, &t->buf, &t->cap, &t->len);
    }
    return 0;
}

static const tk_timeline_piece *piece_named(const tk_timeline_side *side,
                                            const char *name, size_t len)
{
    for (size_t i = 0; i < side->n_pieces; i++)
        if (strlen(side->pieces[i].function) == len &&
            memcmp(side->pieces[i].function, name, len) == 0)
            return &side->pieces[i];
    return NULL;
}

static int text_state(tl_walker *w, int s, const tk_timeline_side *side,
                      tk_ir_dialect dialect)
{
    tl_text *t = &w->side[s];
    size_t blen;
    const char *base = raw_text(w, 0, s, side->part, side->dump, &blen);
    if (!base)
        return -1;
    t->len = 0;
    const char *p = base, *end = base + blen;
    while (p < end) {
        const char *e = line_end(p, end);
        const char *next = e < end ? e + 1 : end;
        const char *nm;
        size_t nl;
        const tk_timeline_piece *pc;
        if (opens_function(dialect, p, e, &nm, &nl) &&
            (pc = piece_named(side, nm, nl)) != NULL) {
            size_t len;
            /* Slot 1: slot 0 may hold the base, which is still being read. */
            const char *src = raw_text(w, 1, s, pc->part, pc->dump, &len);
            if (!src)
                return -1;
            append_function(dialect, src, len, pc->function, &t->buf, &t->cap, &t->len);
            next = function_end(dialect, p, end);
        } else {
            append(&t->buf, &t->cap, &t->len, p, (size_t)(next - p));
        }
        p = next;
    }
    return 0;
}

static int text_final(tl_walker *w, int s, const tk_timeline_side *side)
{
    tl_text *t = &w->side[s];
    const tk_kernel *k = w->tl->kernel;
    const tk_stage *st = k ? tk_kernel_stage(k, side->final) : NULL;
    t->len = 0;
    if (!st) {
        tk_diags_add(w->diags, TK_DIAG_ERROR, w->tl->kernel_name, 0,
                     "the kernel has no %s stage", tk_stage_kind_name(side->final));
        return -1;
    }
    for (uint32_t l = 1; l <= tk_stage_line_count(st); l++) {
        size_t len;
        const char *line = tk_stage_line(st, l, &len);
        append(&t->buf, &t->cap, &t->len, line, len);
        append(&t->buf, &t->cap, &t->len, "\n", 1);
    }
    return 0;
}

/* Assembles SIDE into text S (not normalized yet). */
static int assemble(tl_walker *w, int s, const tk_timeline_side *side,
                    tk_ir_dialect dialect)
{
    tl_text *t = &w->side[s];
    text_reset(t);
    int rc = 0;
    switch (side->kind) {
    case TK_SIDE_DUMP: {
        const tl_text *o = &w->side[!s];
        if (o->valid && o->cacheable && tl_same_side(&o->key, side)) {
            t->len = 0;
            append(&t->buf, &t->cap, &t->len, o->buf, o->len);
        } else {
            rc = read_dump(w, side->part, side->dump, &t->buf, &t->cap, &t->len);
        }
        break;
    }
    case TK_SIDE_FUNCTIONS:
        rc = text_functions(w, s, side, dialect);
        break;
    case TK_SIDE_STATE:
        rc = text_state(w, s, side, dialect);
        break;
    case TK_SIDE_FINAL:
        rc = text_final(w, s, side);
        break;
    default:
        rc = -1;
        break;
    }
    if (rc != 0)
        return -1;
    reserve(&t->buf, &t->cap, t->len);
    t->buf[t->len] = '\0';
    t->key = *side;
    t->dialect = dialect;
    return 0;
}

/* Normalizes the text assembled in S; it is then valid. */
static int normalize(tl_walker *w, int s)
{
    tl_text *t = &w->side[s];
    t->norm = tk_normalize_new(t->dialect, t->buf, t->len);
    if (!t->norm) {
        tk_diags_add(w->diags, TK_DIAG_ERROR, w->tl->kernel_name, 0,
                     "a text of %zu bytes is too large to compare", t->len);
        return -1;
    }
    t->valid = 1;
    t->cacheable = 1;
    t->serial = ++w->next_serial;
    t->digest = 0;
    return 0;
}

static int materialize(tl_walker *w, int s, const tk_timeline_side *side,
                       tk_ir_dialect dialect)
{
    if (assemble(w, s, side, dialect) != 0)
        return -1;
    return normalize(w, s);
}

/* Makes side B hold side A's text and normalization under the key AFTER
 * (the two texts are the same), leaving A empty. */
static void alias_to_after(tl_walker *w, const tk_timeline_side *after)
{
    tl_text tmp = w->side[0];
    w->side[0] = w->side[1];
    w->side[1] = tmp;
    w->side[1].key = *after;
    text_reset(&w->side[0]);
}

/* The dump a side's text is all of: a whole dump, or the one function of a
 * dump that shows only that function; NULL otherwise. */
static const tk_pass_dump *whole_text_of(const tk_timeline *tl,
                                         const tk_timeline_side *x)
{
    if (x->kind == TK_SIDE_DUMP)
        return tl_dump(tl, x->part, x->dump);
    if (x->kind != TK_SIDE_FUNCTIONS || x->n_pieces != 1)
        return NULL;
    const tk_pass_dump *d = tl_dump(tl, x->pieces[0].part, x->pieces[0].dump);
    if (!d || d->n_functions != 1 || d->scope_kind == TK_PASS_SCOPE_MODULE ||
        d->when == TK_PASS_AT_START)
        return NULL;
    return d;
}

/* Whether two sides have the same text by the index's digests (equal
 * digests and lengths: the same lines, blank lines aside, which
 * normalization drops anyway), so that nothing needs reading. */
static int same_digests(const tk_pass_dump *a, const tk_pass_dump *b)
{
    return a && b && a->body_len == b->body_len && a->digest.exact == b->digest.exact &&
           a->digest.noloc == b->digest.noloc;
}

/* Two texts put together from dumps (a module with functions replaced, or
 * several functions) are the same when they are put together the same way
 * from dumps that are the same by their digests, piece by piece. */
static int same_pieces_text(const tk_timeline *tl, const tk_timeline_side *x,
                            const tk_timeline_side *y)
{
    if (x->n_pieces != y->n_pieces || x->n_pieces == 0)
        return 0;
    if (x->kind == TK_SIDE_STATE &&
        !(x->part == y->part && x->dump == y->dump) &&
        !same_digests(tl_dump(tl, x->part, x->dump), tl_dump(tl, y->part, y->dump)))
        return 0;
    for (size_t i = 0; i < x->n_pieces; i++) {
        const tk_timeline_piece *a = &x->pieces[i], *b = &y->pieces[i];
        if (strcmp(a->function, b->function) != 0)
            return 0;
        if (!(a->part == b->part && a->dump == b->dump) &&
            !same_digests(tl_dump(tl, a->part, a->dump), tl_dump(tl, b->part, b->dump)))
            return 0;
    }
    return 1;
}

static int same_dump_text(const tk_timeline *tl, const tk_timeline_side *x,
                          const tk_timeline_side *y)
{
    if (x->kind != y->kind)
        return 0;
    if (same_digests(whole_text_of(tl, x), whole_text_of(tl, y)))
        return 1;
    /* Whole units (TK_TIMELINE_WHOLE_UNITS): most passes leave them as
     * they are. */
    return (x->kind == TK_SIDE_STATE || x->kind == TK_SIDE_FUNCTIONS) &&
           (tl->flags & TK_TIMELINE_WHOLE_UNITS) && same_pieces_text(tl, x, y);
}

static int holds(const tl_text *t, const tk_timeline_side *side,
                 tk_ir_dialect dialect)
{
    return t->valid && t->cacheable && t->dialect == dialect &&
           tl_same_side(&t->key, side);
}

/* Function names of a FUNCTIONS side that the other side should be cut to. */
static int has_name(const tk_timeline_side *side, const char *name)
{
    for (size_t i = 0; i < side->n_pieces; i++)
        if (strcmp(side->pieces[i].function, name) == 0)
            return 1;
    return 0;
}

/* Keeps only the functions NAMES of side S's text (in NAMES' order, those
 * of them present), and normalizes it again. */
static void restrict_to(tl_walker *w, int s, const tk_timeline_side *names,
                        const tk_timeline_side *also)
{
    tl_text *t = &w->side[s];
    tl_raw *r = &w->raw[1];
    r->valid = 0;
    r->len = 0;
    append(&r->buf, &r->cap, &r->len, t->buf, t->len);
    t->len = 0;
    for (size_t i = 0; i < names->n_pieces; i++)
        if (!also || has_name(also, names->pieces[i].function))
            append_function(t->dialect, r->buf, r->len, names->pieces[i].function,
                            &t->buf, &t->cap, &t->len);
    reserve(&t->buf, &t->cap, t->len);
    t->buf[t->len] = '\0';
    tk_normalize_free(t->norm);
    tk_stage_free(t->stage);
    t->stage = NULL;
    t->stage_done = 0;
    g_free(t->line_start);
    t->line_start = NULL;
    t->lines_done = 0;
    t->norm = tk_normalize_new(t->dialect, t->buf, t->len);
    t->cacheable = 0;
    t->serial = ++w->next_serial;
    t->digest = 0;
}

static int same_names(const tk_timeline_side *x, const tk_timeline_side *y)
{
    if (x->n_pieces != y->n_pieces)
        return 0;
    for (size_t i = 0; i < x->n_pieces; i++)
        if (strcmp(x->pieces[i].function, y->pieces[i].function) != 0)
            return 0;
    return 1;
}

static int same_names(const tk_timeline_side *x, const tk_timeline_side *y);

int tl_walker_load(tl_walker *w, const tk_timeline_side *before,
                   const tk_timeline_side *after, tk_ir_dialect dialect)
{
    if (!holds(&w->side[0], before, dialect)) {
        if (holds(&w->side[1], before, dialect)) {
            tl_text tmp = w->side[0];
            w->side[0] = w->side[1];
            w->side[1] = tmp;
        } else if (materialize(w, 0, before, dialect) != 0) {
            return -1;
        }
    }
    int fa = before->kind == TK_SIDE_FUNCTIONS, fb = after->kind == TK_SIDE_FUNCTIONS;
    if (!holds(&w->side[1], after, dialect)) {
        /* A pass that changed nothing (most of them): its after text is
         * its before text; reuse that normalization instead of making a
         * second one.  Whole dumps are known equal from the index. */
        int plain = (before->kind == TK_SIDE_DUMP && after->kind == TK_SIDE_DUMP) ||
                    (fa && fb && same_names(before, after)) ||
                    (before->kind == TK_SIDE_STATE && after->kind == TK_SIDE_STATE &&
                     same_names(before, after));
        if (w->reuse_equal && plain && same_dump_text(w->tl, before, after)) {
            alias_to_after(w, after);
            return 1;
        }
        if (assemble(w, 1, after, dialect) != 0)
            return -1;
        /* Whole units: a module dump and the module with a function
         * replaced are often the same bytes too. */
        int units = (w->tl->flags & TK_TIMELINE_WHOLE_UNITS) &&
                    (before->kind == TK_SIDE_DUMP || before->kind == TK_SIDE_STATE) &&
                    (after->kind == TK_SIDE_DUMP || after->kind == TK_SIDE_STATE);
        if (w->reuse_equal && (plain || units) && w->side[1].len == w->side[0].len &&
            memcmp(w->side[1].buf, w->side[0].buf, w->side[0].len) == 0) {
            alias_to_after(w, after);
            return 1;
        }
        if (normalize(w, 1) != 0)
            return -1;
    }
    if (fa && !fb) {
        restrict_to(w, 1, before, NULL);
    } else if (fb && !fa) {
        restrict_to(w, 0, after, NULL);
    } else if (fa && fb && !same_names(before, after)) {
        restrict_to(w, 0, before, after);
        restrict_to(w, 1, after, before);
    }
    if (!w->side[0].norm || !w->side[1].norm)
        return -1;
    return 0;
}

int tl_walker_load_one(tl_walker *w, const tk_timeline_side *side,
                       tk_ir_dialect dialect)
{
    if (holds(&w->side[1], side, dialect))
        return 0;
    if (holds(&w->side[0], side, dialect)) {
        tl_text tmp = w->side[0];
        w->side[0] = w->side[1];
        w->side[1] = tmp;
        return 0;
    }
    return materialize(w, 1, side, dialect);
}

uint64_t tl_walker_digest(tl_walker *w, int s)
{
    tl_text *t = &w->side[s];
    if (!t->norm)
        return 0;
    if (!t->digest)
        t->digest = tk_normalize_digest(t->norm);
    return t->digest;
}

const size_t *tl_walker_lines(tl_walker *w, int s, uint32_t *n)
{
    tl_text *t = &w->side[s];
    if (!t->lines_done) {
        /* As text_buf splits: at "\n", a last line without one counts. */
        const char *b = t->buf ? t->buf : "";
        size_t len = t->len, k = 0;
        uint32_t lines = 0;
        for (const char *p = b; (p = memchr(p, '\n', (size_t)(b + len - p))); p++)
            lines++;
        if (len && b[len - 1] != '\n')
            lines++;
        t->line_start = g_renew(size_t, t->line_start, (size_t)lines + 1);
        size_t off = 0;
        while (k < lines) {
            t->line_start[k++] = off;
            const char *e = memchr(b + off, '\n', len - off);
            off = e ? (size_t)(e - b) + 1 : len;
        }
        t->line_start[lines] = len;
        t->n_lines = lines;
        t->lines_done = 1;
    }
    *n = t->n_lines;
    return t->line_start;
}

/* Whether TEXT has a line starting with '#' (an attribute alias or a #loc). */
static int has_alias_lines(const char *text, size_t len)
{
    if (len && text[0] == '#')
        return 1;
    return len > 1 && memmem(text, len, "\n#", 2) != NULL;
}

int tl_walker_alias_styles_differ(const tl_walker *w)
{
    return has_alias_lines(w->side[0].buf, w->side[0].len) !=
           has_alias_lines(w->side[1].buf, w->side[1].len);
}

char *tl_walker_steal(tl_walker *w, int s, size_t *len)
{
    tl_text *t = &w->side[s];
    char *buf = t->buf;
    *len = t->len;
    if (!buf)
        buf = g_strdup("");
    text_reset(t);
    t->buf = NULL;
    t->cap = t->len = 0;
    return buf;
}

/* The debug metadata lines ("!..." at column 0) of module dump PART/DUMP,
 * kept in W->meta. */
static const char *meta_lines(tl_walker *w, size_t part, size_t dump,
                              size_t *len)
{
    tl_raw *m = &w->meta;
    if (!(m->valid && m->part == part && m->dump == dump)) {
        m->valid = 0;
        if (read_dump(w, part, dump, &m->buf, &m->cap, &m->len) != 0)
            return NULL;
        /* Keep the metadata lines, compacted in place. */
        char *p = m->buf, *end = m->buf + m->len, *out = m->buf;
        while (p < end) {
            char *e = memchr(p, '\n', (size_t)(end - p));
            char *next = e ? e + 1 : end;
            if (*p == '!') {
                memmove(out, p, (size_t)(next - p));
                out += next - p;
                if (!e)
                    *out++ = '\n';
            }
            p = next;
        }
        m->len = (size_t)(out - m->buf);
        m->valid = 1;
        m->part = part;
        m->dump = dump;
    }
    *len = m->len;
    return m->buf;
}

char *tl_walker_meta_for(tl_walker *w, int s, size_t *len)
{
    const tl_text *t = &w->side[s];
    const tk_timeline_side *k = &t->key;
    size_t part = TK_TL_NONE, dump = TK_TL_NONE;
    *len = 0;
    if (t->dialect != TK_IR_LLVM)
        return NULL;
    if (k->kind == TK_SIDE_FUNCTIONS) {
        part = k->meta_part;
        dump = k->meta_dump;
    } else if (!t->cacheable &&
               (k->kind == TK_SIDE_DUMP || k->kind == TK_SIDE_STATE)) {
        /* A module cut down to some functions: its own metadata. */
        part = k->part;
        dump = k->dump;
    }
    if (part == TK_TL_NONE)
        return NULL;
    const char *m = meta_lines(w, part, dump, len);
    return m ? g_memdup2(m, *len) : NULL;
}

/* Passes a stage reader's diagnostics on, at the lines of the dump file
 * when the text is one dump's body. */
static void forward_diags(tl_walker *w, const tk_timeline_side *key,
                          const tk_diags *from)
{
    const tk_pass_dump *d = key->kind == TK_SIDE_DUMP
                                ? tl_dump(w->tl, key->part, key->dump)
                                : NULL;
    for (size_t i = 0; i < tk_diags_count(from); i++) {
        const tk_diag *g = tk_diags_get(from, i);
        if (d && g->line)
            tk_diags_add(w->diags, g->severity,
                         tk_passes_path(w->tl->parts[key->part].passes),
                         d->header_line + g->line, "%s", g->message);
        else
            tk_diags_add(w->diags, g->severity, g->file, g->line, "%s", g->message);
    }
}

tk_stage *tl_walker_bind(tl_walker *w, int s, tk_stage_kind kind,
                         tk_loctab *tab)
{
    tl_text *t = &w->side[s];
    if (t->stage_done)
        return t->stage;
    t->stage_done = 1;
    if (kind == TK_STAGE_UNKNOWN || !t->valid)
        return NULL;
    char *name = tk_timeline_side_describe(w->tl, &t->key);
    tk_diags *local = tk_diags_new();
    size_t mlen;
    char *meta = tl_walker_meta_for(w, s, &mlen);
    if (meta) {
        size_t len = t->len;
        append(&t->buf, &t->cap, &len, "\n", 1);
        append(&t->buf, &t->cap, &len, meta, mlen);
        t->stage = tk_stage_parse(kind, name, t->buf, len, tab, local);
        g_free(meta);
    } else {
        t->stage = tk_stage_parse(kind, name, t->buf, t->len, tab, local);
    }
    forward_diags(w, &t->key, local);
    tk_diags_free(local);
    g_free(name);
    return t->stage;
}
