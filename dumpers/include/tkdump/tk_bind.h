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
 * wrong binding is worse than none.  Such lines are the code of a helper
 * inlined at several call sites that the SASS cannot assign to one of them:
 * the frames every candidate stack shares still bind them
 * (tk_bind_line_certain_frames()); for the call sites,
 * tk_bind_shared_lines() lists them for a query, with the call sites, so
 * that a front end can say the answer is partial.  An IR line matched to
 * such a line compared innermost frames only: tk_bind_match_approximate()
 * says so.
 *
 * Counts are about instructions (tk_stage_line_kind()): a directive or
 * comment that carries a location (PTX ".loc", SASS "//## File") is
 * returned by the queries below, never counted in tk_bind_bound_line_count()
 * or tk_source_ref.
 *
 * AMDGCN disassembled from a code object (llvm-objdump, innermost frames
 * only) is completed the same way from the LLVM IR, AMD's last stage with
 * inline frames.
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

/* The lines of STAGE bound to any of source lines FIRST..LAST of FILE (the
 * lines of one statement: tk_bundle_statement()), ascending, without
 * repeats.  Caller frees *LINES with free().  Returns their number. */
TK_API
size_t tk_bind_lines_to_stage(const tk_bind *index, tk_file_id file,
                              uint32_t first, uint32_t last, tk_match match,
                              tk_stage_kind stage, uint32_t **lines);

/* Code a query may have reached but the index cannot give it: SASS lines
 * (without inline frames) of a helper inlined at several call sites, whose
 * source line the PTX shows under several stacks, so that each could come
 * from any of the call sites. */
typedef struct {
    uint32_t *lines;   /* instruction lines of the stage, ascending */
    size_t n_lines;
    tk_frame *sites;   /* the call sites they are shared by (column 0),
                          sorted by path and line */
    size_t n_sites;
} tk_bind_shared;

/* For a query of source lines FIRST..LAST of FILE with TK_MATCH_CALLED: the
 * lines of STAGE that came from code those lines called (the query is a
 * frame of one of the PTX's stacks for their source line) but that are not
 * bound to it, being shared with other call sites.  Fills *OUT (free its
 * arrays with tk_bind_shared_clear()) and returns the number of lines: 0
 * (arrays NULL) for a stage with inline frames or completed without
 * doubt. */
TK_API
size_t tk_bind_shared_lines(const tk_bind *index, tk_file_id file,
                            uint32_t first, uint32_t last, tk_stage_kind stage,
                            tk_bind_shared *out);
TK_API
void tk_bind_shared_clear(tk_bind_shared *shared);

/* The call sites line LINE of STAGE may have come from when the index
 * could not choose: a SASS line without inline frames (an AMDGCN
 * disassembly line) whose source line the PTX (the LLVM IR) shows under
 * several callers.  *STACKS (owned by the index) are those stacks, one per
 * call site; returns their number, 0 for a line bound without doubt.  The
 * lines tk_bind_shared_lines() lists are these lines. */
TK_API
size_t tk_bind_line_call_sites(const tk_bind *index, tk_stage_kind stage,
                               uint32_t line, const tk_stack_id **stacks);

/* The frames (column 0, innermost first, beyond the line's own stack)
 * that every call site's stack of line LINE of STAGE passes through, for a
 * line tk_bind_line_call_sites() lists candidates for: the helper's line
 * inlined at both call sites, the library function it called.  Such a line
 * is certain code of those frames: TK_MATCH_CALLED queries of them return it
 * and tk_bind_shared_lines() does not.  Only the frames some candidates lack
 * (the call sites) are in doubt.  *FRAMES is owned by the index; returns
 * their number, 0 for a line bound without doubt. */
TK_API
size_t tk_bind_line_certain_frames(const tk_bind *index, tk_stage_kind stage,
                                   uint32_t line, const tk_frame **frames);

/* Whether line TO_LINE of stage TO, an answer of tk_bind_stage_to_stage()
 * for line LINE of stage FROM, matched on the innermost frame only: one of
 * the two lines records no inline frames (SASS without them, callers not
 * known from the PTX) while the other has callers, so it came from the same
 * source line, maybe through another call site. */
TK_API
int tk_bind_match_approximate(const tk_bind *index, tk_stage_kind from,
                              uint32_t line, tk_stage_kind to, uint32_t to_line);

/* Every source position (file, line) that STAGE's instructions refer to in
 * any frame, with the number of instruction lines bound to it in each mode.
 * Sorted by file path, then line.  Owned by the index. */
typedef struct {
    tk_file_id file;
    uint32_t line;
    uint32_t n_exact;  /* instruction lines whose innermost frame is here */
    uint32_t n_called; /* instruction lines with a frame here */
} tk_source_ref;

TK_API
size_t tk_bind_source_refs(const tk_bind *index, tk_stage_kind stage,
                           const tk_source_ref **refs);

/* Number of instruction lines of STAGE that carry at least one stack. */
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
