/* lines.h - a text's lines handed to a reader one at a time (internal).
 *
 * The MLIR and LLVM readers read a text line by line, in a few passes, and
 * keep copies of what they need across lines (alias definitions, metadata
 * nodes).  So they need not have the text in memory: a read_lines gives
 * them any run of lines in order, from a text_buf or from a text that lies
 * in a file and is read back a piece at a time (a 2 GB pass dump,
 * timeline/).  A line's bytes are valid during the call that gives them.
 */
#ifndef TKDUMP_READ_LINES_H
#define TKDUMP_READ_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "util/text.h"

/* Line LINE (1-based): LEN bytes at S, without its line end.  Returning
 * nonzero stops the run. */
typedef int (*read_line_fn)(void *user, uint32_t line, const char *s, size_t len);

typedef struct read_lines read_lines;
struct read_lines {
    const char *name; /* for diagnostics */
    uint32_t n_lines;
    uint64_t n_bytes; /* what the readers bound their work by */
    /* Calls FN on lines FIRST..LAST (1-based, LAST <= N_LINES) in order.
     * Returns what FN returned to stop, else 0.  Calls do not nest: FN
     * must not ask for other lines of the same read_lines. */
    int (*each)(const read_lines *self, uint32_t first, uint32_t last,
                read_line_fn fn, void *user);
    const void *impl;
};

/* The lines of TEXT, which must outlive OUT. */
void read_lines_of_text(read_lines *out, const text_buf *text);

#endif
