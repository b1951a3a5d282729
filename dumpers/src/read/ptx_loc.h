/* ptx_loc.h - one ".loc" directive of PTX or AMDGCN to an inline stack
 * (internal, used by ptx.c and amdgcn.c).
 *
 * A .loc gives the innermost frame by file index.  The callers come from two
 * places: the newer "inlined_at F L C" option (one caller, by file index) and
 * the comment LLVM's printer appends, "// a.py:3:7 @[ b.py:9:2 @[ k.py:16:15 ] ]"
 * in PTX, "; a.py:3:7 @[ ... ]" in AMDGCN, which has the whole chain but
 * names files by the DIFile's file name only.  Deep chains are cut by
 * read/frames.h's rule.
 * The comment's names are matched to the .file table; a name that several
 * files share is kept as written rather than guessed.
 */
#ifndef TKDUMP_READER_PTX_LOC_H
#define TKDUMP_READER_PTX_LOC_H

#include <stdint.h>

#include "read/ptx_files.h"
#include "tkdump/tk_diags.h"
#include "tkdump/tk_loctab.h"

typedef struct read_ptx_loc_reader read_ptx_loc_reader;

/* Reads .loc lines of the text named NAME (for diagnostics; must outlive the
 * reader) with the files of FILES, interning into TAB.  DIAGS may be NULL.
 * Free with read_ptx_loc_reader_free(). */
read_ptx_loc_reader *read_ptx_loc_reader_new(const char *name, tk_loctab *tab,
                                             read_ptx_files *files, tk_diags *diags);
void read_ptx_loc_reader_free(read_ptx_loc_reader *r);

/* What starts a line's trailing comment: "//" (PTX, the default) or ";"
 * (AMDGCN).  COMMENT must outlive the reader. */
void read_ptx_loc_reader_set_comment(read_ptx_loc_reader *r,
                                     const char *comment);

/* The stack of the .loc directive on line LINE; P is just past ".loc", END
 * the end of the line.  TK_NO_STACK when it has none: line 0 (the compiler's
 * "no source line", not reported) or a problem (reported; a file index that
 * no .file declares is reported once, at its first use). */
tk_stack_id read_ptx_loc_read(read_ptx_loc_reader *r, uint32_t line,
                              const char *p, const char *end);

#endif
