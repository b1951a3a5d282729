/* amdgcn.h - the two AMDGCN texts (internal, used by amdgcn.c and
 * amdgcn_dis.c; readers.h's read_amdgcn_locs() picks one).
 *
 * NAME.amdgcn is the assembly LLVM's AMDGPU printer wrote, with .file/.loc
 * directives and whole inline chains (amdgcn.c).  When only the code object
 * (NAME.hsaco) is left, "llvm-objdump-19 -d --line-numbers --mcpu=gfx942
 * NAME.hsaco" prints its disassembly with "; /path/file.py:LINE" comments:
 * innermost frames only, no columns (amdgcn_dis.c).  Both take readers.h's
 * signature.
 */
#ifndef TKDUMP_READ_AMDGCN_H
#define TKDUMP_READ_AMDGCN_H

#include "read/readers.h"

void read_amdgcn_asm_locs(const text_buf *text, tk_loctab *tab,
                          read_linemap_builder *out, read_info *info,
                          tk_diags *diags);

void read_amdgcn_dis_locs(const text_buf *text, tk_loctab *tab,
                          read_linemap_builder *out, read_info *info,
                          tk_diags *diags);

/* Whether TEXT is llvm-objdump's disassembly: its banner ("FILE:\tfile
 * format elf64-amdgpu") or "Disassembly of section" in the first lines. */
int read_amdgcn_is_disassembly(const text_buf *text);

#endif
