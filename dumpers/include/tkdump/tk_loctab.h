/* tk_loctab.h - source locations: files, frames and inline stacks.
 *
 * A location in any stage (MLIR loc(...), LLVM !DILocation, PTX .loc, SASS
 * //## comments) becomes an inline *stack*: the frames from the innermost (the
 * code that really ran, e.g. a line of triton/language/standard.py) out to the
 * outermost caller (the user's kernel line).  Stacks and file paths are
 * interned in a tk_loctab shared by every stage of every kernel of a bundle, so
 * two equal stacks have the same id and two equal paths the same file id
 * everywhere in that bundle.
 *
 * Ownership: the tk_loctab owns every path and frame it hands out; pointers
 * stay valid until tk_loctab_free() (interning more never moves them).
 */
#ifndef TKDUMP_TK_LOCTAB_H
#define TKDUMP_TK_LOCTAB_H

#include <stddef.h>
#include <stdint.h>

#include "tk_export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t tk_file_id;  /* index into the table's files */
typedef uint32_t tk_stack_id; /* index into the table's stacks */

#define TK_NO_STACK ((tk_stack_id)UINT32_MAX)
#define TK_NO_FILE ((tk_file_id)UINT32_MAX)

/* One frame of a stack.  LINE is 1-based.  COL is 1-based, or 0 where the
 * format has no column (SASS) or the producer left it out (LLVM without
 * "column:"); Triton's function locations use column 0 too. */
typedef struct {
    tk_file_id file;
    uint32_t line;
    uint32_t col;
} tk_frame;

typedef struct tk_loctab tk_loctab;

TK_API
tk_loctab *tk_loctab_new(void);
TK_API
void tk_loctab_free(tk_loctab *tab);

/* Interns the path given as LEN bytes at PATH (not NUL-terminated; any bytes
 * but NUL, valid UTF-8 or not) and returns its id. */
TK_API
tk_file_id tk_loctab_file(tk_loctab *tab, const char *path, size_t len);

/* The path of a file id, NUL-terminated, owned by the table. */
TK_API
const char *tk_loctab_file_path(const tk_loctab *tab, tk_file_id file);
TK_API
size_t tk_loctab_file_count(const tk_loctab *tab);

/* Interns a stack of N >= 1 frames, innermost first, and returns its id. */
TK_API
tk_stack_id tk_loctab_stack(tk_loctab *tab, const tk_frame *frames, size_t n);

/* The frames of stack ID, innermost first; *N receives their number.  The
 * array is owned by the table and never moves. */
TK_API
const tk_frame *tk_loctab_stack_frames(const tk_loctab *tab, tk_stack_id id,
                                       size_t *n);
TK_API
size_t tk_loctab_stack_count(const tk_loctab *tab);

/* Whether two frames denote the same source position.  A column of 0 on either
 * side matches any column: SASS carries no columns, yet binds to the same
 * source lines as the stages that do. */
static inline int tk_frame_same_place(tk_frame a, tk_frame b)
{
    return a.file == b.file && a.line == b.line &&
           (a.col == 0 || b.col == 0 || a.col == b.col);
}

#ifdef __cplusplus
}
#endif
#endif
