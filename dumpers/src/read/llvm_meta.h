/* llvm_meta.h - one LLVM module's metadata nodes, resolved on demand
 * (internal, used by llvm.c).
 *
 * LLVM IR prints its metadata after the code that refers to it, so the reader
 * first indexes every "!N = ..." line of a module (read_llvm_meta_add_def), then
 * asks for the stack of each "!dbg !N" (read_llvm_meta_stack).  A node's text is
 * parsed the first time it is needed and the result kept: each node is parsed
 * once per module however often it is referenced, a malformed node is reported
 * once, at its own line, inlinedAt chains are walked once per node (deep
 * ones cut by read/frames.h's rule) and scope chains with a bound, both with
 * a cycle check, so no input costs more than linear time.
 *
 * The node text is not copied: TEXT must outlive the tables.
 */
#ifndef TKDUMP_READER_LLVM_META_H
#define TKDUMP_READER_LLVM_META_H

#include <stddef.h>
#include <stdint.h>

#include "util/text.h"
#include "tkdump/tk_diags.h"
#include "tkdump/tk_loctab.h"

typedef struct read_llvm_meta read_llvm_meta;

/* New empty tables reading nodes of TEXT, interning into TAB, reporting into
 * DIAGS (may be NULL).  Free with read_llvm_meta_free(). */
read_llvm_meta *read_llvm_meta_new(const text_buf *text, tk_loctab *tab,
                                   tk_diags *diags);
void read_llvm_meta_free(read_llvm_meta *m);

/* Forgets every node: the next module numbers its metadata from scratch. */
void read_llvm_meta_reset(read_llvm_meta *m);

/* Records line LINE ([P, END), starting with '!' and a digit) if it defines
 * a numbered node "!N = ...".  Cheap: the body is parsed only when used. */
void read_llvm_meta_add_def(read_llvm_meta *m, uint32_t line, const char *p,
                            const char *end);

/* Number of nodes recorded since the last reset. */
size_t read_llvm_meta_count(const read_llvm_meta *m);

/* Builds the number -> node index; call after the last add_def of a module,
 * before the first read_llvm_meta_stack.  Reports numbers defined twice. */
void read_llvm_meta_index(read_llvm_meta *m);

/* The stack of what "!dbg !NUM" on line LINE points at: a DILocation (its
 * frame and those of its inlinedAt chain) or a DISubprogram (its file and
 * line, column 0).  TK_NO_STACK for anything else, for an undefined NUM
 * (reported once per number and module) and for line 0, LLVM's "no source
 * line" (not reported). */
tk_stack_id read_llvm_meta_stack(read_llvm_meta *m, uint32_t num, uint32_t line);

/* The same for a node written in place, "!dbg !DILocation(...)": [P, END)
 * starts at its '!'. */
tk_stack_id read_llvm_meta_inline_stack(read_llvm_meta *m, const char *p,
                                        const char *end, uint32_t line);

#endif
