/* align.c - the two pass lists lined up, and the IR after each row
 * compared.
 *
 * The alignment is a line diff (tk_diff.h) over one key per pass: the
 * engine hashes the keys to integer classes and finds the longest runs both
 * lists share, the way it lines up two texts, so that a pass one pipeline
 * added or dropped shows as such instead of shifting every pass after it.
 */
#include <string.h>

#include "compare/internal.h"

static int llvm_kind(tk_pass_kind kind)
{
    return kind != TK_PASS_MLIR && kind != TK_PASS_MLIR_INTERNAL;
}

void cmp_pass_key(GString *out, const tk_timeline_entry *e, const char *kernel_name)
{
    g_string_append(out, tk_pass_level_name(e->level));
    g_string_append_c(out, '\x1f');
    g_string_append(out, e->pass);
    g_string_append_c(out, '\x1f');
    g_string_append(out, e->arg);
    /* LLVM runs a function pass once per function: the function tells the
     * runs apart.  MLIR passes on helper functions are not keyed by them:
     * Triton names helpers after their constexpr arguments
     * ("zeros____(0, 0)cconstexpr_128_"), which differ between two
     * configurations of one kernel. */
    if (llvm_kind(e->kind) && e->scope_name[0] &&
        (e->scope_kind == TK_PASS_SCOPE_FUNCTION || e->scope_kind == TK_PASS_SCOPE_CGSCC ||
         e->scope_kind == TK_PASS_SCOPE_LOOP)) {
        g_string_append_c(out, '\x1f');
        g_string_append(out, strcmp(e->scope_name, kernel_name) == 0 ? "<kernel>"
                                                                     : e->scope_name);
    }
}

/* One side's keys as diff input; the text lives in *BUF (caller frees both
 * with g_free / g_string_free). */
static tk_diff_line *side_keys(const cmp_side *side, GString **buf)
{
    size_t n = side->n_passes;
    size_t *off = g_new(size_t, n + 1);
    *buf = g_string_new(NULL);
    const char *kname = tk_timeline_kernel_name(side->tl);
    for (size_t i = 0; i < n; i++) {
        off[i] = (*buf)->len;
        cmp_pass_key(*buf, tk_timeline_get(side->tl, i), kname);
    }
    off[n] = (*buf)->len;
    tk_diff_line *lines = g_new(tk_diff_line, n ? n : 1);
    for (size_t i = 0; i < n; i++)
        lines[i] = (tk_diff_line){(*buf)->str + off[i], off[i + 1] - off[i]};
    g_free(off);
    return lines;
}

static tk_compare_verdict verdict(uint64_t a, uint64_t b)
{
    if (!a || !b)
        return TK_COMPARE_UNKNOWN;
    return a == b ? TK_COMPARE_SAME : TK_COMPARE_DIFFERENT;
}

/* Walking the rows in order: each side's IR so far. */
typedef struct {
    tk_compare *cmp;
    uint64_t state[2];  /* digest of each side's IR; 0: unknown */
    size_t at[2];       /* the pass it is the output of */
} walk;

static void add_row(walk *w, tk_compare_align align, size_t pa, size_t pb)
{
    tk_compare *cmp = w->cmp;
    tk_compare_row r = {0};
    r.align = align;
    r.pass[0] = pa;
    r.pass[1] = pb;
    const cmp_pass *p[2] = {NULL, NULL};
    const tk_timeline_entry *e = NULL;
    for (int s = 1; s >= 0; s--) {
        if (r.pass[s] == TK_COMPARE_NONE)
            continue;
        p[s] = &cmp->side[s].passes[r.pass[s]];
        e = tk_timeline_get(cmp->side[s].tl, r.pass[s]);
    }
    r.name = e->pass;
    r.arg = e->arg;
    r.level = e->level;
    r.input = verdict(w->state[0], w->state[1]);
    for (int s = 0; s < 2; s++) {
        /* A loop pass's output is a loop: the next whole unit holds its
         * changes (TK_TL_SPANS_LOOPS), the IR so far stays. */
        if (p[s] && !p[s]->loop) {
            w->state[s] = p[s]->after;
            w->at[s] = r.pass[s];
        }
        r.state[s] = w->at[s];
    }
    if (p[0] && p[1] && (p[0]->loop || p[1]->loop))
        r.output = p[0]->loop && p[1]->loop ? verdict(p[0]->after, p[1]->after)
                                            : TK_COMPARE_UNKNOWN;
    else
        r.output = verdict(w->state[0], w->state[1]);
    r.effect = p[0] && p[1] ? verdict(p[0]->effect, p[1]->effect) : TK_COMPARE_UNKNOWN;
    if (cmp->first == TK_COMPARE_NONE) {
        if (r.output == TK_COMPARE_DIFFERENT)
            cmp->first = cmp->rows->len;
        else if (r.output == TK_COMPARE_UNKNOWN)
            cmp->unknown_before++;
    }
    g_array_append_val(cmp->rows, r);
}

typedef struct {
    walk *w;
} hunk_sink;

static int on_hunk(const tk_hunk *h, void *user)
{
    walk *w = ((hunk_sink *)user)->w;
    switch (h->tag) {
    case TK_HUNK_EQUAL:
        for (uint32_t k = 0; k < h->a1 - h->a0; k++)
            add_row(w, TK_COMPARE_BOTH, h->a0 + k, h->b0 + k);
        break;
    default:
        /* What only A ran, then what only B ran in its place. */
        for (uint32_t k = h->a0; k < h->a1; k++)
            add_row(w, TK_COMPARE_ONLY_A, k, TK_COMPARE_NONE);
        for (uint32_t k = h->b0; k < h->b1; k++)
            add_row(w, TK_COMPARE_ONLY_B, TK_COMPARE_NONE, k);
        break;
    }
    return 0;
}

void cmp_align(tk_compare *cmp)
{
    cmp->rows = g_array_new(FALSE, FALSE, sizeof(tk_compare_row));
    cmp->first = TK_COMPARE_NONE;
    cmp->unknown_before = 0;
    cmp_side *a = &cmp->side[0], *b = &cmp->side[1];
    if (!a->tl || !b->tl)
        return;
    GString *ka, *kb;
    tk_diff_line *la = side_keys(a, &ka), *lb = side_keys(b, &kb);
    tk_diff_input ia = {la, NULL, (uint32_t)a->n_passes};
    tk_diff_input ib = {lb, NULL, (uint32_t)b->n_passes};
    /* Each side's IR before its first pass: what both start from. */
    walk w = {cmp,
              {a->n_passes ? a->passes[0].before : 0, b->n_passes ? b->passes[0].before : 0},
              {TK_COMPARE_NONE, TK_COMPARE_NONE}};
    hunk_sink sink = {&w};
    tk_diff_with(&ia, &ib, &cmp->diff, on_hunk, &sink);
    g_free(la);
    g_free(lb);
    g_string_free(ka, TRUE);
    g_string_free(kb, TRUE);
}
