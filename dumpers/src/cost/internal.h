/* internal.h - what the files of cost/ share (internal).
 *
 * sass_class.c   SASS lines read, the opcode -> class table
 * kernel_sass.c  a kernel's SASS instructions: line, offset, opcode
 * profile.c      tk_profile: the table, its file in a bundle, matching
 * profile_rows.c its rows read without a JSON tree
 * ncu_csv.c      Nsight Compute's source page export read
 * regs.c         live registers (NAME.sass_lr), local memory, occupancy
 * cost.c         tk_cost: the tables per source line and IR line, built
 * cost_query.c   tk_cost: what the tables answer (cost_table.h)
 * ir_lines.c     the IR lines' tables: the SASS bound to each, built
 * ir_share.c     an IR line's own share, by the class of its operation
 * stage_disagree.c  lines whose PTX and SASS disagree by class
 */
#ifndef TKDUMP_COST_INTERNAL_H
#define TKDUMP_COST_INTERNAL_H

#include <glib.h>

#include "tkdump/tk_bind.h"
#include "tkdump/tk_cost.h"
#include "tkdump/tk_profile.h"

/* ---- sass_class.c ---- */

/* The opcode (with its modifiers) of the instruction text at P..END, after
 * an optional dual-issue "{" and predicate ("@!P0").  Returns 1 and sets
 * *OP, *OP_LEN, or 0 when there is none. */
int cost_sass_opcode(const char *p, const char *end, const char **op,
                     size_t *op_len);

/* Whether the table names OPCODE's mnemonic (for the tests: which opcodes
 * of a capture fall to "other" only because the table lacks them). */
int cost_sass_class_known(const char *op, size_t len);
/* Whether the table is in strcmp order, and its number of opcodes (for the
 * tests). */
int cost_sass_table_sorted(void);
size_t cost_sass_table_count(void);

/* ---- kernel_sass.c ---- */

/* The instructions of a kernel's SASS, in the order of its lines: those of
 * its own function (the ".text.NAME" section when the file names it, else
 * every instruction line). */
typedef struct {
    uint32_t *line;    /* SASS line of each instruction */
    uint32_t *offset;  /* its byte offset */
    uint32_t *op;      /* offset of its opcode in the line */
    uint16_t *op_len;
    uint8_t *cls;      /* tk_sass_class */
    size_t n;
} cost_insns;

/* Reads the instructions of STAGE (a SASS stage) for the kernel NAME. */
void cost_insns_read(const tk_stage *stage, const char *name, cost_insns *out);
void cost_insns_clear(cost_insns *in);

/* ---- regs.c ---- */

/* The register files of nvdisasm's life-range table, in this order. */
enum { COST_LR_GPR, COST_LR_PRED, COST_LR_UGPR, COST_LR_UPRED, COST_LR_FILES };

/* Reads TEXT (LEN bytes: nvdisasm --print-life-ranges --life-range-mode
 * count) for the kernel NAME and puts each of the IN instructions of SASS
 * its live counts: OUT has COST_LR_FILES numbers per instruction.  The
 * rows must be the same instructions (offsets and opcodes).  Returns 0, or
 * -1 with *WHY (caller frees). */
int cost_lr_match(const char *text, size_t len, const char *name,
                  const tk_stage *sass, const cost_insns *in, uint16_t *out,
                  char **why);

/* The bytes a local-memory instruction OP (LEN bytes, with modifiers:
 * "STL.64") moves per thread, with *STORE 1 for STL, 0 for LDL; 0 when OP
 * is neither. */
int cost_local_bytes(const char *op, size_t len, int *store);

/* ---- stage_disagree.c ---- */

/* The class (a tk_sass_class) of PTX opcode OP (LEN bytes, with its
 * modifiers) among tensor, TMA, barrier, global and shared; -1 for the
 * others. */
int cost_ptx_class(const char *op, size_t len);

typedef struct {
    tk_cost_disagreement pub;
    char *text; /* owned; pub.text points at it */
} cost_disagreement;

/* Appends to OUT (cost_disagreement) the source lines of kernel K whose
 * PTX and SASS disagree (see the file's comment), by class, then line. */
void cost_disagreements_find(const tk_bind *ix, const tk_kernel *k,
                             const tk_loctab *tab, const cost_insns *insns,
                             GArray *out);

/* ---- profile.c ---- */

/* An empty profile (no metric, no row) of KERNEL as TOOL named it. */
tk_profile *cost_profile_new(const char *tool, const char *from,
                             const char *kernel);
/* Metrics are added before any row. */
void cost_profile_add_metric(tk_profile *p, const char *name,
                             const char *label);
/* A row: the instruction at OFFSET with opcode OP (OP_LEN bytes) and one
 * value per metric. */
void cost_profile_add_row(tk_profile *p, uint32_t offset, const char *op,
                          size_t op_len, const double *values);
tk_profile *cost_profile_copy(const tk_profile *p);

/* ---- profile_rows.c ---- */

/* Where the rows of the profile file's text (LEN bytes at DATA) begin:
 * just past the '[' of its top-level "instructions"; 0 when not found. */
size_t cost_profile_rows_at(const char *data, size_t len);
/* Adds to P (NM metrics) the rows in LEN bytes at TEXT (what follows that
 * '['), which must end the file ("] }"); 0, or -1 at anything else
 * (P then has some of the rows: free it). */
int cost_profile_rows_read(const char *text, size_t len, tk_profile *p, size_t nm);
/* Why P's rows are not the SASS instructions of KERNEL (caller frees), or
 * NULL when they are. */
char *cost_profile_mismatch(const tk_profile *p, const tk_kernel *kernel);
/* Matches P to KERNEL (its rows to the kernel's SASS lines).  Returns 0,
 * or -1 with *WHY set (caller frees). */
int cost_profile_match(tk_profile *p, const tk_kernel *kernel, char **why);
/* The text of P's file in a bundle (caller frees); *LEN its length. */
char *cost_profile_serialize(const tk_profile *p, size_t *len);

#endif
