/* plan.c - which texts each pass of a timeline compares, decided
 * from the index alone (no dump is read here).
 *
 * The dumps of all parts are walked in pipeline order.  Each dialect family
 * (MLIR, LLVM IR, machine code) keeps the state of its IR as references to
 * dumps: the latest whole-module dump (the base) and, for each function
 * printed on its own since, the dump of its latest version.  The text
 * "before" a pass is read off that state; a Before dump waits (pending) for
 * the next text of its family to become its "after".  See tk_timeline.h for
 * the rules this implements.
 */
#include <string.h>

#include "timeline/internal.h"

enum { FAM_MLIR, FAM_LLVM, FAM_MIR, FAM_N };

typedef enum { UNIT_NONE, UNIT_MODULE, UNIT_FUNCS, UNIT_LOOP } unit_kind;

/* Packs a (part, dump) reference into a hash table value. */
#define REF_PACK(part, dump) GSIZE_TO_POINTER((((gsize)(part)) << 40) | ((gsize)(dump) + 1))
#define REF_PART(v) ((size_t)(GPOINTER_TO_SIZE(v) >> 40))
#define REF_DUMP(v) ((size_t)((GPOINTER_TO_SIZE(v) & (((gsize)1 << 40) - 1)) - 1))

typedef struct {
    size_t base_part, base_dump; /* TK_TL_NONE: no module seen */
    GHashTable *funcs;           /* name -> packed ref of its latest text */
    GPtrArray *order;            /* FUNCS's names, first seen first */
    GHashTable *looped;          /* functions loop passes ran on since */
    size_t loop_part, loop_dump; /* the last dump, if a loop dump */
    const char *loop_scope;
    GArray *pending;             /* size_t: Before entries awaiting "after" */
} fam_state;

typedef struct {
    tk_timeline *tl;
    fam_state fam[FAM_N];
    GArray *internal; /* tl_internal_dump, in sequence order */
} planner;

static int family_of(const tk_pass_dump *d)
{
    switch (d->kind) {
    case TK_PASS_MLIR:
    case TK_PASS_MLIR_INTERNAL:
        return FAM_MLIR;
    case TK_PASS_LLVM_MACHINE:
        return FAM_MIR;
    default:
        return FAM_LLVM;
    }
}

static unit_kind unit_of(const tk_pass_dump *d)
{
    if (d->status != TK_PASS_PRINTED || (d->flags & TK_PASS_EMPTY))
        return UNIT_NONE;
    switch (family_of(d)) {
    case FAM_MLIR:
        return UNIT_MODULE;
    case FAM_MIR:
        return d->n_functions ? UNIT_FUNCS : UNIT_NONE;
    default:
        if (d->when == TK_PASS_AT_START || d->scope_kind == TK_PASS_SCOPE_MODULE)
            return UNIT_MODULE;
        if (d->scope_kind == TK_PASS_SCOPE_LOOP)
            return UNIT_LOOP;
        return d->n_functions ? UNIT_FUNCS : UNIT_NONE;
    }
}

static int defines(const tk_pass_dump *d, const char *name)
{
    for (size_t i = 0; i < d->n_functions; i++)
        if (strcmp(d->functions[i], name) == 0)
            return 1;
    return 0;
}

/* The latest text of function NAME in family state F: its own dump, else
 * the base module when it defines it.  Returns 0 when there is none. */
static int latest_of(const planner *p, const fam_state *f, const char *name,
                     size_t *part, size_t *dump)
{
    gpointer v = g_hash_table_lookup(f->funcs, name);
    if (v) {
        *part = REF_PART(v);
        *dump = REF_DUMP(v);
        return 1;
    }
    if (f->base_part == TK_TL_NONE)
        return 0;
    if (!defines(tl_dump(p->tl, f->base_part, f->base_dump), name))
        return 0;
    *part = f->base_part;
    *dump = f->base_dump;
    return 1;
}

static void set_meta(const fam_state *f, int fam, tk_timeline_side *s)
{
    if (fam == FAM_LLVM && f->base_part != TK_TL_NONE) {
        s->meta_part = f->base_part;
        s->meta_dump = f->base_dump;
    }
}

/* The whole module as family F has it now. */
static tk_timeline_side view_module(planner *p, int fam)
{
    fam_state *f = &p->fam[fam];
    if (f->base_part == TK_TL_NONE)
        return tl_side_none();
    const tk_pass_dump *base = tl_dump(p->tl, f->base_part, f->base_dump);
    size_t n = 0;
    for (size_t i = 0; i < base->n_functions; i++)
        n += g_hash_table_contains(f->funcs, base->functions[i]);
    tk_timeline_side s = tl_side_dump(f->base_part, f->base_dump);
    if (n == 0)
        return s;
    tk_timeline_piece *pc = tl_pieces_alloc(p->tl, n);
    size_t k = 0;
    for (size_t i = 0; i < base->n_functions; i++) {
        gpointer v = g_hash_table_lookup(f->funcs, base->functions[i]);
        if (!v)
            continue;
        pc[k].function = base->functions[i];
        pc[k].part = REF_PART(v);
        pc[k].dump = REF_DUMP(v);
        k++;
    }
    s.kind = TK_SIDE_STATE;
    s.pieces = pc;
    s.n_pieces = n;
    return s;
}

/* The functions NAMES as family F has them now (those it has at all). */
static tk_timeline_side view_funcs(planner *p, int fam,
                                   const char *const *names, size_t n_names)
{
    fam_state *f = &p->fam[fam];
    size_t n = 0, part, dump;
    for (size_t i = 0; i < n_names; i++)
        n += latest_of(p, f, names[i], &part, &dump);
    if (n == 0)
        return tl_side_none();
    tk_timeline_piece *pc = tl_pieces_alloc(p->tl, n);
    size_t k = 0;
    for (size_t i = 0; i < n_names; i++) {
        if (!latest_of(p, f, names[i], &part, &dump))
            continue;
        pc[k].function = names[i];
        pc[k].part = part;
        pc[k].dump = dump;
        k++;
    }
    tk_timeline_side s = tl_side_none();
    s.kind = TK_SIDE_FUNCTIONS;
    s.pieces = pc;
    s.n_pieces = n;
    set_meta(f, fam, &s);
    return s;
}

/* What dump D (of unit U) shows, as a side. */
static tk_timeline_side view_of_dump(planner *p, int fam, size_t part,
                                     size_t dump, unit_kind u)
{
    const tk_pass_dump *d = tl_dump(p->tl, part, dump);
    if (u != UNIT_FUNCS)
        return tl_side_dump(part, dump);
    tk_timeline_piece *pc = tl_pieces_alloc(p->tl, d->n_functions);
    for (size_t i = 0; i < d->n_functions; i++) {
        pc[i].function = d->functions[i];
        pc[i].part = part;
        pc[i].dump = dump;
    }
    tk_timeline_side s = tl_side_none();
    s.kind = TK_SIDE_FUNCTIONS;
    s.pieces = pc;
    s.n_pieces = d->n_functions;
    set_meta(&p->fam[fam], fam, &s);
    return s;
}

/* The whole unit of family FAM now, for TK_TIMELINE_WHOLE_UNITS: the
 * module with every function at its latest text, or (no module dump, as in
 * machine code) every function seen, first seen first.  None when that
 * would leave out a function of dump D: one the module does not define. */
static tk_timeline_side view_whole(planner *p, int fam, const tk_pass_dump *d)
{
    fam_state *f = &p->fam[fam];
    if (f->base_part != TK_TL_NONE) {
        const tk_pass_dump *base = tl_dump(p->tl, f->base_part, f->base_dump);
        for (size_t i = 0; i < d->n_functions; i++)
            if (!defines(base, d->functions[i]))
                return tl_side_none();
        return view_module(p, fam);
    }
    if (f->order->len == 0)
        return tl_side_none();
    return view_funcs(p, fam, (const char *const *)f->order->pdata, f->order->len);
}

/* Records dump D as the family's newest text of what it shows. */
static void apply(planner *p, int fam, size_t part, size_t dump, unit_kind u)
{
    fam_state *f = &p->fam[fam];
    const tk_pass_dump *d = tl_dump(p->tl, part, dump);
    switch (u) {
    case UNIT_MODULE:
        f->base_part = part;
        f->base_dump = dump;
        g_hash_table_remove_all(f->funcs);
        g_hash_table_remove_all(f->looped);
        g_ptr_array_set_size(f->order, 0);
        break;
    case UNIT_FUNCS:
        for (size_t i = 0; i < d->n_functions; i++) {
            if (!g_hash_table_contains(f->funcs, d->functions[i]))
                g_ptr_array_add(f->order, (gpointer)d->functions[i]);
            g_hash_table_insert(f->funcs, (gpointer)d->functions[i],
                                REF_PACK(part, dump));
            g_hash_table_remove(f->looped, d->functions[i]);
        }
        break;
    case UNIT_LOOP:
        g_hash_table_add(f->looped, (gpointer)d->scope_name);
        break;
    default:
        break;
    }
    if (u == UNIT_LOOP) {
        f->loop_part = part;
        f->loop_dump = dump;
        f->loop_scope = d->scope;
    } else {
        f->loop_part = TK_TL_NONE;
    }
}

static tk_timeline_entry *entry_at(planner *p, size_t i)
{
    return &g_array_index(p->tl->entries, tk_timeline_entry, i);
}

/* The unit a Before entry compares: what its own dump showed. */
static unit_kind entry_unit(planner *p, const tk_timeline_entry *e)
{
    return unit_of(tl_dump(p->tl, e->part, e->dump));
}

/* Gives pending Before entries of family FAM their "after" text, now that
 * dump D (of unit U) has been applied.  An entry of some functions waits for
 * a text of one of them. */
static void resolve_pending(planner *p, int fam, const tk_pass_dump *d,
                            unit_kind u)
{
    fam_state *f = &p->fam[fam];
    if (u == UNIT_LOOP || u == UNIT_NONE)
        return;
    for (guint i = 0; i < f->pending->len;) {
        tk_timeline_entry *e = entry_at(p, g_array_index(f->pending, size_t, i));
        unit_kind eu = entry_unit(p, e);
        const tk_pass_dump *ed = tl_dump(p->tl, e->part, e->dump);
        int hit = eu == UNIT_MODULE || u == UNIT_MODULE;
        for (size_t k = 0; !hit && k < ed->n_functions; k++)
            hit = defines(d, ed->functions[k]);
        if (!hit) {
            i++;
            continue;
        }
        e->after = eu == UNIT_MODULE
                       ? view_module(p, fam)
                       : view_funcs(p, fam, ed->functions, ed->n_functions);
        g_array_remove_index(f->pending, i);
    }
}

/* The level a dump without a body belongs to, for display: the level of the
 * dump before it in the sequence. */
static tk_pass_level level_or(tk_pass_level level, tk_pass_level prev)
{
    return level != TK_PASS_LEVEL_UNKNOWN ? level : prev;
}

static void plan_dump(planner *p, size_t part, size_t dump, size_t pos,
                      tk_pass_level *prev_level)
{
    const tk_pass_dump *d = tl_dump(p->tl, part, dump);
    int fam = family_of(d);
    fam_state *f = &p->fam[fam];
    unit_kind u = unit_of(d);

    if (d->kind == TK_PASS_MLIR_INTERNAL) {
        tl_internal_dump x = {part, dump, pos};
        g_array_append_val(p->internal, x);
        return;
    }
    if (d->status != TK_PASS_PRINTED) {
        /* -print-changed banners: a pass, with no text. */
        tk_timeline_entry e = tl_entry_from_dump(p->tl, part, dump);
        e.level = level_or(d->level, *prev_level);
        if (d->status == TK_PASS_NO_CHANGE ||
            d->status == TK_PASS_NO_FUNCTION) {
            e.effect = TK_EFFECT_UNCHANGED;
            /* Its text before and after is its unit's as it stands (LLVM
             * compared the two itself), so that a diff from or to it, or
             * its text, reads what print-after-all would have printed; a
             * loop's own text cannot be cut from its function's: none. */
            if (d->status == TK_PASS_NO_CHANGE && d->scope_kind == TK_PASS_SCOPE_MODULE)
                e.before = e.after = view_module(p, fam);
            else if (d->status == TK_PASS_NO_CHANGE && d->scope_name[0] &&
                     (d->scope_kind == TK_PASS_SCOPE_FUNCTION ||
                      d->scope_kind == TK_PASS_SCOPE_CGSCC))
                e.before = e.after = view_funcs(p, fam, &d->scope_name, 1);
        } else {
            e.why = TK_UNKNOWN_NO_BODY;
        }
        if (d->status == TK_PASS_DELETED && d->scope_name[0])
            g_hash_table_remove(f->funcs, d->scope_name);
        g_array_append_val(p->tl->entries, e);
        return;
    }
    *prev_level = level_or(d->level, *prev_level);
    if (d->when == TK_PASS_AT_START || d->when == TK_PASS_LABEL || u == UNIT_NONE) {
        /* A text that is no pass of its own (or that shows nothing usable). */
        if (u == UNIT_NONE) {
            tk_timeline_entry e = tl_entry_from_dump(p->tl, part, dump);
            e.why = TK_UNKNOWN_NO_BODY;
            g_array_append_val(p->tl->entries, e);
            return;
        }
        apply(p, fam, part, dump, u);
        resolve_pending(p, fam, d, u);
        return;
    }

    if (d->when == TK_PASS_BEFORE) {
        apply(p, fam, part, dump, u);
        resolve_pending(p, fam, d, u);
        tk_timeline_entry e = tl_entry_from_dump(p->tl, part, dump);
        e.before = view_of_dump(p, fam, part, dump, u);
        g_array_append_val(p->tl->entries, e);
        size_t idx = p->tl->entries->len - 1;
        g_array_append_val(f->pending, idx);
        return;
    }

    /* An After dump.  The Before dump of the same pass and scope just
     * before it is the same pass: this is its "after". */
    if (f->pending->len) {
        size_t idx = g_array_index(f->pending, size_t, f->pending->len - 1);
        tk_timeline_entry *pe = entry_at(p, idx);
        if (idx == p->tl->entries->len - 1 && pe->when == TK_PASS_BEFORE &&
            strcmp(pe->pass, d->pass) == 0 && strcmp(pe->scope, d->scope) == 0) {
            g_array_remove_index(f->pending, f->pending->len - 1);
            apply(p, fam, part, dump, u);
            pe = entry_at(p, idx);
            pe->after = view_of_dump(p, fam, part, dump, u);
            pe->flags |= TK_TL_MERGED;
            resolve_pending(p, fam, d, u);
            return;
        }
    }
    tk_timeline_entry e = tl_entry_from_dump(p->tl, part, dump);
    if (u == UNIT_LOOP) {
        /* A legacy loop pass names no loop: which one it printed is not
         * known, so it is compared with nothing. */
        if (f->loop_part != TK_TL_NONE && d->scope[0] && strcmp(f->loop_scope, d->scope) == 0)
            e.before = tl_side_dump(f->loop_part, f->loop_dump);
    } else if (u == UNIT_MODULE) {
        e.before = view_module(p, fam);
        GHashTableIter it;
        gpointer key;
        g_hash_table_iter_init(&it, f->looped);
        if (g_hash_table_iter_next(&it, &key, NULL))
            e.flags |= TK_TL_SPANS_LOOPS;
    } else {
        e.before = view_funcs(p, fam, d->functions, d->n_functions);
        for (size_t i = 0; i < d->n_functions; i++)
            if (g_hash_table_contains(f->looped, d->functions[i]))
                e.flags |= TK_TL_SPANS_LOOPS;
    }
    /* Whole units: the functions' texts before are the module's (or all
     * functions') as it stands, once every function was seen. */
    int whole = 0;
    if (u == UNIT_FUNCS && (p->tl->flags & TK_TIMELINE_WHOLE_UNITS) &&
        e.before.kind != TK_SIDE_NONE) {
        tk_timeline_side wb = view_whole(p, fam, d);
        int all_seen = 1;
        for (size_t i = 0; wb.kind == TK_SIDE_FUNCTIONS && i < d->n_functions; i++)
            all_seen &= g_hash_table_contains(f->funcs, d->functions[i]);
        if (wb.kind != TK_SIDE_NONE && all_seen) {
            e.before = wb;
            whole = 1;
        }
    }
    apply(p, fam, part, dump, u);
    resolve_pending(p, fam, d, u);
    e.after = whole ? view_whole(p, fam, d) : view_of_dump(p, fam, part, dump, u);
    if (e.before.kind == TK_SIDE_NONE) {
        e.why = TK_UNKNOWN_NO_BEFORE;
        e.flags &= ~TK_TL_SPANS_LOOPS;
    }
    g_array_append_val(p->tl->entries, e);
}

/* The final stage that holds the IR at the end of LEVEL, if the kernel has
 * it: Triton writes each stage's file when that stage's passes are done. */
static tk_stage_kind final_of_level(const tk_timeline *tl, tk_pass_level level)
{
    tk_stage_kind k;
    switch (level) {
    case TK_PASS_LEVEL_TTIR:
        k = TK_STAGE_TTIR;
        break;
    case TK_PASS_LEVEL_TTGIR:
        k = TK_STAGE_TTGIR;
        break;
    case TK_PASS_LEVEL_LLVM_IR:
        k = TK_STAGE_LLIR;
        break;
    default:
        return TK_STAGE_UNKNOWN;
    }
    if (!tl->kernel || !tk_kernel_stage(tl->kernel, k))
        return TK_STAGE_UNKNOWN;
    return k;
}

static void finish_pending(planner *p)
{
    for (int fam = 0; fam < FAM_N; fam++) {
        GArray *pend = p->fam[fam].pending;
        for (guint i = 0; i < pend->len; i++) {
            tk_timeline_entry *e = entry_at(p, g_array_index(pend, size_t, i));
            tk_stage_kind k = final_of_level(p->tl, e->level);
            if (k == TK_STAGE_UNKNOWN) {
                e->why = TK_UNKNOWN_NO_AFTER;
                continue;
            }
            e->after = tl_side_none();
            e->after.kind = TK_SIDE_FINAL;
            e->after.final = k;
            e->flags |= TK_TL_TO_FINAL;
        }
        g_array_set_size(pend, 0);
    }
}

static int by_first_level(gconstpointer a, gconstpointer b, gpointer user)
{
    const tk_timeline_part *x = a, *y = b;
    (void)user;
    tk_pass_level lx = tk_passes_seq(x->passes, x->seq)->first_level;
    tk_pass_level ly = tk_passes_seq(y->passes, y->seq)->first_level;
    return lx < ly ? -1 : lx > ly;
}

void tl_plan(tk_timeline *tl)
{
    /* Pipeline order; g_qsort_with_data is stable. */
    g_qsort_with_data(tl->parts, (gint)tl->n_parts, sizeof(tk_timeline_part),
                      by_first_level, NULL);
    planner p = {.tl = tl};
    for (int f = 0; f < FAM_N; f++) {
        p.fam[f].base_part = p.fam[f].base_dump = TK_TL_NONE;
        p.fam[f].loop_part = TK_TL_NONE;
        p.fam[f].funcs = g_hash_table_new(g_str_hash, g_str_equal);
        p.fam[f].looped = g_hash_table_new(g_str_hash, g_str_equal);
        p.fam[f].order = g_ptr_array_new();
        p.fam[f].pending = g_array_new(FALSE, FALSE, sizeof(size_t));
    }
    p.internal = g_array_new(FALSE, FALSE, sizeof(tl_internal_dump));
    for (size_t part = 0; part < tl->n_parts; part++) {
        const tk_pass_seq *sq = tk_passes_seq(tl->parts[part].passes,
                                              tl->parts[part].seq);
        tk_pass_level prev = TK_PASS_LEVEL_UNKNOWN;
        for (size_t i = 0; i < sq->n_dumps; i++)
            plan_dump(&p, part, sq->dumps[i], i, &prev);
    }
    finish_pending(&p);
    tl_attach_internal(tl, p.internal);
    tl_index_subs(tl);
    tl_mark_damaged(tl, tl->entries);
    tl_mark_damaged(tl, tl->subs);
    for (int f = 0; f < FAM_N; f++) {
        g_hash_table_destroy(p.fam[f].funcs);
        g_hash_table_destroy(p.fam[f].looped);
        g_ptr_array_free(p.fam[f].order, TRUE);
        g_array_free(p.fam[f].pending, TRUE);
    }
    g_array_free(p.internal, TRUE);
}
