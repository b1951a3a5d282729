/* linemap.h - per line, the stacks it carries (internal).
 *
 * Readers add (line, stack) pairs in any order, as they discover them: an MLIR
 * op's location is on the line that closes its region, and the line that opens
 * it learns its stack only then.  read_linemap_finish() sorts them by line with
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
} read_line_stack;

typedef struct {
    read_line_stack *pairs;
    size_t n, cap;
} read_linemap_builder;

typedef struct {
    uint32_t n_lines;
    uint32_t *row;       /* n_lines + 2 entries: line L's stacks are
                            stacks[row[L] .. row[L+1]) */
    tk_stack_id *stacks; /* owned */
    uint32_t n_located;  /* lines with at least one stack */
} read_linemap;

void read_linemap_builder_init(read_linemap_builder *b);
/* LINE is 1-based.  Cheap: an append. */
void read_linemap_add(read_linemap_builder *b, uint32_t line, tk_stack_id stack);
/* Consumes the builder (it is left empty) and fills MAP for N_LINES lines;
 * pairs past N_LINES are dropped. */
void read_linemap_finish(read_linemap_builder *b, uint32_t n_lines,
                         read_linemap *map);
void read_linemap_builder_clear(read_linemap_builder *b);
void read_linemap_clear(read_linemap *map);

static inline size_t read_linemap_get(const read_linemap *m, uint32_t line,
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
