/* callsites.c - the call sites a SASS line may belong to when the binding
 * cannot say which.
 *
 * nvdisasm's SASS of a Triton cubin usually carries only the innermost
 * frame of each instruction.  The binding index completes it from the PTX
 * where the PTX shows that frame under one inline stack only; a helper
 * inlined at two call sites shows its lines under two stacks, and its SASS
 * keeps the bare frame.  Such a line's cost belongs to one of those stacks
 * and nothing in the SASS says which: tk_cost.h gives it to the frames all
 * the candidates share and, as "shared", to the frames only some have.
 * This file finds the candidates: per SASS line left with one frame, the
 * distinct stacks the PTX shows for that frame when there are several.
 *
 * The question belongs to the binding index (issue 12 adds per-call-site
 * honesty there); until it answers it, this is the one place it is asked.
 */
#include "cost/internal.h"

#include <string.h>

struct cost_callsites {
    GHashTable *by_line; /* SASS line -> GArray of tk_stack_id (>= 2) */
};

static gboolean same_outer(const tk_loctab *tab, tk_stack_id a, tk_stack_id b)
{
    size_t na, nb;
    const tk_frame *fa = tk_loctab_stack_frames(tab, a, &na);
    const tk_frame *fb = tk_loctab_stack_frames(tab, b, &nb);
    if (na != nb)
        return FALSE;
    for (size_t i = 1; i < na; i++)
        if (fa[i].file != fb[i].file || fa[i].line != fb[i].line)
            return FALSE;
    return TRUE;
}

cost_callsites *cost_callsites_new(const tk_bind *ix, const tk_kernel *k,
                                   const tk_loctab *tab)
{
    cost_callsites *cs = g_new0(cost_callsites, 1);
    cs->by_line = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
                                        (GDestroyNotify)g_array_unref);
    const tk_stage *sass = tk_kernel_stage(k, TK_STAGE_SASS);
    const tk_stage *ptx = tk_kernel_stage(k, TK_STAGE_PTX);
    if (!sass || !ptx || tk_stage_has_inline_frames(sass) ||
        tk_bind_irloc_stage(ix) != TK_STAGE_UNKNOWN)
        return cs;
    /* innermost (file, line) of the PTX -> its distinct stacks */
    GHashTable *by_pos = g_hash_table_new_full(g_int64_hash, g_int64_equal,
                                               g_free,
                                               (GDestroyNotify)g_array_unref);
    for (uint32_t l = 1; l <= tk_stage_line_count(ptx); l++) {
        const tk_stack_id *ids;
        size_t n = tk_stage_line_stacks(ptx, l, &ids);
        for (size_t i = 0; i < n; i++) {
            size_t nfr;
            const tk_frame *fr = tk_loctab_stack_frames(tab, ids[i], &nfr);
            gint64 key = (gint64)((uint64_t)fr[0].file << 32 | fr[0].line);
            GArray *a = g_hash_table_lookup(by_pos, &key);
            if (!a) {
                a = g_array_new(FALSE, FALSE, sizeof(tk_stack_id));
                g_hash_table_insert(by_pos, g_memdup2(&key, sizeof key), a);
            }
            gboolean seen = FALSE;
            for (guint j = 0; j < a->len && !seen; j++)
                seen = same_outer(tab, g_array_index(a, tk_stack_id, j), ids[i]);
            if (!seen)
                g_array_append_val(a, ids[i]);
        }
    }
    for (uint32_t l = 1; l <= tk_stage_line_count(sass); l++) {
        const tk_stack_id *ids;
        size_t n = tk_bind_line_stacks(ix, TK_STAGE_SASS, l, &ids);
        if (n != 1 || tk_bind_stack_inferred(ix, TK_STAGE_SASS, l))
            continue;
        size_t nfr;
        const tk_frame *fr = tk_loctab_stack_frames(tab, ids[0], &nfr);
        if (nfr != 1)
            continue;
        gint64 key = (gint64)((uint64_t)fr[0].file << 32 | fr[0].line);
        GArray *a = g_hash_table_lookup(by_pos, &key);
        if (a && a->len >= 2)
            g_hash_table_insert(cs->by_line, GUINT_TO_POINTER(l),
                                g_array_ref(a));
    }
    g_hash_table_destroy(by_pos);
    return cs;
}

void cost_callsites_free(cost_callsites *cs)
{
    if (!cs)
        return;
    g_hash_table_destroy(cs->by_line);
    g_free(cs);
}

size_t cost_callsites_of(const cost_callsites *cs, uint32_t line,
                         const tk_stack_id **stacks)
{
    GArray *a = g_hash_table_lookup(cs->by_line, GUINT_TO_POINTER(line));
    *stacks = a ? (const tk_stack_id *)a->data : NULL;
    return a ? a->len : 0;
}
