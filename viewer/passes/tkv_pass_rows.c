/* tkv_pass_rows.c - the rows a pass diff shows on its two sides, made from
 * the library's diff (tk_timeline_diff(): normalized, kept lines only,
 * original text) on the worker thread that made the diff
 * (tkv_document_diff_async()'s PREPARE), so that the click that shows it
 * only hands the text to the sides: a 40,000-line diff's rows, its replaced
 * lines paired by likeness (tk_ir_diff_aligned()) and its text made safe for
 * a buffer took a tenth of a pass selection's main-thread time.
 *
 * A pass that rewrites a 2 GB module cannot be shown whole (a text view
 * holds what it shows, and lays it out): a diff bigger than the budget
 * below shows its changes with their context up to the budget
 * (tk_ir_diff_group_budget()), long lines by their start, the unchanged
 * stretches between them as one row each ("⋯ 812 unchanged lines ⋯"), and
 * says at its end and in the title what was left out and how to see it
 * all (tkview diff --pass N).  The rows are then not the sides' kept
 * lines: the hunks are over the rows shown. */
#include "passes/tkv_pass_rows.h"

#include <stdlib.h>
#include <string.h>

#include "document/tkv_text.h"

/* A diff is shown whole when both its sides together have at most this
 * many lines and bytes; otherwise as much as the budget below holds (a
 * text view lays out and highlights all it holds: a few MB is what it
 * takes in the time a person waits). */
#define WHOLE_LINES 40000u
#define WHOLE_BYTES ((guint64)4 << 20)
#define CUT_LINES 2000u
#define CUT_BYTES ((guint64)256 << 10)
#define CUT_LINE_BYTES 256u
#define CONTEXT TK_DIFF_CONTEXT

/* The budget, which tests may make smaller: TKV_PASS_DIFF_BUDGET="LINES"
 * (both the whole and the cut limits, in lines). */
static guint budget_lines(guint dflt)
{
    const char *e = g_getenv("TKV_PASS_DIFF_BUDGET");
    guint v = e ? (guint)strtoul(e, NULL, 10) : 0;
    return v ? v : dflt;
}

/* The rows being made. */
typedef struct {
    const tk_ir_diff *d;
    GString *text[2];
    GArray *orig[2];
    GArray *off[2];
    GArray *hunks;      /* over rows */
    guint32 rows[2];
    uint32_t end[2];    /* kept lines shown or skipped so far, per side */
    gboolean head_only; /* long lines are shown by their start */
} Rows;

static void add_row(Rows *r, int s, const char *t, size_t len, guint32 line)
{
    if (r->rows[s]++)
        g_string_append_c(r->text[s], '\n');
    gsize at = r->text[s]->len;
    g_array_append_val(r->off[s], at);
    tkv_text_append_line(r->text[s], t, len);
    g_array_append_val(r->orig[s], line);
}

static void add_kept(Rows *r, int s, uint32_t k)
{
    size_t len = 0;
    uint32_t line = 0;
    size_t full = tk_ir_diff_kept_len(r->d, s, k);
    const char *t = r->head_only ? tk_ir_diff_kept_head(r->d, s, k, CUT_LINE_BYTES, &len, &line)
                                 : tk_ir_diff_kept_line(r->d, s, k, &len, &line);
    add_row(r, s, t ? t : "", t ? len : 0, line);
    if (t && len < full)
        g_string_append_printf(r->text[s], " \u2026 (%zu more bytes)", full - len);
}

/* A hunk over rows, merged into the last when both are equal. */
static void add_hunk(Rows *r, tk_hunk_tag tag, guint32 na, guint32 nb)
{
    tk_hunk h = {tag, r->rows[0] - na, r->rows[0], r->rows[1] - nb, r->rows[1]};
    if (na == 0 && nb == 0)
        return;
    if (r->hunks->len) {
        tk_hunk *last = &g_array_index(r->hunks, tk_hunk, r->hunks->len - 1);
        if (last->tag == TK_HUNK_EQUAL && tag == TK_HUNK_EQUAL) {
            last->a1 = h.a1;
            last->b1 = h.b1;
            return;
        }
    }
    g_array_append_val(r->hunks, h);
}

/* One row on both sides (an equal hunk) saying what is not shown. */
static void add_note(Rows *r, const char *note_a, const char *note_b)
{
    add_row(r, 0, note_a, strlen(note_a), 0);
    add_row(r, 1, note_b, strlen(note_b), 0);
    add_hunk(r, TK_HUNK_EQUAL, 1, 1);
}

/* The unchanged lines between what was shown and kept lines A, B. */
static void add_gap(Rows *r, uint32_t a, uint32_t b)
{
    if (a <= r->end[0] && b <= r->end[1])
        return;
    char *na = g_strdup_printf("\u22ef %u lines not shown \u22ef", a - r->end[0]);
    char *nb = g_strdup_printf("\u22ef %u lines not shown \u22ef", b - r->end[1]);
    add_note(r, na, nb);
    g_free(na);
    g_free(nb);
    r->end[0] = a;
    r->end[1] = b;
}

static int cut_hunk(const tk_hunk *h, void *user)
{
    Rows *r = user;
    if (h->tag == TK_HUNK_GROUP) {
        add_gap(r, h->a0, h->b0);
        return 0;
    }
    for (uint32_t k = h->a0; k < h->a1; k++)
        add_kept(r, 0, k);
    for (uint32_t k = h->b0; k < h->b1; k++)
        add_kept(r, 1, k);
    add_hunk(r, h->tag, h->a1 - h->a0, h->b1 - h->b0);
    r->end[0] = h->a1;
    r->end[1] = h->b1;
    return 0;
}

/* All kept lines, rows one to one with them. */
static void whole_rows(Rows *r)
{
    for (int s = 0; s < 2; s++) {
        uint32_t n = tk_ir_diff_kept_count(r->d, s);
        for (uint32_t k = 0; k < n; k++)
            add_kept(r, s, k);
        r->rows[s] = n;
    }
    size_t nh;
    const tk_hunk *h = tk_ir_diff_aligned(r->d, &nh); /* replaced lines paired by likeness */
    g_array_append_vals(r->hunks, h, (guint)nh);
}

/* Whether D fits whole: its lines and bytes on both sides. */
static gboolean fits_whole(const tk_ir_diff *d)
{
    guint64 lines = 0, bytes = 0;
    for (int s = 0; s < 2; s++) {
        uint32_t n = tk_ir_diff_kept_count(d, s);
        lines += n;
        for (uint32_t k = 0; k < n && bytes <= WHOLE_BYTES; k++)
            bytes += tk_ir_diff_kept_len(d, s, k) + 1;
    }
    return lines <= budget_lines(WHOLE_LINES) && bytes <= WHOLE_BYTES;
}

/* The rows of a diff too big to show whole: its changes and their context
 * up to the budget, then what was left out. */
static void cut_rows(Rows *r, tk_ir_diff_cut *cut)
{
    tk_ir_diff_budget b = {.context = CONTEXT, .max_lines = budget_lines(CUT_LINES),
                           .max_bytes = CUT_BYTES, .max_line_bytes = CUT_LINE_BYTES};
    r->head_only = TRUE;
    tk_ir_diff_group_budget(r->d, &b, cut_hunk, r, cut);
    uint32_t na = tk_ir_diff_kept_count(r->d, 0), nb = tk_ir_diff_kept_count(r->d, 1);
    if (cut->lines_left == 0) {
        add_gap(r, na, nb);
        return;
    }
    char *note = g_strdup_printf("\u22ef cut here: %" G_GUINT64_FORMAT " more lines of this "
                                 "diff (+%u \u2212%u) are not shown; tkview diff --pass "
                                 "prints them all \u22ef",
                                 cut->lines_left, cut->added_left,
                                 cut->removed_left);
    add_note(r, note, note);
    g_free(note);
}

TkvPassRows *tkv_pass_rows_make(tk_ir_diff *d)
{
    TkvPassRows *out = g_new0(TkvPassRows, 1);
    out->hunks = g_array_new(FALSE, FALSE, sizeof(tk_hunk));
    Rows r = {.d = d, .hunks = out->hunks};
    for (int s = 0; s < 2; s++) {
        out->text[s] = r.text[s] = g_string_new(NULL);
        out->orig[s] = r.orig[s] = g_array_new(FALSE, FALSE, sizeof(guint32));
        out->off[s] = r.off[s] = g_array_new(FALSE, FALSE, sizeof(gsize));
    }
    if (fits_whole(d))
        whole_rows(&r);
    else
        cut_rows(&r, &out->cut);
    out->rows[0] = r.rows[0];
    out->rows[1] = r.rows[1];
    return out;
}

void tkv_pass_rows_free(gpointer p)
{
    TkvPassRows *r = p;
    if (!r)
        return;
    for (int s = 0; s < 2; s++) {
        if (r->text[s])
            g_string_free(r->text[s], TRUE);
        g_array_unref(r->orig[s]);
        g_array_unref(r->off[s]);
    }
    g_array_unref(r->hunks);
    g_free(r);
}
