/* words.c - the changed words of a changed line (tk_ir_diff_words()).
 *
 * Each line is cut into IR tokens (tk_ir_diff.h says which), the tokens
 * are handed to the line diff engine as if each were a line (tk_diff()
 * hashes and matches them as it does lines), a run only one side has is
 * slid down while it says the same (slide()), and the tokens outside the
 * equal hunks become byte ranges, merged across blanks.
 */
#include <glib.h>
#include <string.h>

#include "diff/internal.h"
#include "timeline/internal.h"
#include "tkdump/tk_diff.h"
#include "tkdump/tk_ir_diff.h"

/* What a byte is to the cut: one table load (every byte of every changed
 * line is looked at; two calls per byte were a tenth of a word diff). */
enum { B_WORD = 1, B_BLANK = 2, B_SIGIL = 4 };
#define B_ROW10(x) x, x, x, x, x, x, x, x, x, x
static const unsigned char BYTE_CLASS[256] = {
    ['\0'] = B_SIGIL, ['\t'] = B_BLANK, ['\r'] = B_BLANK, [' '] = B_BLANK,
    ['!'] = B_SIGIL, ['#'] = B_SIGIL, ['$'] = B_WORD, ['%'] = B_SIGIL, ['.'] = B_WORD,
    ['0'] = B_ROW10(B_WORD), ['@'] = B_SIGIL, ['^'] = B_SIGIL, ['_'] = B_WORD,
    ['A'] = B_ROW10(B_WORD), B_ROW10(B_WORD), B_WORD, B_WORD, B_WORD, B_WORD, B_WORD, B_WORD,
    ['a'] = B_ROW10(B_WORD), B_ROW10(B_WORD), B_WORD, B_WORD, B_WORD, B_WORD, B_WORD, B_WORD,
};
#undef B_ROW10

static inline gboolean is_word(unsigned char c)
{
    return (BYTE_CLASS[c] & B_WORD) != 0;
}

static inline gboolean is_blank(unsigned char c)
{
    return (BYTE_CLASS[c] & B_BLANK) != 0;
}

/* The length of the token at P (END: the line's end; P < END). */
static size_t token_len(const char *p, const char *end)
{
    const unsigned char *s = (const unsigned char *)p, *e = (const unsigned char *)end;
    const unsigned char *q = s + 1;
    if (is_blank(*s)) {
        while (q < e && is_blank(*q))
            q++;
    } else if ((BYTE_CLASS[*s] & B_SIGIL) /* '\0' too, as strchr("%@#^!", c) said */ &&
               q < e && (is_word(*q) || *q == '-')) {
        while (q < e && (is_word(*q) || *q == '-'))
            q++;
    } else if (is_word(*s)) {
        while (q < e && is_word(*q))
            q++;
    } else if (*s == '"') {
        while (q < e && *q != '"')
            q += (*q == '\\' && q + 1 < e) ? 2 : 1;
        if (q < e)
            q++;
    } else if (*s >= 0xC0) {
        while (q < e && (*q & 0xC0) == 0x80)
            q++;
    }
    return (size_t)(q - s);
}

/* A token's hash for the diff's classes (FNV-1a, mixed): tokens are a
 * few bytes, where tk_diff_hash()'s lanes cost more than the bytes.  Only
 * equal bytes make a class (the diff compares them too), so any hash of
 * the bytes gives the same hunks. */
static uint64_t token_hash(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ull ^ len;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h ^ (h >> 29);
}

/* TEXT's tokens, as diff lines pointing into TEXT (caller frees with
 * g_free); NULL (and *N = 0) past TK_IR_WORDS_MAX_TOKENS.  A token is at
 * least a byte: the array is made once for the most a line can have (a
 * GArray grown per token cost a third of a report's word diffs).  Only the
 * tokens between the common ends are hashed, later (token_hunks()). */
static tk_diff_line *tokens(const char *text, size_t len, uint32_t *n)
{
    size_t cap = MIN(len, (size_t)TK_IR_WORDS_MAX_TOKENS);
    tk_diff_line *t = g_new(tk_diff_line, cap ? cap : 1);
    uint32_t k = 0;
    const char *p = text, *end = text + len;
    while (p < end) {
        if (k >= TK_IR_WORDS_MAX_TOKENS) {
            g_free(t);
            *n = 0;
            return NULL;
        }
        t[k].text = p;
        t[k].len = token_len(p, end);
        p += t[k++].len;
    }
    *n = k;
    return t;
}

/* token_hash() of tokens T[0, N), in a new array (caller g_free()s). */
static uint64_t *token_hashes(const tk_diff_line *t, uint32_t n)
{
    uint64_t *h = g_new(uint64_t, n ? n : 1);
    for (uint32_t i = 0; i < n; i++)
        h[i] = token_hash(t[i].text, t[i].len);
    return h;
}

/* The ranges of one side being built: tokens [t0, t1) changed. */
typedef struct {
    const char *text;
    const tk_diff_line *tok;
    GArray *spans; /* tk_ir_span */
} side;

static void add_range(side *s, uint32_t t0, uint32_t t1)
{
    /* Blanks at the ends are not part of what changed. */
    while (t0 < t1 && is_blank((unsigned char)s->tok[t0].text[0]))
        t0++;
    while (t1 > t0 && is_blank((unsigned char)s->tok[t1 - 1].text[0]))
        t1--;
    if (t0 == t1)
        return;
    uint32_t off = (uint32_t)(s->tok[t0].text - s->text);
    uint32_t end = (uint32_t)(s->tok[t1 - 1].text + s->tok[t1 - 1].len - s->text);
    if (s->spans->len) {
        tk_ir_span *last = &g_array_index(s->spans, tk_ir_span, s->spans->len - 1);
        gboolean blanks = TRUE;
        for (uint32_t i = last->off + last->len; i < off && blanks; i++)
            blanks = is_blank((unsigned char)s->text[i]);
        if (blanks) {
            last->len = end - last->off;
            return;
        }
    }
    tk_ir_span sp = {off, end - off};
    g_array_append_val(s->spans, sp);
}

static gboolean same_token(const tk_diff_line *t, uint32_t i, uint32_t j)
{
    return t[i].len == t[j].len && memcmp(t[i].text, t[j].text, t[i].len) == 0;
}

/* How far the tokens [T0, T1) of one side, only there, slide down over
 * the N equal tokens after them and still say the same: while the first
 * of them is the token after them, the run may as well start one later.
 * A run slid as far as it goes ends where a bracket closes: of
 * "#blocked> -> tensor<..., #blocked1> loc" the diff may give "> ->
 * tensor<..., #blocked1" as added; slid, it is "-> tensor<...,
 * #blocked1>" (git's diff compacts its hunks the same way). */
static uint32_t slide(const tk_diff_line *t, uint32_t t0, uint32_t t1, uint32_t n)
{
    uint32_t k = 0;
    while (k < n && same_token(t, t0 + k, t1 + k))
        k++;
    return k;
}

/* The changed ranges of both sides from the diff's hunks H (N of them). */
static void add_hunks(side *a, side *b, const tk_hunk *h, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (h[i].tag == TK_HUNK_EQUAL)
            continue;
        uint32_t next = i + 1 < n ? h[i + 1].a1 - h[i + 1].a0 : 0; /* equal after */
        uint32_t ka = 0, kb = 0;
        if (h[i].tag == TK_HUNK_DELETE)
            ka = slide(a->tok, h[i].a0, h[i].a1, next);
        else if (h[i].tag == TK_HUNK_INSERT)
            kb = slide(b->tok, h[i].b0, h[i].b1, next);
        add_range(a, h[i].a0 + ka, h[i].a1 + ka);
        add_range(b, h[i].b0 + kb, h[i].b1 + kb);
    }
}

static tk_ir_span *take(GArray *spans, size_t *n)
{
    *n = spans->len;
    if (!spans->len) {
        g_array_free(spans, TRUE);
        return NULL;
    }
    return (tk_ir_span *)g_array_free(spans, FALSE);
}

static gboolean same_pair(const tk_diff_line *x, const tk_diff_line *y)
{
    return x->len == y->len && memcmp(x->text, y->text, x->len) == 0;
}

static void put_hunk(GArray *out, tk_hunk_tag tag, uint32_t a0, uint32_t a1, uint32_t b0,
                     uint32_t b1)
{
    tk_hunk h = {tag, a0, a1, b0, b1};
    g_array_append_val(out, h);
}

/* The hunks of the token diff of TA (NA) and TB (NB), both not empty:
 * what tk_diff_collect() gives for all of them, with its common ends
 * trimmed here first, so that only the tokens between them are hashed
 * and classed (a changed line differs in a word or two of a hundred).
 * The diff trims the same ends itself (tokens of the same bytes are one
 * class), so the middle's hunks are the same; its work bounds are the
 * ones it would take for all the tokens. */
static tk_hunk *token_hunks(const tk_diff_line *ta, uint32_t na, const tk_diff_line *tb,
                            uint32_t nb, size_t *n)
{
    uint32_t p = 0;
    while (p < na && p < nb && same_pair(&ta[p], &tb[p]))
        p++;
    uint32_t ea = na, eb = nb;
    while (ea > p && eb > p && same_pair(&ta[ea - 1], &tb[eb - 1])) {
        ea--;
        eb--;
    }
    GArray *out = g_array_new(FALSE, FALSE, sizeof(tk_hunk));
    if (p)
        put_hunk(out, TK_HUNK_EQUAL, 0, p, 0, p);
    if (ea == p || eb == p) {
        if (ea > p || eb > p)
            put_hunk(out, ea == p ? TK_HUNK_INSERT : eb == p ? TK_HUNK_DELETE : TK_HUNK_REPLACE,
                     p, ea, p, eb);
    } else {
        uint64_t total = (uint64_t)na + nb;
        uint32_t r = 1;
        while ((uint64_t)r * r < total + 3)
            r++;
        tk_diff_opts o = {.algorithm = TK_DIFF_HISTOGRAM, .max_cost = r < 1024 ? 1024 : r,
                          .max_work = 64 * total + (1u << 22)};
        uint64_t *ha = token_hashes(ta + p, ea - p), *hb = token_hashes(tb + p, eb - p);
        tk_diff_input ia = {ta + p, ha, ea - p}, ib = {tb + p, hb, eb - p};
        uint32_t *ca, *cb;
        uint32_t n_classes = diff_classify(&ia, &ib, &ca, &cb);
        g_free(ha);
        g_free(hb);
        size_t nm;
        tk_hunk *m = tl_words_hunks(ca, ea - p, cb, eb - p, n_classes, &o, total, &nm);
        g_free(ca);
        g_free(cb);
        for (size_t i = 0; i < nm; i++) {
            tk_hunk h = m[i];
            h.a0 += p;
            h.a1 += p;
            h.b0 += p;
            h.b1 += p;
            tk_hunk *last = out->len ? &g_array_index(out, tk_hunk, out->len - 1) : NULL;
            if (last && last->tag == TK_HUNK_EQUAL && h.tag == TK_HUNK_EQUAL) {
                last->a1 = h.a1;
                last->b1 = h.b1;
            } else
                g_array_append_val(out, h);
        }
        g_free(m);
    }
    if (ea < na) {
        tk_hunk *last = out->len ? &g_array_index(out, tk_hunk, out->len - 1) : NULL;
        if (last && last->tag == TK_HUNK_EQUAL) {
            last->a1 = na;
            last->b1 = nb;
        } else
            put_hunk(out, TK_HUNK_EQUAL, ea, na, eb, nb);
    }
    *n = out->len;
    return (tk_hunk *)g_array_free(out, FALSE);
}

int tk_ir_diff_words(const char *a, size_t a_len, const char *b, size_t b_len,
                     tk_ir_span **a_spans, size_t *a_n,
                     tk_ir_span **b_spans, size_t *b_n)
{
    *a_spans = *b_spans = NULL;
    *a_n = *b_n = 0;
    if (a_len >= UINT32_MAX || b_len >= UINT32_MAX)
        return -1;
    if (a_len == b_len && memcmp(a, b, a_len) == 0)
        return 0;
    uint32_t na, nb = 0;
    tk_diff_line *ta = tokens(a, a_len, &na);
    tk_diff_line *tb = ta || !a_len ? tokens(b, b_len, &nb) : NULL;
    struct {
        side a, b;
    } w = {{a, ta, g_array_new(FALSE, FALSE, sizeof(tk_ir_span))},
           {b, tb, g_array_new(FALSE, FALSE, sizeof(tk_ir_span))}};
    if ((a_len && !ta) || (b_len && !tb)) {
        /* Too many tokens: each side is one range. */
        tk_ir_span sa = {0, (uint32_t)a_len}, sb = {0, (uint32_t)b_len};
        if (a_len)
            g_array_append_val(w.a.spans, sa);
        if (b_len)
            g_array_append_val(w.b.spans, sb);
    } else if (!na || !nb) {
        add_range(&w.a, 0, na);
        add_range(&w.b, 0, nb);
    } else {
        size_t nh;
        tk_hunk *h = token_hunks(ta, na, tb, nb, &nh);
        add_hunks(&w.a, &w.b, h, nh);
        g_free(h);
    }
    g_free(ta);
    g_free(tb);
    *a_spans = take(w.a.spans, a_n);
    *b_spans = take(w.b.spans, b_n);
    return 0;
}
