/* data_passes_after.c - the IR after a pass with nothing comparable before
 * it, for the page to show alone under the library's sentence, as `tkview
 * diff --pass N` and the viewer do (tk_timeline_diff_shown()).
 *
 * Most such passes (the first dump of an IR level) are followed by a pass
 * that goes on from their text: the chain that starts there holds that
 * text as its first one, and passes.js names the chain ("ac").  Only when
 * none does (the next pass changed nothing, or was unknown too) is the
 * text stored here, as data/ID/pa-N.js, in the format of a chain's first
 * text (pass_chain.h) with its table of stacks:
 *
 *   {"t": [...], "n": [k0, l0, ...], "s": [...], "st": [...], "cut": C}
 *
 * the kept lines (tk_ir_diff_kept_line(): blank lines and lines of debug
 * information only are left out, as in every diff), their line numbers and
 * what each names in the source; at most the budget of one pass
 * (pass_budget.h), "cut" the lines left out after it.
 */
#include "data_locs.h"
#include "data_passes.h"
#include "pass_budget.h"
#include "pass_chain.h"

/* One pass with nothing comparable before it. */
typedef struct {
    size_t pass;
    size_t next;       /* the pass after it (loop passes stepped over), or
                          TK_TL_NONE */
    ptrdiff_t chain;   /* the chain whose first text that IR is, or -1 */
    gboolean own;      /* else stored as pa-PASS.js */
    uint64_t cut;      /* lines of it left out over the budget */
} after_ir;

struct html_pass_afters {
    GArray *v;      /* after_ir, by pass */
    gboolean open;  /* the last of V waits for the pass after it */
};

html_pass_afters *html_pass_afters_new(void)
{
    html_pass_afters *a = g_new0(html_pass_afters, 1);
    a->v = g_array_new(FALSE, FALSE, sizeof(after_ir));
    return a;
}

void html_pass_afters_free(html_pass_afters *a)
{
    if (!a)
        return;
    g_array_free(a->v, TRUE);
    g_free(a);
}

void html_pass_afters_step(html_pass_afters *a, const tk_timeline_step *st)
{
    const tk_timeline_entry *e = st->entry;
    if (st->substep != TK_TL_NONE)
        return;
    if (e->effect == TK_EFFECT_UNKNOWN && e->why == TK_UNKNOWN_NO_BEFORE) {
        after_ir x = {st->pass, TK_TL_NONE, -1, FALSE, 0};
        g_array_append_val(a->v, x);
        a->open = TRUE;
        return;
    }
    /* The next pass may start from its IR after it; loop passes are
     * stepped over (TK_TIMELINE_WHOLE_UNITS). */
    if (!a->open || (e->scope_kind == TK_PASS_SCOPE_LOOP &&
                     tk_pass_level_dialect(e->level) != TK_IR_MLIR))
        return;
    a->open = FALSE;
    g_array_index(a->v, after_ir, a->v->len - 1).next = st->pass;
}

/* Whether X and Y are the same text: the same dumps put together the same
 * way. */
static gboolean same_side(const tk_timeline_side *x, const tk_timeline_side *y)
{
    if (x->kind != y->kind || x->kind == TK_SIDE_NONE || x->n_pieces != y->n_pieces)
        return FALSE;
    if (x->kind == TK_SIDE_FINAL)
        return x->final == y->final;
    if (x->kind != TK_SIDE_FUNCTIONS && (x->part != y->part || x->dump != y->dump))
        return FALSE;
    for (size_t i = 0; i < x->n_pieces; i++)
        if (x->pieces[i].part != y->pieces[i].part || x->pieces[i].dump != y->pieces[i].dump ||
            g_strcmp0(x->pieces[i].function, y->pieces[i].function) != 0)
            return FALSE;
    return TRUE;
}

/* That IR as data/ID/pa-PASS.js; *WRITTEN: whether it was (a text that
 * cannot be read is not), *CUT: lines left out over the budget.  Returns
 * 0 or a write error. */
static int write_own(html_report *r, html_report_kernel *rk, const tk_timeline *tl,
                     size_t pass, tk_loctab *tab, gboolean *written, uint64_t *cut)
{
    *cut = 0;
    *written = FALSE;
    tk_diags *quiet = tk_diags_new(); /* a text that cannot be read: no pane */
    int only = 0;
    tk_ir_diff *d = tk_timeline_diff_shown(tl, pass, pass, NULL, &only, quiet);
    tk_diags_free(quiet);
    if (!d || !only) {
        tk_ir_diff_free(d);
        return 0;
    }
    tk_ir_diff_bind(d, tab, NULL);
    html_report_locs *locs = html_report_locs_new(r, tab);
    uint32_t n = tk_ir_diff_kept_count(d, TK_IR_B), kept = 0;
    html_pass_budget b = {0};
    while (kept < n && kept < HTML_PASS_BUDGET_LINES &&
           html_pass_budget_take(&b, tk_ir_diff_kept_len(d, TK_IR_B, kept)))
        kept++;
    GString *g = g_string_new(NULL);
    jw w;
    jw_init(&w, g);
    jw_obj(&w);
    jw_key(&w, "t");
    jw_arr(&w);
    for (uint32_t k = 0; k < kept; k++) {
        size_t len;
        const char *s = tk_ir_diff_kept_line(d, TK_IR_B, k, &len, NULL);
        jw_strn(&w, s ? s : "", s ? len : 0);
    }
    jw_arr_end(&w);
    /* [k0, l0, k1, l1, ...]: from kept line k0 on, lines l0, l0 + 1, ... */
    jw_key(&w, "n");
    jw_arr(&w);
    for (uint32_t k = 0, prev = 0; k < kept; k++) {
        uint32_t line = tk_ir_diff_kept_number(d, TK_IR_B, k);
        if (k == 0 || line != prev + 1) {
            jw_int(&w, k);
            jw_int(&w, line);
        }
        prev = line;
    }
    jw_arr_end(&w);
    jw_key(&w, "s");
    jw_arr(&w);
    for (uint32_t k = 0; k < kept; k++)
        jw_int(&w, html_report_locs_kept(locs, d, TK_IR_B, k));
    jw_arr_end(&w);
    jw_key(&w, "st");
    html_report_locs_write(locs, &w);
    jw_key(&w, "cut");
    jw_int(&w, n - kept);
    jw_obj_end(&w);
    html_report_locs_free(locs);
    tk_ir_diff_free(d);
    *cut = n - kept;
    *written = TRUE;
    char rel[64], key[64];
    g_snprintf(rel, sizeof rel, "data/%s/pa-%zu.js", rk->id, pass);
    g_snprintf(key, sizeof key, "%s/pa-%zu", rk->id, pass);
    return html_report_put_z(r, rel, key, g); /* taken */
}

int html_pass_afters_place(html_pass_afters *a, html_report *r, html_report_kernel *rk,
                           const tk_timeline *tl, const html_pass_chains *chains,
                           tk_loctab *tab)
{
    int rc = 0;
    for (guint i = 0; i < a->v->len && !rc; i++) {
        after_ir *x = &g_array_index(a->v, after_ir, i);
        const tk_timeline_entry *e = tk_timeline_get(tl, x->pass);
        const tk_timeline_entry *n = x->next != TK_TL_NONE ? tk_timeline_get(tl, x->next) : NULL;
        ptrdiff_t c = n && same_side(&e->after, &n->before) ? html_pass_chains_of(chains, x->next) : -1;
        size_t from = 0, to = 0;
        if (c >= 0)
            html_pass_chains_range(chains, (size_t)c, &from, &to);
        /* a chain's first text is the text before its first pass */
        if (c >= 0 && from == x->next)
            x->chain = c;
        else
            rc = write_own(r, rk, tl, x->pass, tab, &x->own, &x->cut);
    }
    return rc;
}

void html_pass_afters_json(const html_pass_afters *a, size_t pass, jw *w)
{
    for (guint i = 0; i < a->v->len; i++) {
        const after_ir *x = &g_array_index(a->v, after_ir, i);
        if (x->pass != pass)
            continue;
        if (x->chain >= 0) {
            jw_key(w, "ac"); /* its IR after it: chain AC's first text */
            jw_int(w, x->chain);
        } else if (x->own) {
            jw_key(w, "pa"); /* its IR after it: pa-N.js */
            jw_int(w, 1);
        }
        return;
    }
}
