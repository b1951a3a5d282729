/* cost_table.h - tk_cost's tables, shared by its builder (cost.c) and its
 * queries (cost_query.c).  Internal to cost/. */
#ifndef TKDUMP_COST_TABLE_H
#define TKDUMP_COST_TABLE_H

#include "cost/internal.h"

/* One stage's IR line tables, built the first time a line of the stage
 * is asked about (ir_lines.c): `info` asks none, `bind --ir` one stage's. */
typedef struct {
    gsize ready;     /* g_once: the tables below are built */
    uint32_t *group; /* per line (index 0 = line 1): group + 1, 0 none */
    uint32_t *own;   /* per line: its own share's vector + 1, 0 none */
    uint32_t n_lines;
    GArray *groups;  /* double: nm per group */
    GArray *owns;    /* double: nm per distinct own share (ir_share.c) */
} cost_stage_cost;

struct tk_cost {
    const tk_loctab *tab;
    const tk_bind *ix;
    const tk_kernel *kernel;
    size_t nm;
    guint8 *peak;      /* per metric: a maximum, not a sum */
    size_t n_static;   /* metrics before the profile's */
    size_t m_spill, m_live; /* spill_instructions; live_registers or 0 */
    char *lr_path, *lr_why;
    uint16_t *lr;      /* COST_LR_FILES per instruction; NULL without */
    GPtrArray *names;  /* const char *, borrowed (static or the profile's) */
    GPtrArray *labels; /* char *, owned */
    GArray *kinds;     /* tk_metric_kind */
    size_t def, stall_first, n_stall;
    double *total, *noloc;
    cost_insns insns;
    double *ivals;     /* per instruction, nm each */
    gsize lines_ready; /* g_once: the source lines below are built */
    GArray *entries;   /* src_entry (cost.c) while building */
    GArray *pool;      /* double: 3 * nm per source line */
    GHashTable *src_index; /* position key -> index into lines + 1 */
    tk_cost_line *lines;
    size_t n_lines;
    cost_stage_cost st[TK_STAGE_COUNT];
    uint32_t unsplit;
    gsize disagree_ready; /* g_once: the two below are found (cost.c) */
    GArray *disagree;  /* cost_disagreement, sorted like the lines */
    tk_cost_disagreement *dpub; /* their public halves, same order */
};

/* The key of source position F:L in src_index. */
static inline uint64_t cost_pos_key(tk_file_id f, uint32_t l)
{
    return (uint64_t)f << 32 | l;
}

/* Builds C's source line tables (lines, src_index, noloc, unsplit) the
 * first time they are asked for, from any thread (cost.c). */
void cost_lines_build(const tk_cost *c);

/* The instruction index of SASS line LINE, or -1. */
ptrdiff_t cost_insn_at(const tk_cost *c, uint32_t line);

/* Adds V to TO, or for a peak metric keeps the larger (cost.c). */
void cost_add_vec(const tk_cost *c, double *to, const double *v);

/* ---- ir_lines.c ---- */

/* C's tables of the IR lines of STAGE (not SASS), built on the first
 * call (from any thread; the instructions and their values are read);
 * NULL when the kernel has no such stage. */
const cost_stage_cost *cost_ir_stage(const tk_cost *c, tk_stage_kind stage);
/* The same for a query about line LINE of STAGE: NULL, without building
 * anything, when the tables have nothing for it (not a line of the
 * stage, or not an instruction: only instructions cost). */
const cost_stage_cost *cost_ir_stage_line(const tk_cost *c, tk_stage_kind stage,
                                          uint32_t line);
void cost_ir_clear(tk_cost *c);

/* ---- ir_share.c ---- */

/* The instructions bound to each group of one stage (ir_lines.c's
 * groups): group G's (1-based) are insn[start[G - 1] .. start[G]). */
typedef struct {
    GArray *insn;  /* uint32_t instruction indices */
    GArray *start; /* uint32_t, one per group and one more */
} cost_members;

/* Fills S->own (C->st[KIND], being built) from the groups of ST's lines
 * and their MEMBERS (tk_cost.h says how an instruction is shared). */
void cost_ir_share(const tk_cost *c, cost_stage_cost *s, const tk_stage *st,
                   tk_stage_kind kind, const cost_members *members);

/* The class (a tk_sass_class among tensor, TMA, barrier, global, shared)
 * of the operation on line TEXT (LEN bytes) of a TTIR or TTGIR stage, or
 * -1 for the others. */
int cost_mlir_class(const char *text, size_t len);

#endif
