/* data_diff.c - one IR diff as the report's data: the groups
 * tk_ir_diff_group_budget() hands out, each row's two sides' line numbers,
 * original text, changed words, source lines and layouts (data_diff.h).
 * Apart from the pass timeline (data_passes.c): the one writer of a diff's
 * rows, whoever asks for the diff. */
#include "data_diff.h"

#include <string.h>

#include "data_words.h"
#include "pass_budget.h"
#include "report.h"

/* Writes the rows of the groups tk_ir_diff_group_budget() hands out. */
typedef struct {
    const tk_ir_diff *d;
    jw *w;
    gboolean in_group;
    /* What each row's sides name in the source (data_locs.h), NULL: not
     * written; RS: per group the entries of its rows, [a, b, a, b, ...] */
    html_report_locs *locs;
    GString *rs;
    /* The layouts of each row's sides (MLIR), NULL: not written; RY: per
     * group their references, [a, b, a, b, ...] */
    html_report_lays *lays;
    GString *ry;
    jw ryw;
} diff_writer;

/* TOUCHED ("file:line" -> 1) gets the source lines in the stacks of kept
 * line K of SIDE of D (its number is known without reading it). */
static void touch(const tk_ir_diff *d, tk_loctab *tab, GHashTable *touched, int side, uint32_t k)
{
    uint32_t line = tk_ir_diff_kept_number(d, side, k);
    if (!line)
        return;
    const tk_stack_id *ids;
    size_t n = tk_ir_diff_line_stacks(d, side, line, &ids);
    for (size_t i = 0; i < n; i++) {
        size_t nf;
        const tk_frame *fr = tk_loctab_stack_frames(tab, ids[i], &nf);
        for (size_t j = 0; j < nf; j++) {
            guint64 key = ((guint64)fr[j].file << 32) | fr[j].line;
            g_hash_table_add(touched, g_memdup2(&key, sizeof key));
        }
    }
}

/* One row: [kind, aLine, aText, bLine, bText] with kind "e" (context),
 * "d" (only in A), "i" (only in B), "r" (A's line became B's); a context
 * row whose two texts are the same bytes leaves bText out.  An "r" row
 * also has [aWords, bWords]: the changed words of each side
 * (data_words.h).  KA, KB: kept
 * lines, -1 for a side the row lacks. */
static void row(diff_writer *dw, char kind, int64_t ka, int64_t kb)
{
    size_t la = 0, lb = 0;
    uint32_t na = 0, nb = 0;
    const char *a = ka >= 0 ? tk_ir_diff_kept_line(dw->d, TK_IR_A, (uint32_t)ka, &la, &na) : NULL;
    const char *b = kb >= 0 ? tk_ir_diff_kept_line(dw->d, TK_IR_B, (uint32_t)kb, &lb, &nb) : NULL;
    if (!a)
        la = 0;
    if (!b)
        lb = 0;
    gboolean same = kind == 'e' && a && b && la == lb && memcmp(a, b, la) == 0;
    jw_arr(dw->w);
    char k[2] = {kind, 0};
    jw_str(dw->w, k);
    if (ka >= 0) {
        jw_int(dw->w, na);
        jw_strn(dw->w, a ? a : "", la);
    } else {
        jw_int(dw->w, 0);
        jw_null(dw->w);
    }
    if (kind == 'e') {
        jw_int(dw->w, nb);
        if (!same)
            jw_strn(dw->w, b ? b : "", lb);
    } else if (kb >= 0) {
        jw_int(dw->w, nb);
        jw_strn(dw->w, b ? b : "", lb);
    } else {
        jw_int(dw->w, 0);
        jw_null(dw->w);
    }
    if (kind == 'r' && a && b) {
        html_report_write_words(dw->w, a, la, b, lb);
    }
    jw_arr_end(dw->w);
    if (dw->locs) {
        uint32_t ea = ka >= 0 ? html_report_locs_kept(dw->locs, dw->d, TK_IR_A, (uint32_t)ka) : 0;
        uint32_t eb = kb >= 0 ? html_report_locs_kept(dw->locs, dw->d, TK_IR_B, (uint32_t)kb) : 0;
        char last = dw->rs->str[dw->rs->len - 1];
        g_string_append_printf(dw->rs, "%s%u,%u", last == '[' ? "" : ",", ea, eb);
    }
    if (dw->lays) {
        html_report_lays_line(dw->lays, &dw->ryw, TK_IR_A, a, la);
        html_report_lays_line(dw->lays, &dw->ryw, TK_IR_B, b, lb);
    }
}

static int group_hunk(const tk_hunk *h, void *user)
{
    diff_writer *dw = user;
    if (h->tag == TK_HUNK_GROUP) {
        if (dw->in_group)
            jw_arr_end(dw->w);
        jw_arr(dw->w);
        if (dw->locs)
            g_string_append(dw->rs, dw->in_group ? "],[" : "[");
        if (dw->lays) {
            if (dw->in_group)
                jw_arr_end(&dw->ryw);
            jw_arr(&dw->ryw);
        }
        dw->in_group = TRUE;
        return 0;
    }
    uint32_t na = h->a1 - h->a0, nb = h->b1 - h->b0;
    switch (h->tag) {
    case TK_HUNK_EQUAL:
        for (uint32_t i = 0; i < na; i++)
            row(dw, 'e', h->a0 + i, h->b0 + i);
        break;
    case TK_HUNK_DELETE:
        for (uint32_t i = 0; i < na; i++)
            row(dw, 'd', h->a0 + i, -1);
        break;
    case TK_HUNK_INSERT:
        for (uint32_t i = 0; i < nb; i++)
            row(dw, 'i', -1, h->b0 + i);
        break;
    case TK_HUNK_REPLACE:
        for (uint32_t i = 0; i < MAX(na, nb); i++)
            row(dw, i < na && i < nb ? 'r' : i < na ? 'd' : 'i',
                i < na ? (int64_t)(h->a0 + i) : -1, i < nb ? (int64_t)(h->b0 + i) : -1);
        break;
    default:
        break;
    }
    return 0;
}

/* TOUCHED collects the source lines of all D's changed lines (stored or
 * not: no text is read). */
void html_diff_touch_changed(tk_loctab *tab, tk_ir_diff *d, GHashTable *touched)
{
    tk_ir_diff_bind(d, tab, NULL);
    size_t nh;
    const tk_hunk *h = tk_ir_diff_hunks(d, &nh);
    for (size_t i = 0; i < nh; i++) {
        if (h[i].tag == TK_HUNK_EQUAL)
            continue;
        for (uint32_t k = h[i].a0; k < h[i].a1; k++)
            touch(d, tab, touched, TK_IR_A, k);
        for (uint32_t k = h[i].b0; k < h[i].b1; k++)
            touch(d, tab, touched, TK_IR_B, k);
    }
}

static int count_nothing(const tk_hunk *h, void *user)
{
    (void)h;
    (void)user;
    return 0;
}

/* Whether D's diff is over the budget for one pass: told from its lines'
 * lengths, nothing read. */
gboolean html_diff_over_budget(const tk_ir_diff *d)
{
    tk_ir_diff_budget b = html_pass_diff_budget(HTML_DIFF_CONTEXT);
    tk_ir_diff_cut cut;
    tk_ir_diff_group_budget(d, &b, count_nothing, NULL, &cut);
    return cut.cut != 0;
}

/* Diff D as a JSON object on W, as much of it as the budget for one pass
 * takes (pass_budget.h: the library cuts it, and reads back only the
 * lines stored); TOUCHED (may be NULL) collects the source lines of its
 * changed lines (all of them, cut or not).  Returns the number of lines
 * of its unified diff left out. */
uint64_t html_diff_json(tk_loctab *tab, html_report_locs *locs, html_report_lays *lays,
                        tk_ir_diff *d, GHashTable *touched, jw *w)
{
    if (lays && tk_ir_diff_dialect(d) != TK_IR_MLIR)
        lays = NULL;
    if (lays) {
        /* both sides' layout definitions, read before any row */
        html_report_lays_clear(lays);
        html_report_lays_text(lays, d, TK_IR_A);
        html_report_lays_text(lays, d, TK_IR_B);
    }
    if (touched)
        html_diff_touch_changed(tab, d, touched);
    if (locs) {
        tk_ir_diff_bind(d, tab, NULL);
        html_report_locs_clear(locs);
    }
    jw_obj(w);
    jw_key(w, "a");
    jw_str(w, tk_ir_diff_name(d, TK_IR_A));
    jw_key(w, "b");
    jw_str(w, tk_ir_diff_name(d, TK_IR_B));
    tk_diff_stats st = tk_ir_diff_stats(d);
    jw_key(w, "added");
    jw_int(w, st.added);
    jw_key(w, "removed");
    jw_int(w, st.removed);
    jw_key(w, "groups");
    jw_arr(w);
    diff_writer dw = {.d = d, .w = w, .locs = locs, .rs = locs ? g_string_new("[") : NULL, .lays = lays,
                      .ry = lays ? g_string_new(NULL) : NULL};
    if (lays) {
        jw_init(&dw.ryw, dw.ry);
        jw_arr(&dw.ryw);
    }
    tk_ir_diff_budget budget = html_pass_diff_budget(HTML_DIFF_CONTEXT);
    tk_ir_diff_cut cut;
    tk_ir_diff_group_budget(d, &budget, group_hunk, &dw, &cut);
    if (dw.in_group)
        jw_arr_end(w);
    jw_arr_end(w);
    if (locs) {
        /* per group, the source entries of its rows' two sides, and the
         * table of what they name (data_locs.h) */
        g_string_append(dw.rs, dw.in_group ? "]]" : "]");
        jw_key(w, "rs");
        jw_raw(w, dw.rs);
        g_string_free(dw.rs, TRUE);
        jw_key(w, "st");
        html_report_locs_write(locs, w);
    }
    if (lays) {
        if (dw.in_group)
            jw_arr_end(&dw.ryw);
        jw_arr_end(&dw.ryw);
        if (html_report_lays_any(lays)) {
            /* per group, the layout references of its rows' two sides,
             * and the layouts they name (data_layouts.h) */
            jw_key(w, "ry");
            jw_raw(w, dw.ry);
            jw_key(w, "ly");
            html_report_lays_write(lays, w);
        }
        g_string_free(dw.ry, TRUE);
    }
    uint64_t left = cut.lines_skipped + cut.lines_left;
    jw_key(w, "cut");
    jw_int(w, (int64_t)left);
    if (cut.groups > cut.groups_shown) { /* "change K of N": N is the whole diff's */
        jw_key(w, "ng");
        jw_int(w, (int64_t)tk_ir_diff_change_count(d));
    }
    jw_obj_end(w);
    return left;
}

void html_report_diff_json(tk_loctab *tab, tk_ir_diff *d, GHashTable *touched, jw *w)
{
    html_diff_json(tab, NULL, NULL, d, touched, w);
}
