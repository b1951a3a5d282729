/* tk_ir_diff.h - two IR texts normalized and diffed once, kept with their
 * hunks so that a front end can show the original lines (and their source
 * locations) of a unified diff.
 *
 * A diff is made from two texts (tk_ir_diff_texts()), from two final stages
 * (tk_ir_diff_stages()), or by a timeline between two of its points
 * (tk_timeline_diff(), tk_timeline.h).  Lines are compared as tk_normalize.h
 * compares them: debug locations and value numbers do not make a change.
 *
 * Ownership: a tk_ir_diff owns copies of both texts it compares (a diff of
 * two stages borrows the stages, which must outlive it); everything it
 * returns is owned by the diff.  Free with tk_ir_diff_free().
 */
#ifndef TKDUMP_TK_IR_DIFF_H
#define TKDUMP_TK_IR_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "tk_diags.h"
#include "tk_diff.h"
#include "tk_export.h"
#include "tk_loctab.h"
#include "tk_normalize.h"
#include "tk_stage.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_ir_diff tk_ir_diff;

/* Side indices of a tk_ir_diff. */
#define TK_IR_A 0
#define TK_IR_B 1

/* Two texts (copied), normalized as DIALECT.  BIND_AS is the stage kind
 * their locations are read as by tk_ir_diff_bind() (TK_STAGE_TTIR/TTGIR for
 * MLIR, TK_STAGE_LLIR for LLVM IR; TK_STAGE_UNKNOWN: none).  NAME_A and
 * NAME_B describe the sides.  Returns NULL for texts of 4 GiB or more. */
TK_API
tk_ir_diff *tk_ir_diff_texts(tk_ir_dialect dialect, tk_stage_kind bind_as,
                             const char *name_a, const char *a, size_t a_len,
                             const char *name_b, const char *b, size_t b_len,
                             const tk_diff_opts *opts);

/* Two final stages of the same kind (a kernel in two bundles, two autotune
 * configurations): the stages' lines and stacks as they are (no binding
 * step needed).  TTIR/TTGIR are compared as MLIR, LLIR as LLVM IR, PTX and
 * SASS line by line.  The stages must outlive the diff.  Returns NULL when
 * the kinds differ. */
TK_API
tk_ir_diff *tk_ir_diff_stages(const tk_stage *a, const tk_stage *b,
                              const tk_diff_opts *opts);

TK_API
void tk_ir_diff_free(tk_ir_diff *d);

TK_API
tk_ir_dialect tk_ir_diff_dialect(const tk_ir_diff *d);
/* What SIDE (TK_IR_A or TK_IR_B) is; owned by the diff. */
TK_API
const char *tk_ir_diff_name(const tk_ir_diff *d, int side);
TK_API
tk_diff_stats tk_ir_diff_stats(const tk_ir_diff *d);

/* The hunks, over kept lines (as TK_NORMALIZE_DIFF_KEPT_LINES gives them:
 * lines that carry only debug information, and blank lines, are left out;
 * equal hunks pair lines one to one).  Give them to tk_diff_group() for a
 * unified diff.  *N receives their number. */
TK_API
const tk_hunk *tk_ir_diff_hunks(const tk_ir_diff *d, size_t *n);

TK_API
uint32_t tk_ir_diff_kept_count(const tk_ir_diff *d, int side);
/* Kept line K of SIDE in its original text (locations and all); *LEN its
 * length; *LINE (if not NULL) its 1-based line number in the side's text.
 * NULL when K is out of range. */
TK_API
const char *tk_ir_diff_kept_line(const tk_ir_diff *d, int side, uint32_t k,
                                 size_t *len, uint32_t *line);

/* The normalization of SIDE (tk_normalize.h): its kept lines' normalized
 * text and hashes, which the hunks index, and tk_normalize_digest().  Owned
 * by the diff (for a diff handed out while a timeline is built, valid
 * during that call only, like the diff). */
TK_API
const tk_normalize *tk_ir_diff_normalized(const tk_ir_diff *d, int side);

/* Reads the locations of both sides (once; later calls do nothing),
 * interning them in TAB, which must outlive the diff.  Machine code has
 * none.  Returns 0; problems go to DIAGS (may be NULL). */
TK_API
int tk_ir_diff_bind(tk_ir_diff *d, tk_loctab *tab, tk_diags *diags);

/* The stacks of line LINE (1-based) of SIDE; 0 before tk_ir_diff_bind()
 * or for a line without location.  *IDS owned by the diff. */
TK_API
size_t tk_ir_diff_line_stacks(const tk_ir_diff *d, int side, uint32_t line,
                              const tk_stack_id **ids);

#ifdef __cplusplus
}
#endif
#endif
