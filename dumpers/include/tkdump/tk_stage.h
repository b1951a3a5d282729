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

/* What a line is, as the stage's reader classified it.  Only instructions
 * are code: counts ("k of n", bound lines, a source line's number of IR
 * lines) and navigation are about them.  A directive or comment may still
 * carry a location (PTX ".loc", SASS "//## File"): the binding index returns
 * it where asked, and front ends mark it as not code.
 *
 *   INSTRUCTION  an MLIR op (region openers included), an LLVM IR
 *                instruction, a PTX instruction (predicated, inline asm
 *                included), a SASS instruction (address comment, opcode)
 *   DIRECTIVE    MLIR "#loc" definitions, "module" and function headers
 *                (tt.func, llvm.func); LLVM "define"/"declare", globals,
 *                "target ..."; "#dbg_" debug records; PTX ".loc", ".file",
 *                ".reg", ".entry", DWARF ".b8" data; SASS ".section", ...
 *   COMMENT      "//" (MLIR, PTX, SASS, including "//## File" locations),
 *                ";" (LLVM IR)
 *   LABEL        PTX and SASS "NAME:" (a name, then one colon: a "::" inside
 *                an opcode such as "fence.proxy.async.shared::cta" is not
 *                one), LLVM block labels, MLIR block headers "^bb0(...):"
 *   METADATA     LLVM "!N = ..." and "attributes #N", MLIR attribute aliases
 *                ("#blocked = #ttg.blocked<...>")
 *   OTHER        blank lines, lone braces and parentheses, the "}" line
 *                that closes an MLIR region, a PTX statement's continuation
 */
typedef enum {
    TK_LINE_INSTRUCTION,
    TK_LINE_DIRECTIVE,
    TK_LINE_COMMENT,
    TK_LINE_LABEL,
    TK_LINE_METADATA,
    TK_LINE_OTHER,
    TK_LINE_KIND_COUNT
} tk_line_kind;

/* "instruction", "directive", "comment", "label", "metadata", "other". */
TK_API
const char *tk_line_kind_name(tk_line_kind kind);

/* The kind of line LINE; TK_LINE_OTHER for a line out of range. */
TK_API
tk_line_kind tk_stage_line_kind(const tk_stage *stage, uint32_t line);

/* Whether line LINE is there only to state a source location: MLIR "#loc"
 * definitions, PTX ".loc" and ".file", SASS "//## File" comments.  Front
 * ends fold these lines away by default. */
TK_API
int tk_stage_line_is_location(const tk_stage *stage, uint32_t line);

/* How a code pane shows a line without the indentation its format
 * carries: HEAD (may be empty), then two blanks when HEAD is not empty,
 * then BODY.  Both point into the stage's text (valid while STAGE is).
 * For nvdisasm's SASS instruction lines (8 blanks, the address in a
 * comment, 19 blanks, "S2R R3, SR_TID.X ;") HEAD is the address comment
 * and BODY the instruction, the
 * ~27 blanks around the address dropped: the instruction's opcode is
 * never pushed out of a narrow pane.  The report's data, the viewer and
 * the CLI show SASS this way. */
typedef struct {
    const char *head;
    size_t head_len;
    const char *body;
    size_t body_len;
} tk_display_line;

/* Fills *OUT for line LINE of STAGE; returns 1 when the line is shown
 * shortened (HEAD + "  " + BODY), 0 when it is shown as it is (BODY: the
 * whole line; empty for a line out of range). */
TK_API
int tk_stage_line_display(const tk_stage *stage, uint32_t line, tk_display_line *out);

/* Number of instruction lines of the stage, and among the N lines at LINES
 * (any order, repeats counted). */
TK_API
uint32_t tk_stage_instruction_count(const tk_stage *stage);
TK_API
size_t tk_stage_count_instructions(const tk_stage *stage,
                                   const uint32_t *lines, size_t n);

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
