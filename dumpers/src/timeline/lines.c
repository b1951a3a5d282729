/* lines.c - line records of texts, and their bytes read back: a block
 * cache for single lines, a bounded buffer for streaming ranges, the
 * normalization and the location readers fed from records (lines.h). */
#include <string.h>

#include "read/readers.h"
#include "timeline/lines.h"
#include "tkdump/tk_lines.h"

/* A block read for one line also holds its neighbours. */
#define BLOCK ((size_t)256 << 10)
/* What a stream reads at a time (a longer line grows the buffer). */
#define STREAM ((size_t)1 << 20)

static int starts(const char *s, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    return n >= k && memcmp(s, lit, k) == 0;
}

unsigned tl_line_flags(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    switch (s[0]) {
    case 'd':
        return starts(s, n, "define ") ? TL_LF_DEFINE : 0;
    case '}':
        return n == 1 ? TL_LF_BRACE : 0;
    case '!':
        return TL_LF_META;
    case '#':
        if (starts(s, n, "# Machine code for function "))
            return TL_LF_HASH | TL_LF_MIR_OPEN;
        if (starts(s, n, "# End machine code for function "))
            return TL_LF_HASH | TL_LF_MIR_CLOSE;
        return TL_LF_HASH;
    default:
        return 0;
    }
}

void tl_reader_clear(tl_reader *r)
{
    g_free(r->buf);
    if (r->held)
        g_bytes_unref(r->held);
    memset(r, 0, sizeof *r);
}

/* ---- bodies kept in memory ------------------------------------------------- */

#define RESIDENT_SLOTS 8

struct tl_resident {
    struct {
        GBytes *bytes; /* NULL: a free slot */
        uint16_t src;
        uint64_t off;  /* the file offset of its first byte */
        uint64_t used; /* CLOCK when last asked for */
    } e[RESIDENT_SLOTS];
    uint64_t clock;
    uint64_t total; /* bytes held */
};

tl_resident *tl_resident_new(void)
{
    return g_new0(tl_resident, 1);
}

static void resident_drop(tl_resident *c, int i)
{
    c->total -= g_bytes_get_size(c->e[i].bytes);
    g_bytes_unref(c->e[i].bytes);
    c->e[i].bytes = NULL;
}

void tl_resident_free(tl_resident *c)
{
    if (!c)
        return;
    for (int i = 0; i < RESIDENT_SLOTS; i++)
        if (c->e[i].bytes)
            resident_drop(c, i);
    g_free(c);
}

/* The kept body holding bytes [OFF, OFF + LEN) of SRC, borrowed, with the
 * file offset of its first byte in *BASE; NULL for none. */
static GBytes *resident_find(tl_resident *c, uint16_t src, uint64_t off, uint64_t len,
                             uint64_t *base)
{
    for (int i = 0; i < RESIDENT_SLOTS; i++) {
        if (!c->e[i].bytes || c->e[i].src != src || off < c->e[i].off ||
            off + len > c->e[i].off + g_bytes_get_size(c->e[i].bytes))
            continue;
        c->e[i].used = ++c->clock;
        *base = c->e[i].off;
        return c->e[i].bytes;
    }
    return NULL;
}

/* Keeps B (taken) as the bytes at OFF of SRC, dropping the least recently
 * used bodies until it fits. */
static void resident_add(tl_resident *c, uint16_t src, uint64_t off, GBytes *b)
{
    uint64_t size = g_bytes_get_size(b);
    for (;;) {
        int lru = -1, free_slot = -1;
        for (int i = 0; i < RESIDENT_SLOTS; i++) {
            if (!c->e[i].bytes)
                free_slot = i;
            else if (lru < 0 || c->e[i].used < c->e[lru].used)
                lru = i;
        }
        if (free_slot >= 0 && c->total + size <= TL_RESIDENT_MAX) {
            c->e[free_slot].bytes = b;
            c->e[free_slot].src = src;
            c->e[free_slot].off = off;
            c->e[free_slot].used = ++c->clock;
            c->total += size;
            return;
        }
        if (lru < 0) { /* cannot happen: SIZE <= TL_RESIDENT_MAX */
            g_bytes_unref(b);
            return;
        }
        resident_drop(c, lru);
    }
}

static const tk_passes *part_of(const tl_srcs *s, uint16_t src)
{
    return src < s->n_parts ? s->parts[src].passes : NULL;
}

/* Reads up to GET bytes at OFF of P into BUF: how many, or -1 when the
 * file could not be read or ends before NEED of them (it changed since it
 * was indexed), with an error in DIAGS. */
static int64_t read_at_least(const tk_passes *p, uint64_t off, char *buf, size_t get,
                             size_t need, tk_diags *diags)
{
    int64_t n = tk_passes_read_at(p, off, buf, get, diags);
    if (n >= 0 && (uint64_t)n < need) {
        tk_diags_add(diags, TK_DIAG_ERROR, tk_passes_path(p), 0,
                     "the file has changed since it was indexed (it ends before byte %llu)",
                     (unsigned long long)(off + need));
        return -1;
    }
    return n;
}

static const char *read_line(tl_reader *r, const tl_srcs *s, const tl_line *l, size_t max,
                             size_t *len, tk_diags *diags, int ahead)
{
    size_t want = l->len;
    if (l->flags & TL_LF_CUT && want > TL_LINE_MAX)
        want = TL_LINE_MAX;
    if (max && want > max)
        want = max;
    *len = want;
    if (l->src == TL_SRC_MEM) {
        if (!s->mem || l->off + want > s->mem_len)
            return NULL;
        return s->mem + l->off;
    }
    if (l->src == TL_SRC_STAGE) {
        size_t n;
        const char *t = s->stage ? tk_stage_line(s->stage, (uint32_t)l->off, &n) : NULL;
        if (!t)
            return NULL;
        if (want > n)
            *len = n;
        return t;
    }
    const tk_passes *p = part_of(s, l->src);
    if (!p)
        return NULL;
    uint64_t base;
    GBytes *kept = s->res ? resident_find(s->res, l->src, l->off, want, &base) : NULL;
    if (kept) {
        if (r->held != kept) {
            if (r->held)
                g_bytes_unref(r->held);
            r->held = g_bytes_ref(kept);
        }
        return (const char *)g_bytes_get_data(kept, NULL) + (l->off - base);
    }
    if (r->valid && r->src == l->src && l->off >= r->off &&
        l->off + want <= r->off + r->len)
        return r->buf + (l->off - r->off);
    /* Read a block from the line on: the lines after it are usually asked
     * for next (unless only this line is wanted: a function's name). */
    size_t get = want > BLOCK || !ahead ? want : BLOCK;
    if (get > r->cap) {
        g_free(r->buf);
        r->buf = g_malloc(get);
        r->cap = get;
    }
    r->valid = 0;
    int64_t n = read_at_least(p, l->off, r->buf, get, want, diags);
    if (n < 0)
        return NULL;
    r->valid = 1;
    r->src = l->src;
    r->off = l->off;
    r->len = (size_t)n;
    return r->buf;
}

const char *tl_reader_line(tl_reader *r, const tl_srcs *s, const tl_line *l,
                           size_t max, size_t *len, tk_diags *diags)
{
    return read_line(r, s, l, max, len, diags, 1);
}

const char *tl_reader_peek(tl_reader *r, const tl_srcs *s, const tl_line *l,
                           size_t max, size_t *len, tk_diags *diags)
{
    return read_line(r, s, l, max, len, diags, 0);
}

/* ---- streaming a range ------------------------------------------------------- */

static uint64_t cut_hash(const char *s, size_t n, uint64_t full)
{
    return tk_diff_hash(s, n) ^ (full * 0x9e3779b97f4a7c15ull);
}

/* Gives the line at S (N bytes before its "\n", at OFF) to FN. */
static int emit(const char *s, size_t n, uint64_t off, uint16_t src, tl_line_fn fn,
                void *user)
{
    n = tk_lines_trim(s, n);
    tl_line rec = {off, tk_diff_hash(s, n), (uint32_t)n, src,
                   (uint16_t)tl_line_flags(s, n)};
    return fn(user, &rec, s);
}

/* tl_stream_range() of a body kept in S->res, read whole the first time.
 * Its lines are all shorter than TL_LINE_MAX: none is cut. */
static int stream_kept(const tl_srcs *s, const tk_passes *p, uint16_t part, uint64_t off,
                       uint64_t len, tl_line_fn fn, void *user, tk_diags *diags)
{
    uint64_t base;
    GBytes *b = resident_find(s->res, part, off, len, &base);
    if (b) {
        g_bytes_ref(b);
    } else {
        char *mem = g_malloc(len);
        if (read_at_least(p, off, mem, (size_t)len, (size_t)len, diags) < 0) {
            g_free(mem);
            return -1;
        }
        b = g_bytes_new_take(mem, len);
        base = off;
        resident_add(s->res, part, off, g_bytes_ref(b));
    }
    /* FN may make other bodies resident, dropping this one: B is held. */
    const char *q = (const char *)g_bytes_get_data(b, NULL) + (off - base), *e = q + len;
    int rc = 0;
    while (q < e && rc == 0) {
        const char *nl = memchr(q, '\n', (size_t)(e - q));
        const char *end = nl ? nl : e;
        rc = emit(q, (size_t)(end - q), off, part, fn, user);
        off += (uint64_t)(end - q) + 1;
        q = nl ? nl + 1 : e;
    }
    g_bytes_unref(b);
    return rc;
}

int tl_stream_range(const tl_srcs *s, uint16_t part, uint64_t off, uint64_t len,
                    char **bufp, size_t *capp, tl_line_fn fn, void *user,
                    tk_diags *diags)
{
    const tk_passes *p = part_of(s, part);
    if (!p)
        return -1;
    if (s->res && len > 0 && len <= TL_RESIDENT_BODY_MAX)
        return stream_kept(s, p, part, off, len, fn, user, diags);
    if (*capp < STREAM) {
        g_free(*bufp);
        *bufp = g_malloc(STREAM);
        *capp = STREAM;
    }
    uint64_t end = off + len;
    uint64_t at = off;    /* file offset of buf[0] */
    size_t have = 0;      /* bytes in buf */
    uint64_t next = off;  /* file offset to read next */
    /* A line longer than TL_LINE_MAX: its start is given, the rest skipped. */
    int skipping = 0;
    while (next < end || have > 0) {
        if (next < end && have < *capp) {
            size_t room = *capp - have;
            uint64_t want = end - next < room ? end - next : room;
            int64_t n = read_at_least(p, next, *bufp + have, (size_t)want, (size_t)want, diags);
            if (n < 0)
                return -1;
            have += (size_t)n;
            next += (uint64_t)n;
        }
        char *b = *bufp, *q = b, *e = b + have;
        for (;;) {
            char *nl = memchr(q, '\n', (size_t)(e - q));
            if (!nl)
                break;
            if (skipping) {
                skipping = 0;
            } else {
                int rc = emit(q, (size_t)(nl - q), at + (uint64_t)(q - b), part, fn, user);
                if (rc)
                    return rc;
            }
            q = nl + 1;
        }
        size_t used = (size_t)(q - b);
        if (next >= end) {
            /* The last line, without "\n". */
            if (q < e && !skipping) {
                int rc = emit(q, (size_t)(e - q), at + used, part, fn, user);
                if (rc)
                    return rc;
            }
            return 0;
        }
        if (used > 0) {
            memmove(b, q, have - used);
            have -= used;
            at += used;
            continue;
        }
        /* No line end in a full buffer: a long line. */
        if (skipping) {
            at += have;
            have = 0;
            continue;
        }
        if (*capp < TL_LINE_MAX) {
            size_t cap = *capp * 2 < TL_LINE_MAX ? *capp * 2 : TL_LINE_MAX;
            *bufp = g_realloc(*bufp, cap);
            *capp = cap;
            continue;
        }
        /* Longer than TL_LINE_MAX: give its start, marked cut, with its
         * whole length, found by reading on. */
        uint64_t line_at = at;
        uint64_t full = have;
        uint64_t scan = next;
        char probe[64 << 10];
        for (;;) {
            if (scan >= end)
                break;
            uint64_t want = end - scan < sizeof probe ? end - scan : sizeof probe;
            int64_t n = tk_passes_read_at(p, scan, probe, (size_t)want, diags);
            if (n <= 0)
                return -1;
            char *nl = memchr(probe, '\n', (size_t)n);
            if (nl) {
                full += (uint64_t)(nl - probe);
                break;
            }
            full += (uint64_t)n;
            scan += (uint64_t)n;
        }
        tl_line rec = {line_at, cut_hash(b, have, full),
                       full > UINT32_MAX ? UINT32_MAX : (uint32_t)full, part,
                       (uint16_t)(tl_line_flags(b, have) | TL_LF_CUT)};
        int rc = fn(user, &rec, b);
        if (rc)
            return rc;
        tk_diags_add(diags, TK_DIAG_WARNING, tk_passes_path(p), 0,
                     "a line of %llu bytes at byte %llu: only its first %zu MB "
                     "are compared and shown",
                     (unsigned long long)full, (unsigned long long)line_at,
                     TL_LINE_MAX >> 20);
        skipping = 1;
        at += have;
        have = 0;
    }
    return 0;
}

void tl_lines_of_memory(GArray *out, const char *text, size_t len, uint64_t base)
{
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        size_t n = (size_t)(e - p);
        n = tk_lines_trim(p, n);
        tl_line rec = {base + (uint64_t)(p - text), tk_diff_hash(p, n),
                       n > UINT32_MAX ? UINT32_MAX : (uint32_t)n, TL_SRC_MEM,
                       (uint16_t)tl_line_flags(p, n)};
        g_array_append_val(out, rec);
        p = nl ? nl + 1 : end;
    }
}

void tl_lines_of_stage(GArray *out, const tk_stage *stage)
{
    uint32_t n = tk_stage_line_count(stage);
    for (uint32_t l = 1; l <= n; l++) {
        size_t len;
        const char *t = tk_stage_line(stage, l, &len);
        tl_line rec = {l, tk_diff_hash(t, len), (uint32_t)len, TL_SRC_STAGE,
                       (uint16_t)tl_line_flags(t, len)};
        g_array_append_val(out, rec);
    }
}

tk_normalize *tl_normalize_lines(const GArray *lines, const tl_srcs *s, tl_reader *r,
                                 tk_ir_dialect dialect, const char *name,
                                 tk_diags *diags)
{
    return tl_normalize_lines_flags(lines, s, r, dialect, name, diags, 0);
}

tk_normalize *tl_normalize_lines_flags(const GArray *lines, const tl_srcs *s, tl_reader *r,
                                       tk_ir_dialect dialect, const char *name,
                                       tk_diags *diags, unsigned flags)
{
    tk_normalize_builder *nb = tk_normalize_builder_new(dialect,
                                                        TK_NORMALIZE_HASHES_ONLY | flags);
    for (guint i = 0; i < lines->len; i++) {
        const tl_line *l = &g_array_index(lines, tl_line, i);
        size_t len;
        const char *t = tl_reader_line(r, s, l, 0, &len, diags);
        if (!t) {
            tk_normalize_builder_free(nb);
            return NULL;
        }
        tk_normalize_builder_add(nb, t, len);
    }
    tk_normalize *n = tk_normalize_builder_finish(nb);
    if (!n)
        tk_diags_add(diags, TK_DIAG_ERROR, name, 0,
                     "a text of %u lines is too large to compare", lines->len);
    return n;
}

int tl_lines_same(const GArray *a, const GArray *b)
{
    if (a->len != b->len)
        return 0;
    for (guint i = 0; i < a->len; i++) {
        const tl_line *x = &g_array_index(a, tl_line, i), *y = &g_array_index(b, tl_line, i);
        if (x->len != y->len || x->hash != y->hash)
            return 0;
    }
    return 1;
}

/* ---- the location readers fed from records ---------------------------------- */

static int feed_each(const read_lines *self, uint32_t first, uint32_t last,
                     read_line_fn fn, void *user)
{
    const tl_feed *f = self->impl;
    uint32_t n_text = f->lines->len;
    for (uint32_t l = first; l <= last && l <= self->n_lines; l++) {
        const tl_line *rec = NULL;
        if (l <= n_text)
            rec = &g_array_index(f->lines, tl_line, l - 1);
        else if (l > n_text + 1)
            rec = &g_array_index(f->meta, tl_line, l - n_text - 2);
        size_t len = 0;
        const char *t = "";
        if (rec) {
            t = tl_reader_line(f->r, f->s, rec, 0, &len, f->diags);
            if (!t) {
                t = "";
                len = 0;
            }
        }
        int rc = fn(user, l, t, len);
        if (rc)
            return rc;
    }
    return 0;
}

void tl_feed_init(tl_feed *f, const GArray *lines, const GArray *meta, const tl_srcs *s,
                  tl_reader *r, const char *name, tk_diags *diags)
{
    f->lines = lines;
    f->meta = meta && meta->len ? meta : NULL;
    f->s = s;
    f->r = r;
    f->diags = diags;
    uint64_t bytes = 0;
    for (guint i = 0; i < lines->len; i++)
        bytes += g_array_index(lines, tl_line, i).len + 1;
    uint32_t n = lines->len;
    if (f->meta) {
        n += 1 + f->meta->len;
        for (guint i = 0; i < f->meta->len; i++)
            bytes += g_array_index(f->meta, tl_line, i).len + 1;
    }
    f->rl.name = name;
    f->rl.n_lines = n;
    f->rl.n_bytes = bytes;
    f->rl.each = feed_each;
    f->rl.impl = f;
}

void tl_read_locations(tk_stage_kind kind, tl_feed *f, tk_loctab *tab, read_linemap *map,
                       tk_diags *diags)
{
    read_locs_of_lines(kind, &f->rl, tab, map, diags);
}
