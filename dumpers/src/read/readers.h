/* readers.h - the location readers, one per format (internal).
 *
 * Each reader scans a whole stage text once and, for every line that carries
 * a source location, adds that line's inline stack(s) (innermost frame first)
 * to OUT, interning files and stacks in TAB.  Locations it cannot read become
 * warnings in DIAGS naming text->name and the line; the reader goes on with
 * the next line.  A reader never fails as a whole, never reads past
 * text->data[text->len], and takes time linear in the text's size whatever
 * the input (alias cycles, deep nesting and huge lines included).
 *
 * Line numbers and columns in the input that do not fit in 32 bits are
 * reported and the location dropped.
 */
#ifndef TKDUMP_READERS_H
#define TKDUMP_READERS_H

#include "read/linemap.h"
#include "util/text.h"
#include "tkdump/tk_diags.h"
#include "tkdump/tk_loctab.h"
#include "tkdump/tk_stage.h"

/* What a reader found out about the text beyond its line stacks. */
typedef struct {
    int has_inline_frames; /* the format recorded at least one inlined frame */
    /* Per line (index 1 .. n_lines), its tk_line_kind, or-ed with
     * READ_KIND_LOCATION for a line that only states a location.  Allocated
     * by the caller, all TK_LINE_OTHER; the reader sets what it classifies. */
    uint8_t *kinds;
} read_info;

#define READ_KIND_LOCATION 0x80
#define READ_KIND_MASK 0x7f

/* Records the kind of line LINE (KINDS may be NULL: nobody asked). */
static inline void read_set_kind(read_info *info, uint32_t line,
                                 tk_line_kind kind, int location)
{
    if (info && info->kinds)
        info->kinds[line] = (uint8_t)(kind | (location ? READ_KIND_LOCATION : 0));
}

/* TTIR, TTGIR and any MLIR with loc(...) debug info (mlir.c). */
void read_mlir_locs(const text_buf *text, tk_loctab *tab,
                    read_linemap_builder *out, read_info *info,
                    tk_diags *diags);

/* LLVM IR text with !dbg attachments (llvm.c). */
void read_llvm_locs(const text_buf *text, tk_loctab *tab,
                    read_linemap_builder *out, read_info *info,
                    tk_diags *diags);

/* PTX with .file/.loc directives (ptx.c). */
void read_ptx_locs(const text_buf *text, tk_loctab *tab,
                   read_linemap_builder *out, read_info *info,
                   tk_diags *diags);

/* SASS from nvdisasm -g / -gi (sass.c). */
void read_sass_locs(const text_buf *text, tk_loctab *tab,
                    read_linemap_builder *out, read_info *info,
                    tk_diags *diags);

/* AMDGCN: the assembly Triton writes as NAME.amdgcn, with .file/.loc
 * directives (amdgcn.c), or llvm-objdump's disassembly of the code object
 * with "; path:line" comments (amdgcn_dis.c); the text says which. */
void read_amdgcn_locs(const text_buf *text, tk_loctab *tab,
                      read_linemap_builder *out, read_info *info,
                      tk_diags *diags);

#endif
