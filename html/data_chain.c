/* data_chain.c - chains of pass texts, stored so that the browser can
 * compose the diff of any two passes of a chain (pass_chain.h).  Everything
 * comes from the diffs the timeline build hands out (tk_timeline_step):
 * nothing here normalizes or compares IR (whether two kept lines that the
 * diff paired are the same bytes is tk_ir_diff_kept_equal()'s answer), and
 * a line's text is read back only to be stored: what fits the budget is
 * told from the lines' lengths first. */
#include "data_layouts.h"
#include "data_locs.h"
#include "data_words.h"
#include "pass_budget.h"
#include "pass_chain.h"

struct html_pass_chains {
    html_report *r;
    html_report_kernel *rk;
    int rc;
    /* the chain being collected */
    gboolean open, has_base;
    size_t from, to;
    tk_ir_dialect dialect;
    GArray *over;   /* size_t: loop passes the chain open steps over */
    /* The chain's data file, written in place: {"from": F, "base": ...,
     * "steps": [..., then "to": T} once it closes; handed to the writer
     * thread as it is (a chain is megabytes: no copy).  Steps before the
     * first text (passes that changed no byte, loop passes) wait in LEAD:
     * 0 or 1 (null) each. */
    GString *doc;
    jw dw;
    GByteArray *lead;
    GArray *ranges; /* size_t pairs: FROM, TO of each chain written */
    GArray *of;     /* ptrdiff_t per pass: its chain, -1 */
    /* the text the last pass left is over the budget (pass_budget.h):
     * passes that go on from it cannot be chained */
    gboolean big_text;
    /* what the chain's lines name in the source (data_locs.h), written
     * as its "st" when it closes */
    html_report_locs *locs;
    /* the layouts of its lines (MLIR: TTGIR's #blocked, ...), its "ly" */
    html_report_lays *lays;
};

html_pass_chains *html_pass_chains_new(html_report *r, html_report_kernel *rk, const tk_loctab *tab)
{
    html_pass_chains *c = g_new0(html_pass_chains, 1);
    c->locs = html_report_locs_new(r, tab);
    c->lays = html_report_lays_new();
    c->r = r;
    c->rk = rk;
    c->doc = g_string_new(NULL);
    c->lead = g_byte_array_new();
    c->ranges = g_array_new(FALSE, FALSE, sizeof(size_t));
    c->of = g_array_new(FALSE, FALSE, sizeof(ptrdiff_t));
    c->over = g_array_new(FALSE, FALSE, sizeof(size_t));
    return c;
}

void html_pass_chains_free(html_pass_chains *c)
{
    if (!c)
        return;
    g_string_free(c->doc, TRUE);
    g_byte_array_free(c->lead, TRUE);
    g_array_free(c->ranges, TRUE);
    g_array_free(c->of, TRUE);
    g_array_free(c->over, TRUE);
    html_report_locs_free(c->locs);
    html_report_lays_free(c->lays);
    g_free(c);
}

/* [k0, l0, k1, l1, ...]: from kept line k0 on, lines l0, l0 + 1, ... */
static void write_line_runs(jw *w, const tk_ir_diff *d, int side)
{
    jw_arr(w);
    uint32_t n = tk_ir_diff_kept_count(d, side), prev = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t line = tk_ir_diff_kept_number(d, side, k); /* nothing read */
        if (k == 0 || line != prev + 1) {
            jw_int(w, k);
            jw_int(w, line);
        }
        prev = line;
    }
    jw_arr_end(w);
}

/* Kept line K of SIDE (read back now), and into YW its layout references
 * (LAYS NULL: none written). */
static void write_kept_lays(jw *w, html_report_lays *lays, jw *yw, const tk_ir_diff *d, int side,
                            uint32_t k)
{
    size_t len;
    const char *s = tk_ir_diff_kept_line(d, side, k, &len, NULL);
    jw_strn(w, s ? s : "", s ? len : 0);
    if (lays)
        html_report_lays_line(lays, yw, side, s, s ? len : 0);
}

/* Whether SIDE of D fits the budget as a chain's first text, told from
 * its lines' lengths (nothing is read). */
static gboolean side_fits(const tk_ir_diff *d, int side)
{
    uint32_t n = tk_ir_diff_kept_count(d, side);
    if (n > HTML_PASS_BUDGET_LINES)
        return FALSE;
    html_pass_budget b = {0};
    for (uint32_t k = 0; k < n; k++)
        if (!html_pass_budget_take(&b, tk_ir_diff_kept_len(d, side, k)))
            return FALSE;
    return TRUE;
}

/* Whether kept line K of B, in an equal run with kept line KA of A, has
 * other bytes (value numbers, locations): its text is stored then. */
static gboolean text_changed(const tk_ir_diff *d, uint32_t ka, uint32_t k)
{
    return !tk_ir_diff_kept_equal(d, ka, k);
}

/* Whether what pass D's step stores (the text of the lines it added, and
 * of those whose text changed) fits the budget, told from the lines'
 * records (nothing is read). */
static gboolean step_fits(const tk_ir_diff *d)
{
    html_pass_budget b = {0};
    size_t nh;
    const tk_hunk *h = tk_ir_diff_hunks(d, &nh);
    for (size_t i = 0; i < nh; i++) {
        if (h[i].tag != TK_HUNK_EQUAL) {
            for (uint32_t k = h[i].b0; k < h[i].b1; k++)
                if (!html_pass_budget_take(&b, tk_ir_diff_kept_len(d, TK_IR_B, k)))
                    return FALSE;
            continue;
        }
        for (uint32_t j = 0; j < h[i].a1 - h[i].a0; j++)
            if (text_changed(d, h[i].a0 + j, h[i].b0 + j) &&
                !html_pass_budget_take(&b, tk_ir_diff_kept_len(d, TK_IR_B, h[i].b0 + j)))
                return FALSE;
    }
    return TRUE;
}

/* The chain's first text, side A of D, when it fits the budget: the
 * start of its data file, up to its steps (those that came before it
 * included); FALSE (nothing kept) when it does not fit. */
static gboolean write_base(html_pass_chains *c, const tk_ir_diff *d)
{
    if (!side_fits(d, TK_IR_A))
        return FALSE;
    uint32_t n = tk_ir_diff_kept_count(d, TK_IR_A);
    jw *w = &c->dw;
    g_string_truncate(c->doc, 0);
    jw_init(w, c->doc);
    jw_obj(w);
    jw_key(w, "from");
    jw_int(w, (int64_t)c->from);
    jw_key(w, "base");
    jw_obj(w);
    /* the layout references of each line, beside (MLIR only) */
    gboolean lays = c->dialect == TK_IR_MLIR;
    if (lays)
        html_report_lays_text(c->lays, d, TK_IR_A);
    GString *ys = g_string_new(NULL);
    jw yw;
    jw_init(&yw, ys);
    jw_arr(&yw);
    jw_key(w, "t");
    jw_arr(w);
    for (uint32_t k = 0; k < n; k++)
        write_kept_lays(w, lays ? c->lays : NULL, &yw, d, TK_IR_A, k);
    jw_arr_end(w);
    jw_arr_end(&yw);
    if (lays) {
        jw_key(w, "y");
        jw_raw(w, ys);
    }
    g_string_free(ys, TRUE);
    jw_key(w, "n");
    write_line_runs(w, d, TK_IR_A);
    jw_key(w, "s");
    jw_arr(w);
    for (uint32_t k = 0; k < n; k++)
        jw_int(w, html_report_locs_kept(c->locs, d, TK_IR_A, k));
    jw_arr_end(w);
    jw_obj_end(w);
    jw_key(w, "steps");
    jw_arr(w);
    for (guint i = 0; i < c->lead->len; i++) {
        if (c->lead->data[i])
            jw_null(w);
        else
            jw_int(w, 0);
    }
    c->has_base = TRUE;
    return TRUE;
}

/* A step that stores no text: 0 (the same bytes) or, for a loop pass the
 * chain steps over, null. */
static void write_empty_step(html_pass_chains *c, gboolean loop)
{
    if (!c->has_base) {
        guint8 v = loop ? 1 : 0;
        g_byte_array_append(c->lead, &v, 1);
    } else if (loop)
        jw_null(&c->dw);
    else
        jw_int(&c->dw, 0);
}

/* Pass D's step, appended to the chain's steps (step_fits(D) said that
 * it fits the budget). */
static void write_step(html_pass_chains *c, const tk_ir_diff *d)
{
    jw *w = &c->dw;
    size_t nh;
    /* the rows as every view shows them: replaced lines paired by likeness */
    const tk_hunk *h = tk_ir_diff_aligned(d, &nh);
    gboolean lays = c->dialect == TK_IR_MLIR;
    if (lays)
        html_report_lays_text(c->lays, d, TK_IR_B);
    GString *ys = g_string_new(NULL), *yus = g_string_new(NULL);
    jw yw, yuw;
    jw_init(&yw, ys);
    jw_init(&yuw, yus);
    jw_arr(&yw);
    jw_arr(&yuw);
    jw_obj(w);
    jw_key(w, "h");
    jw_arr(w);
    for (size_t i = 0; i < nh; i++)
        if (h[i].tag == TK_HUNK_EQUAL) {
            jw_int(w, h[i].a0);
            jw_int(w, h[i].b0);
            jw_int(w, h[i].a1 - h[i].a0);
        }
    jw_arr_end(w);
    jw_key(w, "t");
    jw_arr(w);
    for (size_t i = 0; i < nh; i++)
        if (h[i].tag != TK_HUNK_EQUAL)
            for (uint32_t k = h[i].b0; k < h[i].b1; k++)
                write_kept_lays(w, lays ? c->lays : NULL, &yw, d, TK_IR_B, k);
    jw_arr_end(w);
    jw_key(w, "u");
    jw_arr(w);
    for (size_t i = 0; i < nh; i++) {
        if (h[i].tag != TK_HUNK_EQUAL)
            continue;
        for (uint32_t j = 0; j < h[i].a1 - h[i].a0; j++) {
            if (!text_changed(d, h[i].a0 + j, h[i].b0 + j))
                continue;
            jw_int(w, h[i].b0 + j);
            if (lays)
                jw_int(&yuw, h[i].b0 + j);
            write_kept_lays(w, lays ? c->lays : NULL, &yuw, d, TK_IR_B, h[i].b0 + j);
        }
    }
    jw_arr_end(w);
    jw_arr_end(&yw);
    jw_arr_end(&yuw);
    if (lays) {
        /* the layout references of each line of "t", and of each line of
         * "u" ([b, refs, ...]) */
        jw_key(w, "y");
        jw_raw(w, ys);
        jw_key(w, "yu");
        jw_raw(w, yus);
    }
    g_string_free(ys, TRUE);
    g_string_free(yus, TRUE);
    /* The lines the library paired (tk_ir_diff_aligned()): each replace
     * hunk's lines in order, [a0, b0, len] per hunk.  chain.js composes
     * them with the equal runs; it pairs no line of its own. */
    jw_key(w, "p");
    jw_arr(w);
    for (size_t i = 0; i < nh; i++)
        if (h[i].tag == TK_HUNK_REPLACE) {
            jw_int(w, h[i].a0);
            jw_int(w, h[i].b0);
            jw_int(w, MIN(h[i].a1 - h[i].a0, h[i].b1 - h[i].b0));
        }
    jw_arr_end(w);
    /* The changed words of each replaced line: a replace hunk pairs its
     * lines in order, as the page's rows pair them (chain.js). */
    jw_key(w, "w");
    jw_arr(w);
    for (size_t i = 0; i < nh; i++) {
        if (h[i].tag != TK_HUNK_REPLACE)
            continue;
        for (uint32_t j = 0; j < h[i].a1 - h[i].a0 && j < h[i].b1 - h[i].b0; j++) {
            size_t la, lb;
            const char *a = tk_ir_diff_kept_line(d, TK_IR_A, h[i].a0 + j, &la, NULL);
            const char *b = tk_ir_diff_kept_line(d, TK_IR_B, h[i].b0 + j, &lb, NULL);
            if (!a || !b)
                continue;
            jw_int(w, h[i].b0 + j);
            html_report_write_words(w, a, la, b, lb);
        }
    }
    jw_arr_end(w);
    jw_key(w, "n");
    write_line_runs(w, d, TK_IR_B);
    /* What the lines name in the source: each line of "t", and each line
     * of an equal run whose stacks are not its line before's (its
     * `loc(#locN)` now means another place, or its text changed) */
    jw_key(w, "s");
    jw_arr(w);
    for (size_t i = 0; i < nh; i++)
        if (h[i].tag != TK_HUNK_EQUAL)
            for (uint32_t k = h[i].b0; k < h[i].b1; k++)
                jw_int(w, html_report_locs_kept(c->locs, d, TK_IR_B, k));
    jw_arr_end(w);
    jw_key(w, "su");
    jw_arr(w);
    for (size_t i = 0; i < nh; i++) {
        if (h[i].tag != TK_HUNK_EQUAL)
            continue;
        for (uint32_t j = 0; j < h[i].a1 - h[i].a0; j++) {
            if (html_report_locs_same(d, h[i].a0 + j, h[i].b0 + j))
                continue;
            jw_int(w, h[i].b0 + j);
            jw_int(w, html_report_locs_kept(c->locs, d, TK_IR_B, h[i].b0 + j));
        }
    }
    jw_arr_end(w);
    jw_obj_end(w);
}

static void close_chain(html_pass_chains *c)
{
    if (!c->open)
        return;
    c->open = FALSE;
    if (!c->has_base)
        return; /* only passes that changed no byte: nothing to compose */
    jw_arr_end(&c->dw);
    jw_key(&c->dw, "to");
    jw_int(&c->dw, (int64_t)c->to);
    jw_key(&c->dw, "st");
    html_report_locs_write(c->locs, &c->dw);
    if (html_report_lays_any(c->lays)) {
        jw_key(&c->dw, "ly");
        html_report_lays_write(c->lays, &c->dw);
    }
    jw_obj_end(&c->dw);
    size_t idx = c->ranges->len / 2;
    char rel[64], key[64];
    g_snprintf(rel, sizeof rel, "data/%s/pc-%zu.js", c->rk->id, idx);
    g_snprintf(key, sizeof key, "%s/pc-%zu", c->rk->id, idx);
    int rc = html_report_put_z(c->r, rel, key, c->doc); /* taken */
    c->doc = g_string_new(NULL);
    if (rc && !c->rc)
        c->rc = rc;
    g_array_append_val(c->ranges, c->from);
    g_array_append_val(c->ranges, c->to);
    for (size_t p = c->from; p <= c->to; p++) {
        if (p >= c->of->len) {
            ptrdiff_t none = -1;
            while (c->of->len <= p)
                g_array_append_val(c->of, none);
        }
        g_array_index(c->of, ptrdiff_t, p) = (ptrdiff_t)idx;
    }
    for (guint i = 0; i < c->over->len; i++)
        g_array_index(c->of, ptrdiff_t, g_array_index(c->over, size_t, i)) = -1;
}

/* A loop pass of LLVM IR, which a chain of whole modules steps over
 * (TK_TIMELINE_WHOLE_UNITS): its changes are in the next pass's step. */
static gboolean loop_pass(const tk_timeline_entry *e)
{
    return e->scope_kind == TK_PASS_SCOPE_LOOP &&
           tk_pass_level_dialect(e->level) != TK_IR_MLIR;
}

static gboolean chainable(const tk_timeline_step *st)
{
    const tk_timeline_entry *e = st->entry;
    tk_ir_dialect dialect = tk_pass_level_dialect(e->level);
    if ((e->flags & TK_TL_PLACEHOLDER) || dialect == TK_IR_PLAIN ||
        e->kind == TK_PASS_MLIR_INTERNAL || e->effect == TK_EFFECT_UNKNOWN)
        return FALSE;
    return !st->diff || tk_ir_diff_dialect(st->diff) == dialect;
}

static void open_chain(html_pass_chains *c, const tk_timeline_step *st)
{
    c->open = TRUE;
    c->has_base = FALSE;
    c->from = st->pass;
    c->dialect = tk_pass_level_dialect(st->entry->level);
    g_array_set_size(c->over, 0);
    g_byte_array_set_size(c->lead, 0);
    g_string_truncate(c->doc, 0);
    html_report_locs_clear(c->locs);
    html_report_lays_clear(c->lays);
}

html_pass_chain_verdict html_pass_chains_step(html_pass_chains *c, const tk_timeline_step *st)
{
    if (st->substep != TK_TL_NONE)
        return HTML_CHAIN_NOT;
    if (loop_pass(st->entry)) {
        if (c->open) {
            write_empty_step(c, TRUE); /* the text stays what it was */
            g_array_append_val(c->over, st->pass);
            c->to = st->pass;
        }
        return HTML_CHAIN_NOT;
    }
    if (!chainable(st)) {
        close_chain(c);
        c->big_text = FALSE;
        return HTML_CHAIN_NOT;
    }
    tk_ir_dialect dialect = tk_pass_level_dialect(st->entry->level);
    if (!st->continues)
        c->big_text = FALSE;
    /* A chain ends where its text does not go on, and once its data is
     * as big as a browser should load at once (pass_budget.h): the next
     * chain starts from this pass's text. */
    if (c->open && (!st->continues || dialect != c->dialect || c->doc->len >= HTML_PASS_CHAIN_BYTES))
        close_chain(c);
    if (!st->diff) {
        /* the same bytes: a step of the chain, or of none when it goes on
         * from a text over the budget */
        if (c->big_text)
            return HTML_CHAIN_OVER_BUDGET;
        if (!c->open)
            open_chain(c, st);
        c->to = st->pass;
        write_empty_step(c, FALSE);
        return HTML_CHAIN_IN;
    }
    if (!c->open)
        open_chain(c, st);
    if (!step_fits(st->diff) || (!c->has_base && !write_base(c, st->diff))) {
        /* Over the budget (told before anything is read): the chain ends
         * before this pass, which is stored on its own; the passes after
         * it go on from its text after, which may be too big to start
         * another chain. */
        close_chain(c);
        c->big_text = !side_fits(st->diff, TK_IR_B);
        return HTML_CHAIN_OVER_BUDGET;
    }
    write_step(c, st->diff);
    c->big_text = FALSE;
    c->to = st->pass;
    return HTML_CHAIN_IN;
}

int html_pass_chains_finish(html_pass_chains *c)
{
    close_chain(c);
    return c->rc;
}

size_t html_pass_chains_count(const html_pass_chains *c)
{
    return c->ranges->len / 2;
}

void html_pass_chains_range(const html_pass_chains *c, size_t i, size_t *from,
                          size_t *to)
{
    *from = g_array_index(c->ranges, size_t, 2 * i);
    *to = g_array_index(c->ranges, size_t, 2 * i + 1);
}

ptrdiff_t html_pass_chains_of(const html_pass_chains *c, size_t p)
{
    return p < c->of->len ? g_array_index(c->of, ptrdiff_t, p) : -1;
}
