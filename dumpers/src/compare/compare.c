/* compare.c - a comparison of two compilations: both timelines built
 * with a digest of every pass's texts taken as they go by (the texts
 * themselves are dropped pass by pass, as the timeline's walker drops them),
 * the final stages compared whole, and the accessors. */
#include <string.h>

#include "compare/internal.h"

const char *tk_compare_align_name(tk_compare_align align)
{
    switch (align) {
    case TK_COMPARE_ONLY_A:
        return "a";
    case TK_COMPARE_ONLY_B:
        return "b";
    default:
        return "both";
    }
}

const char *tk_compare_verdict_name(tk_compare_verdict verdict)
{
    switch (verdict) {
    case TK_COMPARE_SAME:
        return "same";
    case TK_COMPARE_DIFFERENT:
        return "different";
    default:
        return "unknown";
    }
}

/* ---- digests while a timeline is built ---------------------------------- */

static inline uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 29);
}

/* What a diff removed and added: the normalized hashes of its changed
 * lines, in order, each with its side.  Positions are left out: the same
 * pass doing the same thing to two texts that differ elsewhere changes the
 * same lines at other places. */
static uint64_t effect_digest(const tk_ir_diff *d)
{
    const tk_diff_input *in[2] = {tk_normalize_input(tk_ir_diff_normalized(d, TK_IR_A)),
                                  tk_normalize_input(tk_ir_diff_normalized(d, TK_IR_B))};
    size_t n;
    const tk_hunk *h = tk_ir_diff_hunks(d, &n);
    uint64_t x = 0x65666665637421ull;
    for (size_t i = 0; i < n; i++) {
        if (h[i].tag == TK_HUNK_EQUAL)
            continue;
        x = mix(x, 0x2d2d2d);
        for (uint32_t k = h[i].a0; k < h[i].a1 && k < in[0]->n; k++)
            x = mix(x, in[0]->hashes ? in[0]->hashes[k]
                                     : tk_diff_hash(in[0]->lines[k].text, in[0]->lines[k].len));
        x = mix(x, 0x2b2b2b);
        for (uint32_t k = h[i].b0; k < h[i].b1 && k < in[1]->n; k++)
            x = mix(x, in[1]->hashes ? in[1]->hashes[k]
                                     : tk_diff_hash(in[1]->lines[k].text, in[1]->lines[k].len));
    }
    return x > CMP_NO_CHANGE ? x : CMP_NO_CHANGE + 1;
}

struct tk_compare_digests {
    GArray *passes;      /* cmp_pass, by pass index */
    uint64_t last_after; /* the output of the last pass whose texts were read */
};

tk_compare_digests *tk_compare_digests_new(void)
{
    tk_compare_digests *k = g_new0(tk_compare_digests, 1);
    k->passes = g_array_new(FALSE, TRUE, sizeof(cmp_pass));
    return k;
}

void tk_compare_digests_free(tk_compare_digests *k)
{
    if (!k)
        return;
    g_array_free(k->passes, TRUE);
    g_free(k);
}

void tk_compare_digests_step(tk_compare_digests *k, const tk_timeline_step *st)
{
    if (!k || !st || st->substep != TK_TL_NONE)
        return;
    if (st->pass >= k->passes->len)
        g_array_set_size(k->passes, st->pass + 1);
    const tk_timeline_entry *e = st->entry;
    cmp_pass *p = &g_array_index(k->passes, cmp_pass, st->pass);
    p->loop = e->scope_kind == TK_PASS_SCOPE_LOOP;
    p->before = st->before_digest;
    p->after = st->after_digest;
    /* A text not read again is the last one read (tk_timeline_step). */
    if (!p->before && st->continues)
        p->before = k->last_after;
    if (e->effect == TK_EFFECT_UNCHANGED) {
        p->effect = CMP_NO_CHANGE;
        if (!p->after)
            p->after = p->before;
    } else if (e->effect == TK_EFFECT_CHANGED && st->diff) {
        p->effect = effect_digest(st->diff);
    }
    if (p->after && !p->loop)
        k->last_after = p->after;
}

static int on_step(const tk_timeline *tl, const tk_timeline_step *st, void *user)
{
    (void)tl;
    tk_compare_digests_step(user, st);
    return 0;
}

/* SIDE's passes from TL and its digests K (copied, padded to TL's count). */
static void take_passes(cmp_side *side, const tk_compare_digests *k)
{
    size_t n = side->tl ? tk_timeline_count(side->tl) : 0;
    side->n_passes = n;
    side->passes = g_new0(cmp_pass, n ? n : 1);
    if (k)
        memcpy(side->passes, k->passes->data,
               MIN(n, (size_t)k->passes->len) * sizeof(cmp_pass));
}

static void build_side(tk_compare *cmp, int s, unsigned flags, tk_diags *diags)
{
    cmp_side *side = &cmp->side[s];
    if (flags & TK_COMPARE_NO_PASSES)
        return;
    tk_timeline_part *parts;
    size_t n = tk_timeline_parts_of_kernel(side->bundle, side->kernel, &parts, diags);
    if (n == 0) {
        tk_diags_add(diags, TK_DIAG_NOTE, tk_bundle_path(side->bundle), 0,
                     "%s %.12s: no pass dumps; only its metadata and final "
                     "stages are compared", tk_kernel_name(side->kernel),
                     tk_kernel_hash(side->kernel));
        return;
    }
    /* The digests are taken as each pass goes by. */
    tk_timeline_opts opts = {cmp->diff, TK_TIMELINE_WHOLE_UNITS};
    tk_compare_digests *sink = tk_compare_digests_new();
    side->tl = tk_timeline_build_steps(parts, n, side->kernel, &opts, on_step, sink, diags);
    g_free(parts);
    take_passes(side, sink);
    tk_compare_digests_free(sink);
}

static void compare_stages(tk_compare *cmp)
{
    for (int kind = 0; kind < TK_STAGE_COUNT; kind++) {
        tk_compare_stage *cs = &cmp->stages[kind];
        const tk_stage *a = tk_kernel_stage(cmp->side[0].kernel, (tk_stage_kind)kind);
        const tk_stage *b = tk_kernel_stage(cmp->side[1].kernel, (tk_stage_kind)kind);
        cs->have[0] = a != NULL;
        cs->have[1] = b != NULL;
        cs->verdict = TK_COMPARE_UNKNOWN;
        if (!a || !b)
            continue;
        tk_ir_diff *d = tk_ir_diff_stages(a, b, &cmp->diff);
        if (!d)
            continue;
        cs->stats = tk_ir_diff_stats(d);
        cs->verdict = cs->stats.added || cs->stats.removed ? TK_COMPARE_DIFFERENT
                                                           : TK_COMPARE_SAME;
        tk_ir_diff_free(d);
    }
}

tk_compare *tk_compare_build(tk_bundle *bundle_a, const tk_kernel *kernel_a,
                             tk_bundle *bundle_b, const tk_kernel *kernel_b,
                             const tk_compare_opts *opts, tk_diags *diags)
{
    return tk_compare_build_from(bundle_a, kernel_a, NULL, NULL, bundle_b, kernel_b, NULL, NULL,
                                 opts, diags);
}

tk_compare *tk_compare_build_from(tk_bundle *bundle_a, const tk_kernel *kernel_a,
                                  const tk_timeline *tl_a, const tk_compare_digests *dig_a,
                                  tk_bundle *bundle_b, const tk_kernel *kernel_b,
                                  const tk_timeline *tl_b, const tk_compare_digests *dig_b,
                                  const tk_compare_opts *opts, tk_diags *diags)
{
    if (!bundle_a || !kernel_a || !bundle_b || !kernel_b)
        return NULL;
    tk_compare *cmp = g_new0(tk_compare, 1);
    cmp->side[0].bundle = bundle_a;
    cmp->side[0].kernel = kernel_a;
    cmp->side[1].bundle = bundle_b;
    cmp->side[1].kernel = kernel_b;
    cmp->strings = g_string_chunk_new(4096);
    cmp->first = TK_COMPARE_NONE;
    unsigned flags = 0;
    if (opts) {
        cmp->diff = opts->diff;
        flags = opts->flags;
    }
    /* One timeline after the other: the texts of one are dropped before
     * the other's are read.  A side the caller built is borrowed. */
    const tk_timeline *tl[2] = {tl_a, tl_b};
    const tk_compare_digests *dig[2] = {dig_a, dig_b};
    for (int s = 0; s < 2; s++) {
        if (tl[s] && dig[s] && !(flags & TK_COMPARE_NO_PASSES)) {
            cmp->side[s].tl = (tk_timeline *)tl[s];
            cmp->side[s].borrowed = 1;
            take_passes(&cmp->side[s], dig[s]);
        } else {
            build_side(cmp, s, flags, diags);
        }
    }
    cmp_align(cmp);
    compare_stages(cmp);
    return cmp;
}

void tk_compare_free(tk_compare *cmp)
{
    if (!cmp)
        return;
    for (int s = 0; s < 2; s++) {
        if (!cmp->side[s].borrowed)
            tk_timeline_free(cmp->side[s].tl);
        g_free(cmp->side[s].passes);
        tk_config_free(cmp->side[s].config);
    }
    if (cmp->rows)
        g_array_free(cmp->rows, TRUE);
    if (cmp->lines)
        g_array_free(cmp->lines, TRUE);
    g_string_chunk_free(cmp->strings);
    g_free(cmp);
}

const tk_kernel *tk_compare_kernel(const tk_compare *cmp, int side)
{
    return cmp->side[side != 0].kernel;
}

tk_bundle *tk_compare_bundle(const tk_compare *cmp, int side)
{
    return cmp->side[side != 0].bundle;
}

const tk_timeline *tk_compare_timeline(const tk_compare *cmp, int side)
{
    return cmp->side[side != 0].tl;
}

const tk_config *tk_compare_config(tk_compare *cmp, int side)
{
    cmp_side *s = &cmp->side[side != 0];
    if (!s->config)
        s->config = tk_config_read(s->bundle, s->kernel, NULL);
    return s->config;
}

size_t tk_compare_row_count(const tk_compare *cmp)
{
    return cmp->rows ? cmp->rows->len : 0;
}

const tk_compare_row *tk_compare_row_get(const tk_compare *cmp, size_t i)
{
    return i < tk_compare_row_count(cmp) ? &g_array_index(cmp->rows, tk_compare_row, i)
                                         : NULL;
}

size_t tk_compare_first_divergence(const tk_compare *cmp, size_t *unknown_before)
{
    if (unknown_before)
        *unknown_before = cmp->unknown_before;
    return cmp->first;
}

const tk_compare_stage *tk_compare_final_stage(const tk_compare *cmp, tk_stage_kind kind)
{
    return (int)kind >= 0 && kind < TK_STAGE_COUNT ? &cmp->stages[kind] : NULL;
}

/* The pass and text standing for SIDE's IR after row I (OUTPUT) or before
 * it (INPUT); 0 when the side has none. */
static int point_of(const tk_compare *cmp, size_t i, tk_timeline_point which, int s,
                    size_t *pass, tk_timeline_point *at)
{
    const cmp_side *side = &cmp->side[s];
    const tk_compare_row *r = tk_compare_row_get(cmp, i);
    if (!side->tl || !r || side->n_passes == 0)
        return 0;
    if (which == TK_TL_OUTPUT && r->align == TK_COMPARE_BOTH &&
        (side->passes[r->pass[s]].loop || cmp->side[!s].passes[r->pass[!s]].loop)) {
        /* Loop passes: their own texts, a loop each. */
        *pass = r->pass[s];
        *at = TK_TL_OUTPUT;
        return 1;
    }
    size_t state = which == TK_TL_OUTPUT ? r->state[s]
                   : i > 0              ? tk_compare_row_get(cmp, i - 1)->state[s]
                                        : TK_COMPARE_NONE;
    if (state == TK_COMPARE_NONE) {
        *pass = 0; /* before its first pass: that pass's text before */
        *at = TK_TL_INPUT;
    } else {
        *pass = state;
        *at = TK_TL_OUTPUT;
    }
    return 1;
}

tk_ir_diff *tk_compare_diff_row(const tk_compare *cmp, size_t i, tk_timeline_point which,
                                const tk_diff_opts *opts, tk_diags *diags)
{
    return tk_compare_diff_row_kept(cmp, NULL, i, which, opts, diags);
}

tk_ir_diff *tk_compare_diff_row_kept(const tk_compare *cmp, tk_timeline_texts *texts,
                                     size_t i, tk_timeline_point which,
                                     const tk_diff_opts *opts, tk_diags *diags)
{
    size_t pa, pb;
    tk_timeline_point wa, wb;
    if (!point_of(cmp, i, which, 0, &pa, &wa) || !point_of(cmp, i, which, 1, &pb, &wb)) {
        tk_diags_add(diags, TK_DIAG_ERROR, "compare", 0,
                     "row %zu: a side has no pass dumps there", i);
        return NULL;
    }
    return tk_timeline_texts_diff(texts, cmp->side[0].tl, pa, wa, "A: ", cmp->side[1].tl, pb,
                                  wb, "B: ", opts ? opts : &cmp->diff, diags);
}
