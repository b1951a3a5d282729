/* timeline.c - the pass timeline of a kernel: building it (plan, then one
 * streaming walk measuring each effect), its accessors, and diffs between
 * any two of its points. */
#include <string.h>

#include "timeline/internal.h"

static void not_measured(GArray *es)
{
    for (guint i = 0; i < es->len; i++) {
        tk_timeline_entry *e = &g_array_index(es, tk_timeline_entry, i);
        if (e->effect == TK_EFFECT_UNKNOWN && e->why == TK_UNKNOWN_NONE)
            e->why = TK_UNKNOWN_NOT_MEASURED;
    }
}

/* A sub-step's first text against its pass's Before dump: comparable only
 * when both print attribute aliases alike. */
static int substep_incomparable(const tk_timeline *tl, const tk_timeline_entry *e,
                                const tl_walker *w)
{
    return e->parent != TK_TL_NONE && e->before.kind == TK_SIDE_DUMP &&
           tl_dump(tl, e->before.part, e->before.dump)->kind != TK_PASS_MLIR_INTERNAL &&
           tl_walker_alias_styles_differ(w);
}

/* Where tk_timeline_opts.on_step is told about the entries. */
typedef struct {
    tk_timeline_step_fn fn;
    void *user;
    int stopped;
    GArray *hunks;        /* tk_hunk, reused from entry to entry */
    uint64_t prev_after;  /* serial of the last after text read */
    /* TK_TIMELINE_WHOLE_UNITS: the text after the last pass that was not a
     * loop pass, when it was read (loop passes are stepped over). */
    int has_unit;
    tk_timeline_side unit_after;
} step_sink;

static int collect_hunk(const tk_hunk *h, void *user)
{
    g_array_append_val((GArray *)user, *h);
    return 0;
}

/* Digests of the texts an entry compared (tk_timeline_step): RC is what
 * tl_walker_load() returned (1: one text, held by side B). */
typedef struct {
    uint64_t before, after;
} digests;

static digests loaded_digests(tl_walker *w, int rc)
{
    if (rc == 1) {
        uint64_t d = tl_walker_digest(w, TK_IR_B);
        return (digests){d, d};
    }
    return (digests){tl_walker_digest(w, TK_IR_A), tl_walker_digest(w, TK_IR_B)};
}

static void tell(const tk_timeline *tl, step_sink *k, GArray *es, guint i,
                 tk_ir_diff *d, int continues, digests dg)
{
    if (!k->fn || k->stopped)
        return;
    const tk_timeline_entry *e = &g_array_index(es, tk_timeline_entry, i);
    tk_timeline_step st = {
        .pass = e->parent == TK_TL_NONE ? i : e->parent,
        .substep = e->parent == TK_TL_NONE ? TK_TL_NONE : i - tl->sub_first[e->parent],
        .entry = e,
        .diff = d,
        .continues = continues,
        .before_digest = dg.before,
        .after_digest = dg.after,
    };
    k->stopped = k->fn(tl, &st, k->user) != 0;
}

/* An After dump with nothing comparable before it: its text is still read
 * for the step's AFTER_DIGEST (and stays in the walker for the pass after
 * it, whose text before it usually is). */
static digests after_alone(step_sink *k, tl_walker *w, const tk_timeline_entry *e)
{
    digests none = {0, 0};
    if (!k->fn || k->stopped || e->before.kind != TK_SIDE_NONE ||
        e->after.kind == TK_SIDE_NONE ||
        tl_walker_load_one(w, &e->after, tl_entry_dialect(e)) != 0)
        return none;
    return (digests){0, tl_walker_digest(w, TK_IR_B)};
}

/* Measures the effects the plan left open: one walk, in order, telling K
 * about every entry. */
static void measure(tk_timeline *tl, GArray *es, tl_walker *w, step_sink *k)
{
    for (guint i = 0; i < es->len; i++) {
        int want_diff = k->fn && !k->stopped;
        tk_timeline_entry *e = &g_array_index(es, tk_timeline_entry, i);
        int loop = e->scope_kind == TK_PASS_SCOPE_LOOP;
        if (e->effect != TK_EFFECT_UNKNOWN || e->why != TK_UNKNOWN_NONE) {
            /* decided by the plan: a "no change" banner keeps the text */
            if (e->effect != TK_EFFECT_UNCHANGED && !loop)
                k->has_unit = 0;
            tell(tl, k, es, i, NULL, e->effect == TK_EFFECT_UNCHANGED,
                 e->effect == TK_EFFECT_UNKNOWN ? after_alone(k, w, e) : (digests){0, 0});
            continue;
        }
        if (e->before.kind == TK_SIDE_NONE || e->after.kind == TK_SIDE_NONE) {
            e->why = e->before.kind == TK_SIDE_NONE ? TK_UNKNOWN_NO_BEFORE
                                                    : TK_UNKNOWN_NO_AFTER;
            if (!loop)
                k->has_unit = 0;
            tell(tl, k, es, i, NULL, 0, after_alone(k, w, e));
            continue;
        }
        int rc = tl_walker_load(w, &e->before, &e->after, tl_entry_dialect(e));
        if (rc < 0) {
            e->why = TK_UNKNOWN_UNREADABLE;
            if (!loop)
                k->has_unit = 0;
            tell(tl, k, es, i, NULL, 0, (digests){0, 0});
            continue;
        }
        /* After an equal pair (rc 1) side B holds the before text. */
        const tl_text *bt = &w->side[rc == 1 ? TK_IR_B : TK_IR_A];
        uint64_t before = bt->serial;
        int continues = before != 0 && before == k->prev_after;
        k->prev_after = w->side[TK_IR_B].serial;
        if ((tl->flags & TK_TIMELINE_WHOLE_UNITS) && tl_entry_dialect(e) != TK_IR_MLIR) {
            if (loop) {
                continues = 0;
            } else {
                /* The pass after loop passes: its text before is put
                 * together from the same dumps as the last unit. */
                if (!continues && k->has_unit && bt->cacheable &&
                    tl_same_side(&k->unit_after, &e->before))
                    continues = 1;
                k->has_unit = w->side[TK_IR_B].cacheable;
                k->unit_after = e->after;
            }
        }
        if (rc == 1) {
            e->effect = TK_EFFECT_UNCHANGED; /* the same text */
            tell(tl, k, es, i, NULL, continues, want_diff ? loaded_digests(w, 1) : (digests){0, 0});
            continue;
        }
        if (substep_incomparable(tl, e, w)) {
            /* Printed without attribute aliases: the last IR before it is
             * its pass's Before dump, compared with its aliases written
             * out. */
            if (tl_walker_expand_aliases(w) != 0) {
                e->why = TK_UNKNOWN_UNREADABLE;
                tell(tl, k, es, i, NULL, 0, (digests){0, 0});
                continue;
            }
            e->flags |= TK_TL_ALIASES_WRITTEN_OUT;
            continues = 0;
            k->prev_after = 0;
        }
        tk_diff_stats st;
        if (want_diff) {
            /* The same diff tk_normalize_diff_stats() makes, its hunks kept. */
            g_array_set_size(k->hunks, 0);
            tk_normalize_diff(w->side[TK_IR_A].norm, w->side[TK_IR_B].norm, &tl->diff,
                              TK_NORMALIZE_DIFF_KEPT_LINES, collect_hunk, k->hunks);
            st = tk_diff_stats_sum((const tk_hunk *)k->hunks->data, k->hunks->len);
        } else {
            st = tk_normalize_diff_stats(w->side[TK_IR_A].norm, w->side[TK_IR_B].norm,
                                         &tl->diff);
        }
        e->added = st.added;
        e->removed = st.removed;
        e->effect = st.added || st.removed ? TK_EFFECT_CHANGED : TK_EFFECT_UNCHANGED;
        if (want_diff) {
            tk_ir_diff *d = tl_walker_diff(w, e, (const tk_hunk *)k->hunks->data,
                                           k->hunks->len, st);
            tell(tl, k, es, i, d, continues, loaded_digests(w, 0));
            tl_walker_diff_release(d);
        }
    }
}

tk_timeline *tk_timeline_build(const tk_timeline_part *parts, size_t n_parts,
                               const tk_kernel *kernel,
                               const tk_timeline_opts *opts, tk_diags *diags)
{
    return tk_timeline_build_steps(parts, n_parts, kernel, opts, NULL, NULL, diags);
}

tk_timeline *tk_timeline_build_steps(const tk_timeline_part *parts,
                                     size_t n_parts, const tk_kernel *kernel,
                                     const tk_timeline_opts *opts,
                                     tk_timeline_step_fn on_step, void *user,
                                     tk_diags *diags)
{
    if (!parts || n_parts == 0)
        return NULL;
    for (size_t i = 0; i < n_parts; i++)
        if (!parts[i].passes || !tk_passes_seq(parts[i].passes, parts[i].seq))
            return NULL;
    tk_timeline *tl = g_new0(tk_timeline, 1);
    tl->kernel = kernel;
    tl->parts = g_memdup2(parts, n_parts * sizeof *parts);
    tl->n_parts = n_parts;
    tl->entries = g_array_new(FALSE, FALSE, sizeof(tk_timeline_entry));
    tl->subs = g_array_new(FALSE, FALSE, sizeof(tk_timeline_entry));
    tl->piece_blocks = g_ptr_array_new_with_free_func(g_free);
    if (opts) {
        tl->diff = opts->diff;
        tl->flags = opts->flags;
    }
    const char *name = kernel ? tk_kernel_name(kernel) : "";
    for (size_t i = 0; !name[0] && i < n_parts; i++)
        name = tk_passes_seq(parts[i].passes, parts[i].seq)->kernel;
    tl->kernel_name = g_strdup(name);

    tl_plan(tl);
    if (opts && (opts->flags & TK_TIMELINE_NO_MEASURE)) {
        not_measured(tl->entries);
        not_measured(tl->subs);
        return tl;
    }
    tl_walker w;
    tl_walker_init(&w, tl, diags);
    w.reuse_equal = 1;
    step_sink k = {0};
    k.fn = on_step;
    k.user = user;
    k.hunks = g_array_new(FALSE, FALSE, sizeof(tk_hunk));
    measure(tl, tl->entries, &w, &k);
    measure(tl, tl->subs, &w, &k);
    g_array_free(k.hunks, TRUE);
    tl_walker_clear(&w);
    return tl;
}

void tk_timeline_free(tk_timeline *tl)
{
    if (!tl)
        return;
    g_free(tl->kernel_name);
    g_free(tl->parts);
    g_array_free(tl->entries, TRUE);
    g_array_free(tl->subs, TRUE);
    g_free(tl->sub_first);
    g_ptr_array_free(tl->piece_blocks, TRUE);
    g_free(tl);
}

const char *tk_timeline_kernel_name(const tk_timeline *tl)
{
    return tl->kernel_name;
}

const tk_kernel *tk_timeline_kernel(const tk_timeline *tl)
{
    return tl->kernel;
}

size_t tk_timeline_part_count(const tk_timeline *tl)
{
    return tl->n_parts;
}

const tk_timeline_part *tk_timeline_get_part(const tk_timeline *tl, size_t i)
{
    return i < tl->n_parts ? &tl->parts[i] : NULL;
}

size_t tk_timeline_count(const tk_timeline *tl)
{
    return tl->entries->len;
}

const tk_timeline_entry *tk_timeline_get(const tk_timeline *tl, size_t i)
{
    return i < tl->entries->len ? &g_array_index(tl->entries, tk_timeline_entry, i)
                                : NULL;
}

const tk_timeline_entry *tk_timeline_substep(const tk_timeline *tl, size_t i,
                                             size_t j)
{
    const tk_timeline_entry *e = tk_timeline_get(tl, i);
    if (!e || j >= e->n_substeps)
        return NULL;
    return &g_array_index(tl->subs, tk_timeline_entry, tl->sub_first[i] + j);
}

/* ---- diffs between points of the timeline ---------------------------------- */

static tk_ir_diff *diff_sides(const tk_timeline *tl, const tk_timeline_entry *first,
                              const tk_timeline_side *before,
                              const tk_timeline_entry *last,
                              const tk_timeline_side *after,
                              const tk_diff_opts *opts, tk_diags *diags)
{
    if (before->kind == TK_SIDE_NONE || after->kind == TK_SIDE_NONE) {
        /* The words the report and the viewer show for the step. */
        if (before->kind == TK_SIDE_NONE)
            tk_diags_add(diags, TK_DIAG_ERROR, tl->kernel_name, 0, "%s: %s", first->pass,
                         tk_unknown_why_sentence(first->why ? first->why
                                                            : TK_UNKNOWN_NO_BEFORE));
        else
            tk_diags_add(diags, TK_DIAG_ERROR, tl->kernel_name, 0, "%s: %s", last->pass,
                         tk_unknown_why_sentence(last->why ? last->why
                                                           : TK_UNKNOWN_NO_AFTER));
        return NULL;
    }
    tk_ir_dialect d = tl_entry_dialect(first);
    if (tl_entry_dialect(last) != d) {
        tk_diags_add(diags, TK_DIAG_ERROR, tl->kernel_name, 0,
                     "%s (%s) and %s (%s) are not the same kind of IR",
                     first->pass, tk_pass_level_name(first->level), last->pass,
                     tk_pass_level_name(last->level));
        return NULL;
    }
    tl_walker w;
    tl_walker_init(&w, tl, diags);
    if (tl_walker_load(&w, before, after, d) != 0) {
        tl_walker_clear(&w);
        return NULL;
    }
    /* A sub-step printed without aliases: the entry's note says how it was
     * compared (tk_timeline_entry_note()); the names stay the sides'. */
    int expanded = d == TK_IR_MLIR && tl_walker_alias_styles_differ(&w);
    if (expanded && tl_walker_expand_aliases(&w) != 0) {
        tl_walker_clear(&w);
        return NULL;
    }
    /* The walker's texts become the diff's: nothing is read twice. */
    char *na = tk_timeline_side_describe(tl, before);
    char *nb = tk_timeline_side_describe(tl, after);
    tk_ir_diff *diff = tl_walker_take_diff(&w, tl_bind_kind(first), na, nb,
                                           opts ? opts : &tl->diff);
    tl_walker_clear(&w);
    return diff;
}

const char *tk_timeline_entry_note(const tk_timeline_entry *e)
{
    if (e && (e->flags & TK_TL_ALIASES_WRITTEN_OUT))
        return "printed without attribute aliases: compared with the IR before its pass, "
               "whose aliases are written out";
    return NULL;
}

tk_ir_diff *tk_timeline_diff(const tk_timeline *tl, size_t from, size_t to,
                             const tk_diff_opts *opts, tk_diags *diags)
{
    const tk_timeline_entry *f = tk_timeline_get(tl, from);
    const tk_timeline_entry *t = tk_timeline_get(tl, to);
    if (!f || !t || from > to) {
        tk_diags_add(diags, TK_DIAG_ERROR, tl->kernel_name, 0,
                     "no passes %zu to %zu (the timeline has %zu)", from, to,
                     tk_timeline_count(tl));
        return NULL;
    }
    return diff_sides(tl, f, &f->before, t, &t->after, opts, diags);
}

tk_ir_diff *tk_timeline_diff_shown(const tk_timeline *tl, size_t from, size_t to,
                                   const tk_diff_opts *opts, int *after_only,
                                   tk_diags *diags)
{
    const tk_timeline_entry *e = from == to ? tk_timeline_get(tl, from) : NULL;
    int only = e && e->effect == TK_EFFECT_UNKNOWN && e->why == TK_UNKNOWN_NO_BEFORE;
    if (after_only)
        *after_only = only;
    if (only)
        return tk_timeline_diff_across(tl, from, TK_TL_OUTPUT, NULL, tl, from, TK_TL_OUTPUT,
                                       NULL, opts, diags);
    return tk_timeline_diff(tl, from, to, opts, diags);
}

tk_ir_diff *tk_timeline_diff_substep(const tk_timeline *tl, size_t i, size_t j,
                                     const tk_diff_opts *opts, tk_diags *diags)
{
    const tk_timeline_entry *s = tk_timeline_substep(tl, i, j);
    if (!s) {
        tk_diags_add(diags, TK_DIAG_ERROR, tl->kernel_name, 0,
                     "pass %zu has no sub-step %zu", i, j);
        return NULL;
    }
    return diff_sides(tl, s, &s->before, s, &s->after, opts, diags);
}

/* Loads text WHICH of pass I of TL alone into side TK_IR_B of walker W
 * (initialized here; the caller clears it) and names it in *NAME
 * (prefixed; caller frees).  Returns 0, or -1 with a diagnostic. */
static int text_of(tl_walker *w, const tk_timeline *tl, size_t i, tk_timeline_point which,
                   const char *prefix, char **name, tk_diags *diags)
{
    const tk_timeline_entry *e = tk_timeline_get(tl, i);
    *name = NULL;
    tl_walker_init(w, tl, diags);
    if (!e) {
        tk_diags_add(diags, TK_DIAG_ERROR, tl->kernel_name, 0,
                     "no pass %zu (the timeline has %zu)", i, tk_timeline_count(tl));
        return -1;
    }
    const tk_timeline_side *side = which == TK_TL_INPUT ? &e->before : &e->after;
    if (side->kind == TK_SIDE_NONE) {
        tk_diags_add(diags, TK_DIAG_ERROR, tl->kernel_name, 0,
                     "%s (pass %zu): no IR %s it to compare", e->pass, i,
                     which == TK_TL_INPUT ? "before" : "after");
        return -1;
    }
    if (tl_walker_load_one(w, side, tl_entry_dialect(e)) != 0)
        return -1;
    char *what = tk_timeline_side_describe(tl, side);
    *name = g_strdup_printf("%s%s", prefix ? prefix : "", what);
    g_free(what);
    return 0;
}

tk_ir_diff *tk_timeline_diff_across(const tk_timeline *a, size_t i,
                                    tk_timeline_point which_a,
                                    const char *prefix_a,
                                    const tk_timeline *b, size_t j,
                                    tk_timeline_point which_b,
                                    const char *prefix_b,
                                    const tk_diff_opts *opts, tk_diags *diags)
{
    if (!tl_same_dialect(a, i, b, j, diags))
        return NULL;
    const tk_timeline_entry *ea = tk_timeline_get(a, i);
    /* Each text is held as line records by a walker of its own, read back
     * from its own timeline's pass dump files. */
    char *na = NULL, *nb = NULL;
    tl_walker wa, wb;
    tk_ir_diff *d = NULL;
    int ra = text_of(&wa, a, i, which_a, prefix_a, &na, diags);
    int rb = ra == 0 ? text_of(&wb, b, j, which_b, prefix_b, &nb, diags) : -1;
    if (ra == 0 && rb == 0) {
        d = tl_walkers_take_diff(&wa, TK_IR_B, &wb, TK_IR_B, tl_bind_kind(ea), na, nb,
                                 opts ? opts : &a->diff);
        na = nb = NULL; /* taken */
    }
    g_free(na);
    g_free(nb);
    tl_walker_clear(&wa);
    if (ra == 0)
        tl_walker_clear(&wb);
    return d;
}
