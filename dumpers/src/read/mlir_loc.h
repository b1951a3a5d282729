/* mlir_loc.h - MLIR location expressions to inline stacks (internal).
 *
 * The MLIR reader (mlir.c) walks lines and finds `loc(` tokens; this
 * module turns one location expression into stacks, resolving `#alias`
 * references through a table of alias definitions that the reader fills in a
 * first pass (aliases are usually defined after their use).
 *
 * A location denotes a *set* of stacks: a file location one stack of one
 * frame, a name location its child's, `unknown` none, `fused[...]` the union
 * of its parts, `callsite(A at B)` every stack of A followed by every stack of
 * B (innermost first).  Sets are capped (stacks per location, frames per
 * stack, nesting depth, total work) with a warning, so that any input is read
 * in time linear in its size.
 *
 * Aliases are scoped by *segment*: a dump file with many modules
 * (MLIR_DUMP_PATH output) reuses alias names in each module, so the reader
 * numbers the stretches between `// -----` header lines and an alias reference
 * only sees the definitions of its own segment.
 */
#ifndef TKDUMP_READER_MLIR_LOC_H
#define TKDUMP_READER_MLIR_LOC_H

#include <stddef.h>
#include <stdint.h>

#include "util/text.h"
#include "tkdump/tk_diags.h"
#include "tkdump/tk_loctab.h"

#define READ_MLIR_MAX_STACKS 16   /* stacks per location (fused, callsite) */
#define READ_MLIR_MAX_NESTING 256 /* nested locations and alias hops */

typedef struct read_mlir_loc read_mlir_loc;

/* Receives each stack of a location read by read_mlir_loc_read(). */
typedef void (*read_mlir_emit_fn)(void *user, tk_stack_id stack);

/* Parser state for TEXT, which must outlive it.  Free with
 * read_mlir_loc_free(). */
read_mlir_loc *read_mlir_loc_new(const text_buf *text, tk_loctab *tab,
                                 tk_diags *diags);
void read_mlir_loc_free(read_mlir_loc *m);

/* Records the definition of alias NAME (NAME_LEN bytes after the '#', inside
 * the text) on LINE of SEGMENT; BODY points at its `loc(` and END at the end
 * of its line.  A second definition in one segment is reported and ignored. */
void read_mlir_loc_define(read_mlir_loc *m, const char *name, size_t name_len,
                          const char *body, const char *end, uint32_t line,
                          uint32_t segment);

/* Reads the location whose `loc(` starts at P, on LINE of SEGMENT whose text
 * runs from LINE_START to END, and calls EMIT once per stack (in the order of
 * the expression; repeats possible).  Problems become warnings naming LINE (or
 * the line of the alias definition at fault).  Returns where scanning should
 * go on: after the closing ')', or past the unreadable part; always > P. */
const char *read_mlir_loc_read(read_mlir_loc *m, const char *p, const char *end,
                               const char *line_start, uint32_t line,
                               uint32_t segment, read_mlir_emit_fn emit,
                               void *user);

/* Reports what is still pending (a count of warnings held back on a line
 * with too many).  Call once after the last read_mlir_loc_read(). */
void read_mlir_loc_finish(read_mlir_loc *m);

/* Whether any stack emitted so far has more than one frame. */
int read_mlir_loc_has_inline(const read_mlir_loc *m);

/* Given P at an opening '"', returns the position after the closing quote
 * (honouring backslash escapes), or NULL when the string is not closed before
 * END.  Linear in the string's length whatever its escapes. */
const char *read_mlir_string_end(const char *p, const char *end);

#endif
