/* ir_lines.c - the tables of IR lines (tk_cost.h): for a line of any stage
 * but SASS, the sum over the SASS instructions bound to it, and its own
 * share of them (ir_share.c); cost_query.c answers the sums.
 *
 * Outside a USE_IR_LOC capture the SASS bound to a line depends only on
 * its stacks (tk_bind_stage_to_stage() looks at nothing else), so it is
 * asked once per distinct stack set (a group) and each line keeps the
 * index of its group's vector.  The groups' instructions are kept while
 * building, for the shares.
 */
#include "cost/cost_table.h"

#include <stdlib.h>

ptrdiff_t cost_insn_at(const tk_cost *c, uint32_t line)
{
    size_t lo = 0, hi = c->insns.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->insns.line[mid] < line)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < c->insns.n && c->insns.line[lo] == line ? (ptrdiff_t)lo : -1;
}

/* A new group: the sum of the instructions among LINES (SASS lines), its
 * instructions appended to MEMBERS.  Returns its index + 1, or 0 when no
 * line is an instruction. */
static uint32_t make_group(const tk_cost *c, GArray *groups, const uint32_t *lines,
                           size_t n, cost_members *members)
{
    double *sum = NULL;
    for (size_t i = 0; i < n; i++) {
        ptrdiff_t k = cost_insn_at(c, lines[i]);
        if (k < 0)
            continue;
        if (!sum) {
            g_array_set_size(groups, groups->len + c->nm);
            sum = &g_array_index(groups, double, groups->len - c->nm);
        }
        cost_add_vec(c, sum, c->ivals + (size_t)k * c->nm);
        uint32_t ki = (uint32_t)k;
        g_array_append_val(members->insn, ki);
    }
    if (!sum)
        return 0;
    uint32_t end = members->insn->len;
    g_array_append_val(members->start, end);
    return (uint32_t)(groups->len / c->nm);
}

static void build_stage(const tk_cost *c, cost_stage_cost *s, const tk_stage *st,
                        tk_stage_kind kind, cost_members *members)
{
    const tk_bind *ix = c->ix;
    s->n_lines = tk_stage_line_count(st);
    s->group = g_new0(uint32_t, (size_t)s->n_lines + 1);
    gboolean by_line = tk_bind_irloc_stage(ix) != TK_STAGE_UNKNOWN;
    GHashTable *cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                              NULL);
    GString *key = g_string_new(NULL);
    for (uint32_t l = 1; l <= s->n_lines; l++) {
        /* Only instructions cost: a .loc or a //## line gets no heat. */
        if (tk_stage_line_kind(st, l) != TK_LINE_INSTRUCTION)
            continue;
        const tk_stack_id *ids;
        size_t n = tk_bind_line_stacks(ix, kind, l, &ids);
        if (!n && !by_line)
            continue;
        g_string_truncate(key, 0);
        for (size_t i = 0; i < n && !by_line; i++)
            g_string_append_printf(key, "%u,", ids[i]);
        gpointer hit;
        if (!by_line &&
            g_hash_table_lookup_extended(cache, key->str, NULL, &hit)) {
            s->group[l - 1] = GPOINTER_TO_UINT(hit);
            continue;
        }
        uint32_t *lines = NULL;
        size_t nl = tk_bind_stage_to_stage(ix, kind, l, TK_STAGE_SASS, &lines);
        uint32_t g = make_group(c, s->groups, lines, nl, members);
        free(lines);
        s->group[l - 1] = g;
        if (!by_line)
            g_hash_table_insert(cache, g_strdup(key->str), GUINT_TO_POINTER(g));
    }
    g_string_free(key, TRUE);
    g_hash_table_destroy(cache);
}

const cost_stage_cost *cost_ir_stage(const tk_cost *c, tk_stage_kind stage)
{
    if (stage >= TK_STAGE_COUNT || stage == TK_STAGE_SASS)
        return NULL;
    /* Built once, by the first thread to ask; the tables never change
     * after, so the pointers the queries hand out stay valid. */
    cost_stage_cost *s = (cost_stage_cost *)&c->st[stage];
    const tk_stage *st = tk_kernel_stage(c->kernel, stage);
    if (!st || !tk_kernel_stage(c->kernel, TK_STAGE_SASS))
        return NULL;
    if (g_once_init_enter(&s->ready)) {
        s->groups = g_array_new(FALSE, TRUE, sizeof(double));
        s->owns = g_array_new(FALSE, TRUE, sizeof(double));
        cost_members members = {g_array_new(FALSE, FALSE, sizeof(uint32_t)),
                                g_array_new(FALSE, FALSE, sizeof(uint32_t))};
        uint32_t zero = 0;
        g_array_append_val(members.start, zero);
        build_stage(c, s, st, stage, &members);
        cost_ir_share(c, s, st, stage, &members);
        g_array_free(members.insn, TRUE);
        g_array_free(members.start, TRUE);
        g_once_init_leave(&s->ready, 1);
    }
    return s;
}

const cost_stage_cost *cost_ir_stage_line(const tk_cost *c, tk_stage_kind stage,
                                          uint32_t line)
{
    if (stage >= TK_STAGE_COUNT || stage == TK_STAGE_SASS || line == 0)
        return NULL;
    const tk_stage *st = tk_kernel_stage(c->kernel, stage);
    if (!st || line > tk_stage_line_count(st) ||
        tk_stage_line_kind(st, line) != TK_LINE_INSTRUCTION)
        return NULL;
    return cost_ir_stage(c, stage);
}

void cost_ir_clear(tk_cost *c)
{
    for (int t = 0; t < TK_STAGE_COUNT; t++) {
        g_free(c->st[t].group);
        g_free(c->st[t].own);
        if (c->st[t].groups)
            g_array_free(c->st[t].groups, TRUE);
        if (c->st[t].owns)
            g_array_free(c->st[t].owns, TRUE);
    }
}

/* ---- queries ------------------------------------------------------------- */

static const cost_stage_cost *stage_of(const tk_cost *c, tk_stage_kind stage,
                                  uint32_t line)
{
    return cost_ir_stage_line(c, stage, line);
}

const double *tk_cost_ir_line_own(const tk_cost *c, tk_stage_kind stage,
                                  uint32_t line)
{
    if (stage == TK_STAGE_SASS)
        return tk_cost_ir_line(c, stage, line);
    const cost_stage_cost *s = stage_of(c, stage, line);
    uint32_t o = s ? s->own[line - 1] : 0;
    return o ? &g_array_index(s->owns, double, (size_t)(o - 1) * c->nm)
             : NULL;
}

const tk_cost_line *tk_cost_ir_line_source(const tk_cost *c,
                                           tk_stage_kind stage, uint32_t line)
{
    const tk_stack_id *ids;
    if (!tk_bind_line_stacks(c->ix, stage, line, &ids))
        return NULL;
    size_t nf;
    const tk_frame *fr = tk_loctab_stack_frames(c->tab, ids[0], &nf);
    return nf ? tk_cost_source_line(c, fr[0].file, fr[0].line) : NULL;
}
