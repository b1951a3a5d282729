/* cost_query.c - what tk_cost answers once built (tk_cost.h): totals, a
 * source line's or an IR line's values, the instructions on a line, peaks.
 * Apart from cost.c, which builds the tables: these only read them. */
#include "cost/cost_table.h"

#include <string.h>

/* ---- queries ------------------------------------------------------------- */

const double *tk_cost_total(const tk_cost *c)
{
    return c->total;
}

const double *tk_cost_no_location(const tk_cost *c)
{
    cost_lines_build(c);
    return c->noloc;
}

size_t tk_cost_source_lines(const tk_cost *c, const tk_cost_line **lines)
{
    cost_lines_build(c);
    *lines = c->lines;
    return c->n_lines;
}

const tk_cost_line *tk_cost_source_line(const tk_cost *c, tk_file_id f,
                                        uint32_t l)
{
    cost_lines_build(c);
    uint64_t key = cost_pos_key(f, l);
    gpointer v = g_hash_table_lookup(c->src_index, &key);
    return v ? &c->lines[GPOINTER_TO_SIZE(v) - 1] : NULL;
}

const double *tk_cost_ir_line(const tk_cost *c, tk_stage_kind stage,
                              uint32_t line)
{
    if (stage == TK_STAGE_SASS) {
        ptrdiff_t k = cost_insn_at(c, line);
        return k < 0 ? NULL : c->ivals + (size_t)k * c->nm;
    }
    const cost_stage_cost *s = cost_ir_stage_line(c, stage, line);
    if (!s)
        return NULL;
    uint32_t g = s->group[line - 1];
    return g ? &g_array_index(s->groups, double, (size_t)(g - 1) * c->nm)
             : NULL;
}

int tk_cost_sass_class(const tk_cost *c, uint32_t line)
{
    ptrdiff_t k = cost_insn_at(c, line);
    return k < 0 ? -1 : c->insns.cls[k];
}

uint32_t tk_cost_unsplit_instructions(const tk_cost *c)
{
    cost_lines_build(c);
    return c->unsplit;
}

int tk_cost_metric_is_peak(const tk_cost *c, size_t m)
{
    return m < c->nm && c->peak[m];
}

const char *tk_cost_life_ranges(const tk_cost *c, const char **why)
{
    if (why)
        *why = c->lr_path ? NULL : c->lr_why;
    return c->lr_path;
}

/* Whether stack ID has FILE:LINE (KEY, cost_pos_key()) as any of its frames. */
static gboolean stack_has(const tk_loctab *tab, tk_stack_id id, uint64_t key)
{
    size_t n;
    const tk_frame *fr = tk_loctab_stack_frames(tab, id, &n);
    for (size_t i = 0; i < n; i++)
        if (cost_pos_key(fr[i].file, fr[i].line) == key)
            return TRUE;
    return FALSE;
}

/* Whether instruction I's SASS line has FILE:LINE as the innermost frame
 * of its first stack, or (INCLUSIVE) as any frame of any stack. */
static gboolean insn_on(const tk_cost *c, size_t i, uint64_t key,
                        int inclusive)
{
    const tk_stack_id *ids;
    size_t n = tk_bind_line_stacks(c->ix, TK_STAGE_SASS, c->insns.line[i],
                                   &ids);
    if (!n)
        return FALSE;
    if (!inclusive) {
        size_t nf;
        const tk_frame *fr = tk_loctab_stack_frames(c->tab, ids[0], &nf);
        return nf && cost_pos_key(fr[0].file, fr[0].line) == key;
    }
    for (size_t s = 0; s < n; s++)
        if (stack_has(c->tab, ids[s], key))
            return TRUE;
    return FALSE;
}

uint32_t tk_cost_peak_sass_line(const tk_cost *c, size_t m, tk_file_id file,
                                uint32_t line, int inclusive)
{
    if (m >= c->nm)
        return 0;
    uint64_t key = cost_pos_key(file, line);
    uint32_t best = 0;
    double top = -1;
    for (size_t i = 0; i < c->insns.n; i++) {
        double v = c->ivals[i * c->nm + m];
        if (v > top && (file == TK_NO_FILE || insn_on(c, i, key, inclusive))) {
            top = v;
            best = c->insns.line[i];
        }
    }
    return best;
}

uint32_t tk_cost_ir_peak_sass_line(const tk_cost *c, size_t m,
                                   tk_stage_kind stage, uint32_t line)
{
    if (m >= c->nm || stage >= TK_STAGE_COUNT)
        return 0;
    if (stage == TK_STAGE_SASS)
        return cost_insn_at(c, line) < 0 ? 0 : line;
    uint32_t *lines = NULL;
    size_t nl = tk_bind_stage_to_stage(c->ix, stage, line, TK_STAGE_SASS,
                                       &lines);
    uint32_t best = 0;
    double top = -1;
    for (size_t j = 0; j < nl; j++) {
        ptrdiff_t k = cost_insn_at(c, lines[j]);
        if (k < 0)
            continue;
        double v = c->ivals[(size_t)k * c->nm + m];
        if (v > top || (v == top && lines[j] < best)) {
            top = v;
            best = lines[j];
        }
    }
    free(lines);
    return best;
}

const char *tk_cost_metric_missing(const tk_cost *c, const char *name)
{
    if (!c->lr && c->lr_why && g_str_has_prefix(name, "live_"))
        return c->lr_why;
    return NULL;
}
