/* tk_stage.h - one compiler stage of one kernel: its text and, per line, the
 * inline stacks of the source locations that line carries.
 *
 * A stage is read whole into memory, split into lines, and its locations are
 * parsed once (by the reader for its kind: MLIR for TTIR/TTGIR, LLVM IR, PTX,
 * SASS, AMDGCN).  Lines are numbered from 1 as in an editor.  A line may carry no
 * stack (an alias definition, a blank line, an instruction with no debug
 * location), one stack, or several (an op with located block arguments, a
 * fused location).
 *
 * Ownership: a stage owns its text and line index; the stacks it refers to are
 * owned by the tk_loctab it was read with, which must outlive the stage.
 */
#ifndef TKDUMP_TK_STAGE_H
#define TKDUMP_TK_STAGE_H

#include <stddef.h>
#include <stdint.h>

#include "tk_diags.h"
#include "tk_export.h"
#include "tk_loctab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The stages, in pipeline order within each backend: TTIR, TTGIR and LLVM
 * IR are common; NVIDIA's (CUDA) backend goes on to PTX and SASS, AMD's
 * (HIP) to AMDGCN, the assembly of its ".amdgcn" file (or the disassembly of
 * its ".hsaco" with line numbers when the text is missing).  A kernel has the
 * stages of one backend (tk_kernel_stage_expected() in tk_kernel.h says
 * which); front ends list them in this order.  New kinds are added before
 * TK_STAGE_COUNT, so a kind's value never changes. */
typedef enum {
    TK_STAGE_TTIR,
    TK_STAGE_TTGIR,
    TK_STAGE_LLIR,
    TK_STAGE_PTX,
    TK_STAGE_SASS,
    TK_STAGE_AMDGCN,
    TK_STAGE_COUNT,
    TK_STAGE_UNKNOWN = TK_STAGE_COUNT
} tk_stage_kind;

/* "ttir", "ttgir", "llir", "ptx", "sass", "amdgcn" ("unknown" otherwise): the
 * name in files, JSON and --stage. */
TK_API
const char *tk_stage_kind_name(tk_stage_kind kind);

/* "TTIR", "TTGIR", "LLVM IR", "PTX", "SASS", "AMDGCN" ("?" otherwise): the
 * name a person reads, in tabs and headings. */
TK_API
const char *tk_stage_kind_label(tk_stage_kind kind);

/* Parses a stage name as a user would type it ("ttgir", "TTGIR", "llvm",
 * "ll", "llir", "amdgcn", "gcn", ...).  Returns TK_STAGE_UNKNOWN when it
 * names no stage. */
TK_API
tk_stage_kind tk_stage_kind_parse(const char *name);

/* Guesses the stage from the first LEN bytes of a file's text, for files whose
 * name does not say (a loose "kernel.txt", a renamed dump).  Returns
 * TK_STAGE_UNKNOWN for anything else, binary data included.  TTIR and TTGIR
 * are told apart by TTGIR's "ttg." module attributes and layouts; AMDGCN is
 * the assembly (".amdgcn_target") or llvm-objdump's disassembly of a code
 * object ("file format elf64-amdgpu"). */
TK_API
tk_stage_kind tk_stage_kind_sniff(const char *data, size_t len);

typedef struct tk_stage tk_stage;

/* Reads the file at PATH as a stage of KIND, interning its locations into TAB.
 * Returns NULL (with an error in DIAGS naming PATH) when the file cannot be
 * read or is binary; otherwise a stage holding every line that could be read,
 * with a warning for each location that could not be parsed.  Free with
 * tk_stage_free(). */
TK_API
tk_stage *tk_stage_read(tk_stage_kind kind, const char *path, tk_loctab *tab,
                        tk_diags *diags);

/* The same over LEN bytes at DATA (copied), named NAME in diagnostics. */
TK_API
tk_stage *tk_stage_parse(tk_stage_kind kind, const char *name,
                         const char *data, size_t len, tk_loctab *tab,
                         tk_diags *diags);

TK_API
void tk_stage_free(tk_stage *stage);

TK_API
tk_stage_kind tk_stage_kind_of(const tk_stage *stage);

/* The path (or name) the stage was read from; owned by the stage. */
TK_API
const char *tk_stage_path(const tk_stage *stage);

/* Size of the text in bytes, and number of lines (a last line without a final
 * newline counts; an empty file has 0 lines). */
TK_API
size_t tk_stage_size(const tk_stage *stage);
TK_API
uint32_t tk_stage_line_count(const tk_stage *stage);

/* Line LINE (1-based) without its "\n" or "\r\n"; *LEN receives its length.
 * The text is not NUL-terminated at the line's end.  Returns NULL for a line
 * out of range.  Owned by the stage. */
TK_API
const char *tk_stage_line(const tk_stage *stage, uint32_t line, size_t *len);

/* The stacks line LINE carries; *IDS receives a pointer owned by the stage.
 * Returns their number (0 for no location or a line out of range). */
TK_API
size_t tk_stage_line_stacks(const tk_stage *stage, uint32_t line,
                            const tk_stack_id **ids);

/* Number of lines that carry at least one stack. */
TK_API
uint32_t tk_stage_located_line_count(const tk_stage *stage);

/* Whether the stage's format records inline frames at all.  SASS from
 * "nvdisasm -g" records only the innermost frame; from "-gi" the whole stack.
 * AMDGCN assembly records the whole stack (in its .loc comments); a
 * disassembly by "llvm-objdump --line-numbers" only the innermost frame.
 * Cross-stage matching compares only innermost frames against such a stage. */
TK_API
int tk_stage_has_inline_frames(const tk_stage *stage);

#ifdef __cplusplus
}
#endif
#endif
