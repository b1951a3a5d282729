/* bind.c - the binding index of one kernel.
 *
 * Per stage, the index keeps the stacks it binds with ("effective" stacks:
 * the stage's own, except for SASS lines completed from the PTX (AMDGCN
 * disassembly from the LLVM IR) and for later
 * stages of a USE_IR_LOC capture, which take the stacks of the IR line they
 * point at) and two sorted arrays of (source position, IR line): one keyed by
 * the innermost frame, one by every frame.  A source query is then two binary
 * searches; a stage-to-stage query looks up the innermost frame of each of the
 * line's stacks and filters the candidates by whole-stack equality.
 */
#include "tkdump/tk_bind.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "bind/internal.h"

size_t tk_bind_line_stacks(const tk_bind *ix, tk_stage_kind stage,
                           uint32_t line, const tk_stack_id **ids)
{
    *ids = NULL;
    if (stage >= TK_STAGE_COUNT || !ix->st[stage].stage)
        return 0;
    const bind_stage_index *s = &ix->st[stage];
    if (s->has_eff)
        return read_linemap_get(&s->eff, line, ids);
    return tk_stage_line_stacks(s->stage, line, ids);
}

int tk_bind_stack_inferred(const tk_bind *ix, tk_stage_kind stage,
                           uint32_t line)
{
    if (stage >= TK_STAGE_COUNT || !ix->st[stage].inferred || line == 0 ||
        line > tk_stage_line_count(ix->st[stage].stage))
        return 0;
    return ix->st[stage].inferred[line];
}

tk_stage_kind tk_bind_inferred_from(const tk_bind *ix, tk_stage_kind stage)
{
    return stage < TK_STAGE_COUNT && ix->st[stage].inferred
               ? ix->st[stage].inferred_from
               : TK_STAGE_UNKNOWN;
}

tk_stage_kind tk_bind_irloc_stage(const tk_bind *ix)
{
    return ix->irloc_stage;
}

/* ---- USE_IR_LOC ------------------------------------------------------- */

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* Which stage, if any, the later stages point into.  Triton writes the
 * locations of a USE_IR_LOC capture as lines of the cached NAME.ttir or
 * NAME.ttgir; the stage file found may carry the same base name (cache,
 * dump folder) or have been renamed by a bundle, so both the stage's own base
 * name and NAME.<ext> are accepted. */
static void detect_irloc(tk_bind *ix)
{
    ix->irloc_stage = TK_STAGE_UNKNOWN;
    for (tk_stage_kind k = TK_STAGE_TTIR; k <= TK_STAGE_TTGIR; k++) {
        const tk_stage *ks = ix->st[k].stage;
        if (!ks)
            continue;
        char *own = g_strdup(base_name(tk_stage_path(ks)));
        char *named = g_strdup_printf("%s.%s", tk_kernel_name(ix->kernel),
                                      tk_stage_kind_name(k));
        GHashTable *files = g_hash_table_new(NULL, NULL);
        size_t nf = tk_loctab_file_count(ix->tab);
        for (tk_file_id f = 0; f < nf; f++) {
            const char *b = base_name(tk_loctab_file_path(ix->tab, f));
            if (strcmp(b, own) == 0 || strcmp(b, named) == 0)
                g_hash_table_add(files, GUINT_TO_POINTER(f + 1));
        }
        g_free(own);
        g_free(named);
        gboolean used = FALSE;
        for (tk_stage_kind later = k + 1;
             later < TK_STAGE_COUNT && !used && g_hash_table_size(files); later++) {
            const tk_stage *ls = ix->st[later].stage;
            if (!ls)
                continue;
            for (uint32_t l = 1; l <= tk_stage_line_count(ls) && !used; l++) {
                const tk_stack_id *ids;
                size_t n = tk_stage_line_stacks(ls, l, &ids);
                for (size_t i = 0; i < n && !used; i++) {
                    size_t nfr;
                    const tk_frame *fr = tk_loctab_stack_frames(ix->tab, ids[i], &nfr);
                    used = g_hash_table_contains(files, GUINT_TO_POINTER(fr[0].file + 1));
                }
            }
        }
        if (used) {
            ix->irloc_stage = k;
            ix->irloc_files = files;
            return;
        }
        g_hash_table_destroy(files);
    }
}

gboolean bind_is_irloc_file(const tk_bind *ix, tk_file_id f)
{
    return ix->irloc_files &&
           g_hash_table_contains(ix->irloc_files, GUINT_TO_POINTER(f + 1));
}

int bind_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* A later stage of a USE_IR_LOC capture: each line's stacks become those of
 * the IR line it points at, and the raw pointers are kept for exact
 * IR-to-IR binding. */
static void build_irloc_stage(tk_bind *ix, tk_stage_kind kind)
{
    bind_stage_index *s = &ix->st[kind];
    const tk_stage *target = ix->st[ix->irloc_stage].stage;
    GArray *pairs = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    read_linemap_builder b;
    read_linemap_builder_init(&b);
    uint32_t n_lines = tk_stage_line_count(s->stage);
    for (uint32_t l = 1; l <= n_lines; l++) {
        const tk_stack_id *ids;
        size_t n = tk_stage_line_stacks(s->stage, l, &ids);
        for (size_t i = 0; i < n; i++) {
            size_t nfr;
            const tk_frame *fr = tk_loctab_stack_frames(ix->tab, ids[i], &nfr);
            if (!bind_is_irloc_file(ix, fr[0].file)) {
                read_linemap_add(&b, l, ids[i]);
                continue;
            }
            uint64_t p = (uint64_t)fr[0].line << 32 | l;
            g_array_append_val(pairs, p);
            const tk_stack_id *tids;
            size_t tn = tk_stage_line_stacks(target, fr[0].line, &tids);
            for (size_t j = 0; j < tn; j++)
                read_linemap_add(&b, l, tids[j]);
        }
    }
    read_linemap_finish(&b, n_lines, &s->eff);
    s->has_eff = TRUE;
    if (pairs->len) /* an empty GArray may have no data: qsort wants some */
        qsort(pairs->data, pairs->len, sizeof(uint64_t), bind_cmp_u64);
    s->n_irloc_pairs = pairs->len;
    s->irloc_pairs = (uint64_t *)g_array_free(pairs, FALSE);
}

/* ---- completion of innermost-only stages ------------------------------ */

/* The stage whose stacks complete KIND's when KIND records innermost frames
 * only: the nearest earlier stage of the same backend with inline frames
 * (SASS <- PTX; a disassembled AMDGCN <- LLVM IR); TK_STAGE_UNKNOWN for
 * the others. */
static tk_stage_kind completion_source(tk_stage_kind kind)
{
    switch (kind) {
    case TK_STAGE_SASS:
        return TK_STAGE_PTX;
    case TK_STAGE_AMDGCN:
        return TK_STAGE_LLIR;
    default:
        return TK_STAGE_UNKNOWN;
    }
}

#define CONFLICT ((tk_stack_id)UINT32_MAX - 1)

static gboolean same_outer(const tk_loctab *tab, tk_stack_id a, tk_stack_id b)
{
    size_t na, nb;
    const tk_frame *fa = tk_loctab_stack_frames(tab, a, &na);
    const tk_frame *fb = tk_loctab_stack_frames(tab, b, &nb);
    return na == nb && memcmp(fa + 1, fb + 1, (na - 1) * sizeof *fa) == 0;
}

static gboolean stack_has_place(const tk_loctab *tab, tk_stack_id id,
                                tk_file_id file, uint32_t line)
{
    size_t n;
    const tk_frame *fr = tk_loctab_stack_frames(tab, id, &n);
    for (size_t i = 0; i < n; i++)
        if (fr[i].file == file && fr[i].line == line)
            return TRUE;
    return FALSE;
}

/* Per conflict, the frames all its stacks share (beyond its own innermost
 * position): only the call sites are in doubt, never the lines every
 * candidate passes through (a helper's line inlined at two call sites, the
 * library function it called).  The index binds those lines as it binds an
 * inferred stack's frames; tk_bind_line_certain_frames() returns them. */
static void record_certain(tk_bind *ix, bind_stage_index *s)
{
    GArray *all = g_array_new(FALSE, FALSE, sizeof(tk_frame));
    s->certain_off = g_new(uint32_t, s->n_conflicts + 1);
    for (size_t c = 0; c < s->n_conflicts; c++) {
        s->certain_off[c] = all->len;
        const tk_stack_id *st = s->conflict_stacks + s->conflict_off[c];
        size_t ns = s->conflict_off[c + 1] - s->conflict_off[c];
        if (!ns)
            continue;
        tk_file_id pf = (tk_file_id)(s->conflict_keys[c] >> 32);
        uint32_t pl = (uint32_t)s->conflict_keys[c];
        size_t nfr;
        const tk_frame *fr = tk_loctab_stack_frames(ix->tab, st[0], &nfr);
        for (size_t i = 1; i < nfr; i++) {
            if (fr[i].file == pf && fr[i].line == pl)
                continue; /* recursion through the innermost line itself */
            gboolean every = TRUE, seen = FALSE;
            for (size_t k = 1; k < ns && every; k++)
                every = stack_has_place(ix->tab, st[k], fr[i].file, fr[i].line);
            for (guint j = s->certain_off[c]; j < all->len && !seen; j++) {
                const tk_frame *g = &g_array_index(all, tk_frame, j);
                seen = g->file == fr[i].file && g->line == fr[i].line;
            }
            if (every && !seen) {
                tk_frame f = fr[i];
                f.col = 0;
                g_array_append_val(all, f);
            }
        }
    }
    s->certain_off[s->n_conflicts] = all->len;
    s->certain = (tk_frame *)g_array_free(all, FALSE);
}

/* Keeps, for the positions BY_POS marks CONFLICT, the distinct stacks FROM
 * (PTX; LLVM IR for AMDGCN) shows with them: tk_bind_shared_lines() says from them which call sites a
 * helper's SASS lines are shared by. */
static void record_conflicts(tk_bind *ix, bind_stage_index *s, const tk_stage *ptx,
                             GHashTable *by_pos)
{
    GArray *keys = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, by_pos);
    while (g_hash_table_iter_next(&it, &k, &v))
        if (GPOINTER_TO_UINT(v) - 1 == CONFLICT)
            g_array_append_val(keys, *(gint64 *)k);
    if (keys->len)
        qsort(keys->data, keys->len, sizeof(uint64_t), bind_cmp_u64);
    s->n_conflicts = keys->len;
    s->conflict_keys = (uint64_t *)g_array_free(keys, FALSE);
    /* Per conflict, its distinct stacks (a handful: one per call site). */
    GPtrArray *per = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
    for (size_t i = 0; i < s->n_conflicts; i++)
        g_ptr_array_add(per, g_array_new(FALSE, FALSE, sizeof(tk_stack_id)));
    for (uint32_t l = 1; s->n_conflicts && l <= tk_stage_line_count(ptx); l++) {
        const tk_stack_id *ids;
        size_t n = tk_stage_line_stacks(ptx, l, &ids);
        for (size_t i = 0; i < n; i++) {
            size_t nfr;
            const tk_frame *fr = tk_loctab_stack_frames(ix->tab, ids[i], &nfr);
            uint64_t key = bind_pos_key(fr[0].file, fr[0].line);
            const uint64_t *hit = bsearch(&key, s->conflict_keys, s->n_conflicts,
                                          sizeof key, bind_cmp_u64);
            if (!hit)
                continue;
            GArray *a = per->pdata[hit - s->conflict_keys];
            /* One stack per call site: stacks that differ only in the
             * innermost column are the same call. */
            gboolean seen = FALSE;
            for (guint j = 0; j < a->len && !seen; j++)
                seen = same_outer(ix->tab, g_array_index(a, tk_stack_id, j), ids[i]);
            if (!seen)
                g_array_append_val(a, ids[i]);
        }
    }
    s->conflict_off = g_new(uint32_t, s->n_conflicts + 1);
    GArray *all = g_array_new(FALSE, FALSE, sizeof(tk_stack_id));
    for (size_t i = 0; i < s->n_conflicts; i++) {
        s->conflict_off[i] = all->len;
        GArray *a = per->pdata[i];
        g_array_append_vals(all, a->data, a->len);
    }
    s->conflict_off[s->n_conflicts] = all->len;
    s->conflict_stacks = (tk_stack_id *)g_array_free(all, FALSE);
    g_ptr_array_free(per, TRUE);
    record_certain(ix, s);
}

/* Gives KIND's lines (innermost frames only) the callers the stage FROM
 * shows for their innermost (file, line), where it shows one stack. */
static void build_completion(tk_bind *ix, tk_stage_kind kind,
                             tk_stage_kind from_kind)
{
    bind_stage_index *s = &ix->st[kind];
    const tk_stage *ptx = ix->st[from_kind].stage;
    s->inferred_from = from_kind;
    /* Innermost (file, line) of FROM -> the one stack seen with it, or
     * CONFLICT when FROM shows it under different callers. */
    GHashTable *by_pos = g_hash_table_new_full(g_int64_hash, g_int64_equal,
                                               g_free, NULL);
    for (uint32_t l = 1; l <= tk_stage_line_count(ptx); l++) {
        const tk_stack_id *ids;
        size_t n = tk_stage_line_stacks(ptx, l, &ids);
        for (size_t i = 0; i < n; i++) {
            size_t nfr;
            const tk_frame *fr = tk_loctab_stack_frames(ix->tab, ids[i], &nfr);
            gint64 key = (gint64)bind_pos_key(fr[0].file, fr[0].line);
            gpointer old;
            if (!g_hash_table_lookup_extended(by_pos, &key, NULL, &old)) {
                g_hash_table_insert(by_pos, g_memdup2(&key, sizeof key),
                                    GUINT_TO_POINTER(ids[i] + 1));
            } else {
                tk_stack_id prev = GPOINTER_TO_UINT(old) - 1;
                if (prev != CONFLICT && !same_outer(ix->tab, prev, ids[i]))
                    g_hash_table_insert(by_pos, g_memdup2(&key, sizeof key),
                                        GUINT_TO_POINTER(CONFLICT + 1));
            }
        }
    }
    uint32_t n_lines = tk_stage_line_count(s->stage);
    s->inferred = g_new0(guint8, (size_t)n_lines + 1);
    read_linemap_builder b;
    read_linemap_builder_init(&b);
    GArray *frames = g_array_new(FALSE, FALSE, sizeof(tk_frame));
    for (uint32_t l = 1; l <= n_lines; l++) {
        const tk_stack_id *ids;
        size_t n = tk_stage_line_stacks(s->stage, l, &ids);
        for (size_t i = 0; i < n; i++) {
            size_t nfr;
            const tk_frame *fr = tk_loctab_stack_frames(ix->tab, ids[i], &nfr);
            gint64 key = (gint64)bind_pos_key(fr[0].file, fr[0].line);
            gpointer v = g_hash_table_lookup(by_pos, &key);
            tk_stack_id from = v ? GPOINTER_TO_UINT(v) - 1 : CONFLICT;
            size_t npf = 0;
            const tk_frame *pf = from != CONFLICT
                                     ? tk_loctab_stack_frames(ix->tab, from, &npf)
                                     : NULL;
            if (nfr != 1 || npf < 2) {
                read_linemap_add(&b, l, ids[i]);
                continue;
            }
            /* SASS has no column: keep its own innermost frame, take the
             * callers from the PTX (the LLVM IR for AMDGCN). */
            g_array_set_size(frames, 0);
            g_array_append_val(frames, fr[0]);
            g_array_append_vals(frames, pf + 1, npf - 1);
            read_linemap_add(&b, l, tk_loctab_stack(ix->tab, (tk_frame *)frames->data,
                                                    frames->len));
            s->inferred[l] = 1;
        }
    }
    g_array_free(frames, TRUE);
    record_conflicts(ix, s, ptx, by_pos);
    g_hash_table_destroy(by_pos);
    read_linemap_finish(&b, n_lines, &s->eff);
    s->has_eff = TRUE;
}

/* ---- source index ----------------------------------------------------- */

static gint cmp_source_ref(gconstpointer a, gconstpointer b, gpointer tab)
{
    const tk_source_ref *x = a, *y = b;
    if (x->file != y->file)
        return strcmp(tk_loctab_file_path(tab, x->file), tk_loctab_file_path(tab, y->file));
    return (x->line > y->line) - (x->line < y->line);
}

static void build_source_index(tk_bind *ix, tk_stage_kind kind)
{
    bind_stage_index *s = &ix->st[kind];
    uint32_t n_lines = tk_stage_line_count(s->stage);
    /* Count first, then fill plain arrays: an append per frame was a fifth
     * of the whole index's cost. */
    size_t n_exact = 0, n_called = 0;
    /* Each line's certain frames, asked once, not again below. */
    const tk_frame **cfs = g_new(const tk_frame *, (size_t)n_lines + 1);
    uint32_t *ncfs = g_new(uint32_t, (size_t)n_lines + 1);
    for (uint32_t l = 1; l <= n_lines; l++) {
        const tk_stack_id *ids;
        size_t n = tk_bind_line_stacks(ix, kind, l, &ids);
        /* Counts are about code: a located directive or comment (.loc,
         * //##) is returned where asked, never counted. */
        s->n_bound += n > 0 && tk_stage_line_kind(s->stage, l) == TK_LINE_INSTRUCTION;
        n_exact += n;
        for (size_t i = 0; i < n; i++) {
            size_t nfr;
            tk_loctab_stack_frames(ix->tab, ids[i], &nfr);
            n_called += nfr;
        }
        long c = s->n_conflicts ? bind_line_conflict_of(ix, kind, l, ids, n) : -1;
        ncfs[l] = (uint32_t)bind_certain_frames_at(s, c, &cfs[l]);
        n_called += ncfs[l];
    }
    bind_ref *exact = g_new(bind_ref, n_exact ? n_exact : 1);
    bind_ref *called = g_new(bind_ref, n_called ? n_called : 1);
    size_t ne = 0, nc = 0;
    for (uint32_t l = 1; l <= n_lines; l++) {
        const tk_stack_id *ids;
        size_t n = tk_bind_line_stacks(ix, kind, l, &ids);
        for (size_t i = 0; i < n; i++) {
            size_t nfr;
            const tk_frame *fr = tk_loctab_stack_frames(ix->tab, ids[i], &nfr);
            exact[ne++] = (bind_ref){bind_pos_key(fr[0].file, fr[0].line), l};
            for (size_t j = 0; j < nfr; j++)
                called[nc++] = (bind_ref){bind_pos_key(fr[j].file, fr[j].line), l};
        }
        /* A helper's line shared by call sites is still certain code of
         * the lines all its candidate stacks pass through. */
        for (size_t j = 0; j < ncfs[l]; j++)
            called[nc++] = (bind_ref){bind_pos_key(cfs[l][j].file, cfs[l][j].line), l};
    }
    g_free(cfs);
    g_free(ncfs);
    bind_ref_index_from(exact, ne, &s->exact);
    bind_ref_index_from(called, nc, &s->called);
    g_free(exact);
    g_free(called);
}

/* Per source position, its instruction lines in each mode, built by the
 * first thread to ask (bind --ir never does); a position only directives
 * refer to (a .loc no instruction follows) is not listed. */
void bind_source_refs_build(const tk_bind *ix, tk_stage_kind kind)
{
    bind_stage_index *s = (bind_stage_index *)&ix->st[kind];
    if (!g_once_init_enter(&s->refs_ready))
        return;
    GArray *refs = g_array_new(FALSE, FALSE, sizeof(tk_source_ref));
    for (size_t c = 0; c < s->called.n_keys; c++) {
        uint64_t key = s->called.keys[c];
        size_t lo, hi;
        bind_ref_range(&s->exact, key, &lo, &hi);
        tk_source_ref r = {(tk_file_id)(key >> 32), (uint32_t)key,
                           (uint32_t)tk_stage_count_instructions(s->stage, s->exact.lines + lo,
                                                                 hi - lo),
                           (uint32_t)tk_stage_count_instructions(
                               s->stage, s->called.lines + s->called.off[c],
                               s->called.off[c + 1] - s->called.off[c])};
        if (r.n_called)
            g_array_append_val(refs, r);
    }
    /* File ids depend on the order files were met while loading; order by
     * path so that the same kernel lists the same way however it was read. */
    g_qsort_with_data(refs->data, (gint)refs->len, sizeof(tk_source_ref),
                      cmp_source_ref, ix->tab);
    s->n_refs = refs->len;
    s->refs = (tk_source_ref *)g_array_free(refs, FALSE);
    g_once_init_leave(&s->refs_ready, 1);
}

/* ---- build / free ----------------------------------------------------- */

tk_bind *tk_bind_new(const tk_kernel *kernel, tk_loctab *tab)
{
    tk_bind *ix = g_new0(tk_bind, 1);
    ix->kernel = kernel;
    ix->tab = tab;
    for (tk_stage_kind k = 0; k < TK_STAGE_COUNT; k++) {
        ix->st[k].stage = tk_kernel_stage(kernel, k);
        if (ix->st[k].stage)
            ix->st[k].inline_frames = tk_stage_has_inline_frames(ix->st[k].stage);
    }
    detect_irloc(ix);
    for (tk_stage_kind k = 0; k < TK_STAGE_COUNT; k++) {
        if (!ix->st[k].stage)
            continue;
        tk_stage_kind from = completion_source(k);
        if (ix->irloc_stage != TK_STAGE_UNKNOWN && k > ix->irloc_stage)
            build_irloc_stage(ix, k);
        else if (from != TK_STAGE_UNKNOWN && !ix->st[k].inline_frames &&
                 ix->st[from].stage)
            build_completion(ix, k, from);
        build_source_index(ix, k);
    }
    return ix;
}

void tk_bind_free(tk_bind *ix)
{
    if (!ix)
        return;
    for (int k = 0; k < TK_STAGE_COUNT; k++) {
        bind_stage_index *s = &ix->st[k];
        if (s->has_eff)
            read_linemap_clear(&s->eff);
        g_free(s->inferred);
        bind_ref_index_clear(&s->exact);
        bind_ref_index_clear(&s->called);
        g_free(s->refs);
        g_free(s->irloc_pairs);
        g_free(s->conflict_keys);
        g_free(s->conflict_off);
        g_free(s->conflict_stacks);
        g_free(s->certain);
        g_free(s->certain_off);
    }
    if (ix->irloc_files)
        g_hash_table_destroy(ix->irloc_files);
    g_free(ix);
}
