/* query.c - the binding index's answers: a source line's IR lines, an IR
 * line's lines in another stage, a statement's lines, helper code shared
 * by several call sites, approximate matches (bind.c builds the index). */
#include "tkdump/tk_bind.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "bind/internal.h"

/* ---- queries ---------------------------------------------------------- */

size_t tk_bind_source_to_stage(const tk_bind *ix, tk_file_id file,
                               uint32_t line, tk_match match,
                               tk_stage_kind stage, const uint32_t **lines)
{
    *lines = NULL;
    if (stage >= TK_STAGE_COUNT || !ix->st[stage].stage)
        return 0;
    const bind_ref_index *r = match == TK_MATCH_EXACT ? &ix->st[stage].exact
                                                 : &ix->st[stage].called;
    size_t lo, hi;
    bind_ref_range(r, bind_pos_key(file, line), &lo, &hi);
    *lines = hi > lo ? r->lines + lo : NULL;
    return hi - lo;
}

size_t tk_bind_source_refs(const tk_bind *ix, tk_stage_kind stage,
                           const tk_source_ref **refs)
{
    *refs = NULL;
    if (stage >= TK_STAGE_COUNT || !ix->st[stage].stage)
        return 0;
    bind_source_refs_build(ix, stage);
    *refs = ix->st[stage].refs;
    return ix->st[stage].n_refs;
}

uint32_t tk_bind_bound_line_count(const tk_bind *ix, tk_stage_kind stage)
{
    return stage < TK_STAGE_COUNT && ix->st[stage].stage ? ix->st[stage].n_bound
                                                         : 0;
}

/* Whether stack A (of a stage with inline frames or not) denotes the same
 * place as stack B.  A lone frame from a stage that records no inline frames
 * says only where the innermost code came from, so only that is compared. */
static gboolean stacks_match(const tk_bind *ix, tk_stack_id a,
                             gboolean a_inline, tk_stack_id b, gboolean b_inline)
{
    size_t na, nb;
    const tk_frame *fa = tk_loctab_stack_frames(ix->tab, a, &na);
    const tk_frame *fb = tk_loctab_stack_frames(ix->tab, b, &nb);
    if ((na == 1 && !a_inline) || (nb == 1 && !b_inline))
        return tk_frame_same_place(fa[0], fb[0]);
    if (na != nb)
        return FALSE;
    for (size_t i = 0; i < na; i++)
        if (!tk_frame_same_place(fa[i], fb[i]))
            return FALSE;
    return TRUE;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static size_t sorted_unique(GArray *a, uint32_t **out)
{
    if (a->len) /* an empty GArray may have no data: qsort wants some */
        qsort(a->data, a->len, sizeof(uint32_t), cmp_u32);
    guint w = 0;
    for (guint i = 0; i < a->len; i++)
        if (w == 0 || g_array_index(a, uint32_t, w - 1) != g_array_index(a, uint32_t, i))
            g_array_index(a, uint32_t, w++) = g_array_index(a, uint32_t, i);
    size_t n = w;
    *out = NULL;
    if (n) {
        /* The caller frees with free(): allocate with malloc, not g_malloc. */
        *out = malloc(n * sizeof(uint32_t));
        if (!*out)
            n = 0;
        else
            memcpy(*out, a->data, n * sizeof(uint32_t));
    }
    g_array_free(a, TRUE);
    return n;
}

/* The irloc-stage lines that line LINE of later stage KIND points at. */
static void irloc_targets(const tk_bind *ix, tk_stage_kind kind, uint32_t line,
                          GArray *out)
{
    const tk_stack_id *ids;
    size_t n = tk_stage_line_stacks(ix->st[kind].stage, line, &ids);
    for (size_t i = 0; i < n; i++) {
        size_t nfr;
        const tk_frame *fr = tk_loctab_stack_frames(ix->tab, ids[i], &nfr);
        if (bind_is_irloc_file(ix, fr[0].file))
            g_array_append_val(out, fr[0].line);
    }
}

/* The lines of later stage KIND that point at irloc-stage line TARGET. */
static void irloc_sources(const tk_bind *ix, tk_stage_kind kind,
                          uint32_t target, GArray *out)
{
    const bind_stage_index *s = &ix->st[kind];
    uint64_t lo_key = (uint64_t)target << 32;
    size_t a = bind_lower_bound(s->irloc_pairs, s->n_irloc_pairs, lo_key);
    for (; a < s->n_irloc_pairs && s->irloc_pairs[a] >> 32 == target; a++) {
        uint32_t l = (uint32_t)s->irloc_pairs[a];
        g_array_append_val(out, l);
    }
}

size_t tk_bind_stage_to_stage(const tk_bind *ix, tk_stage_kind from,
                              uint32_t line, tk_stage_kind to,
                              uint32_t **lines)
{
    *lines = NULL;
    if (from >= TK_STAGE_COUNT || to >= TK_STAGE_COUNT ||
        !ix->st[from].stage || !ix->st[to].stage || line == 0 ||
        line > tk_stage_line_count(ix->st[from].stage))
        return 0;
    GArray *out = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    tk_stage_kind k = ix->irloc_stage;
    if (k != TK_STAGE_UNKNOWN && (from == k || from > k) && (to == k || to > k) &&
        from != to) {
        /* Exact: the capture says which IR line each later line came from. */
        GArray *targets = g_array_new(FALSE, FALSE, sizeof(uint32_t));
        if (from == k)
            g_array_append_val(targets, line);
        else
            irloc_targets(ix, from, line, targets);
        for (guint i = 0; i < targets->len; i++) {
            uint32_t t = g_array_index(targets, uint32_t, i);
            if (to == k)
                g_array_append_val(out, t);
            else
                irloc_sources(ix, to, t, out);
        }
        g_array_free(targets, TRUE);
        return sorted_unique(out, lines);
    }
    const bind_stage_index *a = &ix->st[from], *b = &ix->st[to];
    const tk_stack_id *ids;
    size_t n = tk_bind_line_stacks(ix, from, line, &ids);
    for (size_t i = 0; i < n; i++) {
        size_t nfr;
        const tk_frame *fr = tk_loctab_stack_frames(ix->tab, ids[i], &nfr);
        size_t lo, hi;
        bind_ref_range(&b->exact, bind_pos_key(fr[0].file, fr[0].line), &lo, &hi);
        for (size_t c = lo; c < hi; c++) {
            const tk_stack_id *cids;
            size_t cn = tk_bind_line_stacks(ix, to, b->exact.lines[c], &cids);
            for (size_t j = 0; j < cn; j++)
                if (stacks_match(ix, ids[i], a->inline_frames ||
                                                 tk_bind_stack_inferred(ix, from, line),
                                 cids[j], b->inline_frames ||
                                              tk_bind_stack_inferred(ix, to, b->exact.lines[c]))) {
                    g_array_append_val(out, b->exact.lines[c]);
                    break;
                }
        }
    }
    return sorted_unique(out, lines);
}

/* ---- statements, shared helper code, approximate matches --------------- */

size_t tk_bind_lines_to_stage(const tk_bind *ix, tk_file_id file, uint32_t first,
                              uint32_t last, tk_match match, tk_stage_kind stage,
                              uint32_t **lines)
{
    GArray *out = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    for (uint32_t l = first; l <= last && l >= first; l++) {
        const uint32_t *ls;
        size_t n = tk_bind_source_to_stage(ix, file, l, match, stage, &ls);
        g_array_append_vals(out, ls, (guint)n);
        if (l == UINT32_MAX)
            break;
    }
    return sorted_unique(out, lines);
}

/* The index, counted from the outer end, of the frame of F (N frames) at
 * FILE with a line in [FIRST, LAST], not the innermost one; -1 when none. */
static long caller_depth(const tk_frame *f, size_t n, tk_file_id file,
                         uint32_t first, uint32_t last)
{
    for (size_t i = 1; i < n; i++)
        if (f[i].file == file && f[i].line >= first && f[i].line <= last)
            return (long)(n - 1 - i);
    return -1;
}

long bind_line_conflict_of(const tk_bind *ix, tk_stage_kind stage, uint32_t line,
                           const tk_stack_id *ids, size_t n)
{
    const bind_stage_index *s = &ix->st[stage];
    if (n != 1 || tk_bind_stack_inferred(ix, stage, line))
        return -1;
    size_t nfr;
    const tk_frame *fr = tk_loctab_stack_frames(ix->tab, ids[0], &nfr);
    if (nfr != 1)
        return -1;
    uint64_t key = bind_pos_key(fr[0].file, fr[0].line);
    size_t a = bind_lower_bound(s->conflict_keys, s->n_conflicts, key);
    return a < s->n_conflicts && s->conflict_keys[a] == key ? (long)a : -1;
}

size_t bind_certain_frames_at(const bind_stage_index *s, long c, const tk_frame **frames)
{
    *frames = NULL;
    if (c < 0)
        return 0;
    size_t n = s->certain_off[c + 1] - s->certain_off[c];
    *frames = n ? s->certain + s->certain_off[c] : NULL;
    return n;
}

/* The conflict (an index into conflict_keys) of line LINE of STAGE, or -1
 * for a line bound without doubt. */
static long line_conflict(const tk_bind *ix, tk_stage_kind stage, uint32_t line)
{
    if (stage >= TK_STAGE_COUNT || !ix->st[stage].stage || !ix->st[stage].n_conflicts)
        return -1;
    const tk_stack_id *ids;
    size_t n = tk_bind_line_stacks(ix, stage, line, &ids);
    return bind_line_conflict_of(ix, stage, line, ids, n);
}

size_t tk_bind_line_call_sites(const tk_bind *ix, tk_stage_kind stage,
                               uint32_t line, const tk_stack_id **stacks)
{
    *stacks = NULL;
    long c = line_conflict(ix, stage, line);
    if (c < 0)
        return 0;
    const bind_stage_index *s = &ix->st[stage];
    *stacks = s->conflict_stacks + s->conflict_off[c];
    return s->conflict_off[c + 1] - s->conflict_off[c];
}

size_t tk_bind_line_certain_frames(const tk_bind *ix, tk_stage_kind stage,
                                   uint32_t line, const tk_frame **frames)
{
    long c = line_conflict(ix, stage, line);
    return bind_certain_frames_at(&ix->st[stage], c, frames);
}

/* Whether conflict C's lines are certain code of some line FIRST..LAST of
 * FILE: every one of its stacks passes through that line. */
static gboolean conflict_certain_in(const bind_stage_index *s, size_t c,
                                    tk_file_id file, uint32_t first, uint32_t last)
{
    for (uint32_t j = s->certain_off[c]; j < s->certain_off[c + 1]; j++)
        if (s->certain[j].file == file && s->certain[j].line >= first &&
            s->certain[j].line <= last)
            return TRUE;
    return FALSE;
}

static gint cmp_frame_place(gconstpointer a, gconstpointer b, gpointer tab)
{
    const tk_frame *x = a, *y = b;
    if (x->file != y->file)
        return strcmp(tk_loctab_file_path(tab, x->file), tk_loctab_file_path(tab, y->file));
    return (x->line > y->line) - (x->line < y->line);
}

size_t tk_bind_shared_lines(const tk_bind *ix, tk_file_id file, uint32_t first,
                            uint32_t last, tk_stage_kind stage, tk_bind_shared *out)
{
    memset(out, 0, sizeof *out);
    if (stage >= TK_STAGE_COUNT || !ix->st[stage].stage || !ix->st[stage].n_conflicts)
        return 0;
    const bind_stage_index *s = &ix->st[stage];
    GArray *lines = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    GArray *sites = g_array_new(FALSE, FALSE, sizeof(tk_frame));
    for (size_t c = 0; c < s->n_conflicts; c++) {
        tk_file_id pf = (tk_file_id)(s->conflict_keys[c] >> 32);
        uint32_t pl = (uint32_t)s->conflict_keys[c];
        if (pf == file && pl >= first && pl <= last)
            continue; /* the query's own code: bound to it exactly */
        if (conflict_certain_in(s, c, file, first, last))
            continue; /* every call passes through the query: bound to it */
        const tk_stack_id *st = s->conflict_stacks + s->conflict_off[c];
        size_t ns = s->conflict_off[c + 1] - s->conflict_off[c];
        gboolean relevant = FALSE;
        for (size_t i = 0; i < ns && !relevant; i++) {
            size_t nfr;
            const tk_frame *fr = tk_loctab_stack_frames(ix->tab, st[i], &nfr);
            relevant = caller_depth(fr, nfr, file, first, last) >= 0;
        }
        if (!relevant)
            continue;
        /* The call sites: the frames, counted from the outer end, at the
         * first depth where the stacks part. */
        size_t d = 0;
        for (;; d++) {
            gboolean parted = FALSE, ended = FALSE;
            tk_frame head = {0, 0, 0};
            for (size_t i = 0; i < ns; i++) {
                size_t nfr;
                const tk_frame *fr = tk_loctab_stack_frames(ix->tab, st[i], &nfr);
                if (d >= nfr) {
                    ended = TRUE;
                    break;
                }
                tk_frame f = fr[nfr - 1 - d];
                if (i == 0)
                    head = f;
                else if (f.file != head.file || f.line != head.line)
                    parted = TRUE;
            }
            if (parted || ended)
                break;
        }
        for (size_t i = 0; i < ns; i++) {
            size_t nfr;
            const tk_frame *fr = tk_loctab_stack_frames(ix->tab, st[i], &nfr);
            if (d >= nfr)
                continue;
            tk_frame f = fr[nfr - 1 - d];
            f.col = 0;
            gboolean seen = FALSE;
            for (guint j = 0; j < sites->len && !seen; j++) {
                tk_frame g = g_array_index(sites, tk_frame, j);
                seen = g.file == f.file && g.line == f.line;
            }
            if (!seen)
                g_array_append_val(sites, f);
        }
        size_t lo, hi;
        bind_ref_range(&s->exact, s->conflict_keys[c], &lo, &hi);
        for (size_t i = lo; i < hi; i++) {
            uint32_t l = s->exact.lines[i];
            if (!tk_bind_stack_inferred(ix, stage, l) &&
                tk_stage_line_kind(s->stage, l) == TK_LINE_INSTRUCTION)
                g_array_append_val(lines, l);
        }
    }
    if (sites->len)
        g_qsort_with_data(sites->data, (gint)sites->len, sizeof(tk_frame),
                          cmp_frame_place, ix->tab);
    out->n_sites = sites->len;
    out->sites = out->n_sites ? malloc(out->n_sites * sizeof(tk_frame)) : NULL;
    if (out->sites)
        memcpy(out->sites, sites->data, out->n_sites * sizeof(tk_frame));
    else
        out->n_sites = 0;
    g_array_free(sites, TRUE);
    out->n_lines = sorted_unique(lines, &out->lines);
    if (!out->n_lines) {
        free(out->sites);
        out->sites = NULL;
        out->n_sites = 0;
    }
    return out->n_lines;
}

void tk_bind_shared_clear(tk_bind_shared *s)
{
    if (!s)
        return;
    free(s->lines);
    free(s->sites);
    memset(s, 0, sizeof *s);
}

int tk_bind_match_approximate(const tk_bind *ix, tk_stage_kind from, uint32_t line,
                              tk_stage_kind to, uint32_t to_line)
{
    if (from >= TK_STAGE_COUNT || to >= TK_STAGE_COUNT || !ix->st[from].stage ||
        !ix->st[to].stage)
        return 0;
    tk_stage_kind k = ix->irloc_stage;
    if (k != TK_STAGE_UNKNOWN && from >= k && to >= k)
        return 0; /* the capture says which line came from which */
    gboolean a_inline = ix->st[from].inline_frames || tk_bind_stack_inferred(ix, from, line);
    gboolean b_inline = ix->st[to].inline_frames || tk_bind_stack_inferred(ix, to, to_line);
    const tk_stack_id *a, *b;
    size_t na = tk_bind_line_stacks(ix, from, line, &a);
    size_t nb = tk_bind_line_stacks(ix, to, to_line, &b);
    int approx = 0;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++) {
            if (!stacks_match(ix, a[i], a_inline, b[j], b_inline))
                continue;
            size_t fa, fb;
            tk_loctab_stack_frames(ix->tab, a[i], &fa);
            tk_loctab_stack_frames(ix->tab, b[j], &fb);
            if ((fa == 1 && !a_inline && fb > 1) || (fb == 1 && !b_inline && fa > 1))
                approx = 1; /* matched on the innermost frame only */
            else
                return 0; /* a whole-stack match */
        }
    return approx;
}
