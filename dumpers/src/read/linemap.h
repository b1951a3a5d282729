/* linemap.h - per line, the stacks it carries (internal).
 *
 * Readers add (line, stack) pairs in any order, as they discover them: an MLIR
 * op's location is on the line that closes its region, and the line that opens
 * it learns its stack only then.  tk_linemap_finish() sorts them by line with
 * a counting sort and drops repeats, giving a compressed row per line.
 */
#ifndef TKDUMP_LINEMAP_H
#define TKDUMP_LINEMAP_H

#include <stddef.h>
#include <stdint.h>

#include "tkdump/tk_loctab.h"

typedef struct {
    uint32_t line;
    tk_stack_id stack;
} tk_line_stack;

typedef struct {
    tk_line_stack *pairs;
    size_t n, cap;
} tk_linemap_builder;

typedef struct {
    uint32_t n_lines;
    uint32_t *row;       /* n_lines + 2 entries: line L's stacks are
                            stacks[row[L] .. row[L+1]) */
    tk_stack_id *stacks; /* owned */
    uint32_t n_located;  /* lines with at least one stack */
} tk_linemap;

void tk_linemap_builder_init(tk_linemap_builder *b);
/* LINE is 1-based.  Cheap: an append. */
void tk_linemap_add(tk_linemap_builder *b, uint32_t line, tk_stack_id stack);
/* Consumes the builder (it is left empty) and fills MAP for N_LINES lines;
 * pairs past N_LINES are dropped. */
void tk_linemap_finish(tk_linemap_builder *b, uint32_t n_lines,
                       tk_linemap *map);
void tk_linemap_builder_clear(tk_linemap_builder *b);
void tk_linemap_clear(tk_linemap *map);

static inline size_t tk_linemap_get(const tk_linemap *m, uint32_t line,
                                    const tk_stack_id **ids)
{
    if (line == 0 || line > m->n_lines) {
        *ids = NULL;
        return 0;
    }
    *ids = m->stacks + m->row[line];
    return m->row[line + 1] - m->row[line];
}

#endif
