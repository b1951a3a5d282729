/* tk_bind.h - the binding index of one kernel (a tk_bind): source line <->
 * IR lines of every stage, and IR line <-> IR lines of another stage.
 *
 * Two ways to ask for a source line:
 *   TK_MATCH_EXACT     IR whose innermost frame is that line: the code the
 *                      line itself became;
 *   TK_MATCH_CALLED    IR with that line in any frame of its stack: the line
 *                      and everything it called (inlined @triton.jit helpers,
 *                      Triton's library), which is what "line 16 became" means
 *                      to a user whose line 16 is tl.sum(...).
 *
 * IR line -> other stage: the lines of the other stage that carry a stack equal
 * to one of the IR line's stacks (columns compared where both stages have
 * them).  When the other stage records only innermost frames (SASS without
 * inline info) the innermost frames are compared.  In a USE_IR_LOC capture
 * (later stages locate their ops at lines of the TTIR or TTGIR file), a TTIR or
 * TTGIR line binds exactly to the later lines located at it.
 *
 * SASS from nvdisasm often lacks inline frames.  Where the kernel's PTX shows
 * that every instruction with a given innermost (file, line) has the same
 * inline stack, a SASS line with that innermost frame is given that stack, so
 * clicking a user line finds the SASS of the helpers it called.  Where the PTX
 * shows several stacks for that frame, the SASS line keeps its one frame: a
 * wrong binding is worse than none.  AMDGCN disassembled from a code object
 * (llvm-objdump, innermost frames only) is completed the same way from the
 * LLVM IR, AMD's last stage with inline frames.
 *
 * Ownership: the index borrows the kernel and its bundle's location table,
 * which must outlive it.  Arrays it returns are owned by the index unless the
 * comment says "caller frees".
 */
#ifndef TKDUMP_TK_BIND_H
#define TKDUMP_TK_BIND_H

#include <stddef.h>
#include <stdint.h>

#include "tk_export.h"
#include "tk_kernel.h"
#include "tk_loctab.h"
#include "tk_stage.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TK_MATCH_EXACT,
    TK_MATCH_CALLED
} tk_match;

typedef struct tk_bind tk_bind;

/* Builds the index of KERNEL, whose locations live in TAB (the stacks it
 * infers for SASS lines are interned there).  Never fails on content (a kernel
 * with no locations gives an empty index).  Free with tk_bind_free(). */
TK_API
tk_bind *tk_bind_new(const tk_kernel *kernel, tk_loctab *tab);
TK_API
void tk_bind_free(tk_bind *index);

/* The stacks of LINE of STAGE as the index sees them: the stage's own, or for
 * SASS lines the stack completed from the PTX (see above; AMDGCN disassembly
 * from the LLVM IR).  *IDS is owned by
 * the index or the stage.  Returns their number. */
TK_API
size_t tk_bind_line_stacks(const tk_bind *index, tk_stage_kind stage,
                           uint32_t line, const tk_stack_id **ids);

/* Whether a SASS line's stack was completed from the PTX (an AMDGCN
 * disassembly line's from the LLVM IR). */
TK_API
int tk_bind_stack_inferred(const tk_bind *index, tk_stage_kind stage,
                           uint32_t line);

/* The stage STAGE's lines took their callers from: TK_STAGE_PTX for SASS
 * without inline frames, TK_STAGE_LLIR for an AMDGCN disassembly;
 * TK_STAGE_UNKNOWN when STAGE's lines carry their own stacks.  For a front
 * end to say where an inferred stack came from. */
TK_API
tk_stage_kind tk_bind_inferred_from(const tk_bind *index, tk_stage_kind stage);

/* The lines of STAGE bound to source FILE:LINE, ascending, without repeats.
 * *LINES is owned by the index; returns their number. */
TK_API
size_t tk_bind_source_to_stage(const tk_bind *index, tk_file_id file,
                               uint32_t line, tk_match match,
                               tk_stage_kind stage, const uint32_t **lines);

/* The lines of stage TO bound to line LINE of stage FROM, ascending, without
 * repeats.  Caller frees *LINES with free().  Returns their number. */
TK_API
size_t tk_bind_stage_to_stage(const tk_bind *index, tk_stage_kind from,
                              uint32_t line, tk_stage_kind to,
                              uint32_t **lines);

/* Every source position (file, line) that STAGE refers to in any frame, with
 * the number of IR lines bound to it in each mode.  Sorted by file path, then
 * line.  Owned by the index. */
typedef struct {
    tk_file_id file;
    uint32_t line;
    uint32_t n_exact;  /* IR lines whose innermost frame is here */
    uint32_t n_called; /* IR lines with a frame here */
} tk_source_ref;

TK_API
size_t tk_bind_source_refs(const tk_bind *index, tk_stage_kind stage,
                           const tk_source_ref **refs);

/* Number of IR lines of STAGE that carry at least one stack. */
TK_API
uint32_t tk_bind_bound_line_count(const tk_bind *index,
                                  tk_stage_kind stage);

/* For a USE_IR_LOC capture: the stage whose file the other stages' locations
 * point at (TK_STAGE_TTIR or TK_STAGE_TTGIR), or TK_STAGE_UNKNOWN. */
TK_API
tk_stage_kind tk_bind_irloc_stage(const tk_bind *index);

#ifdef __cplusplus
}
#endif
#endif
