/* tk_cost.h - what each line costs: the SASS instructions every source line
 * and every IR line became, counted by class, and (with a profile,
 * tk_profile.h) the measured metrics of those instructions.
 *
 * SASS classes.  Every SASS instruction falls in one class by its opcode
 * (the mnemonic before the first '.', "HGMMA" of "HGMMA.64x128x16.F32"):
 * the table is in dumpers/src/cost/sass_class.c and docs/cost.md, one row
 * per opcode; an opcode no row names is "other".
 *
 * Metrics.  A tk_cost has a list of metrics, each a number per SASS
 * instruction, summed over lines: first the static ones, always there,
 * "instructions" (1 per instruction) and one per class ("global",
 * "shared", "tensor", ...: 1 when the instruction is of that class),
 * "spill_instructions" (1 for a local-memory LDL or STL) and "spill_bytes"
 * (the bytes per thread it moves: 4, or 1, 2, 8, 16 by its .U8 .S16 .64
 * .128 modifier); with the kernel's register life ranges (below) the peak
 * metrics "live_registers", "live_predicates", "live_uniform_registers"
 * and "live_uniform_predicates";
 * then the profile's (tk_profile_metric_name(): "samples", "inst_executed",
 * "stall_long_sb", ...).  Every value array this header hands out has
 * tk_cost_metric_count() numbers in that order.
 *
 * Live registers.  nvdisasm counts, at every instruction, the registers of
 * each file that hold a live value (`nvdisasm --print-life-ranges
 * --life-range-mode count -c NAME.cubin`, kept as NAME.sass_lr beside
 * NAME.cubin or beside the SASS file; docs/cost.md).  Those metrics are
 * peaks: everywhere this header says "sum" they take the maximum instead
 * (tk_cost_metric_is_peak()): a source line's exact value is the largest
 * count of the instructions whose innermost frame is that line, its
 * inclusive value the largest of those whose stack passes through it, an
 * IR line's the largest of the instructions bound to it, the total the
 * kernel's peak.  tk_cost_peak_sass_line() says where a peak is.
 *
 * Attribution.  A SASS instruction's values go to the source lines of its
 * inline stack as the binding index gives it (tk_bind_line_stacks(): its
 * own stack, or callers completed from the PTX):
 *   exact      to the innermost frame only (the line the code is of);
 *   inclusive  to every distinct line of the stack (the line and the
 *              calls that brought the code in);
 *   shared     for an instruction of a helper inlined at several call
 *              sites whose SASS says not which (no inline frames, and the
 *              PTX shows the helper's line under several callers): to each
 *              line that is a frame of some but not all of those callers'
 *              stacks.  Such a value is not in "inclusive": the binding
 *              cannot split it, and says so instead of guessing.
 * Instructions with no stack count as "no location".  Totals are
 * conserved: the instructions' values add up to tk_cost_total(), and the
 * exact values of all source lines plus tk_cost_no_location() add up to
 * the same.  An instruction line with several stacks (not seen from
 * nvdisasm) gives its exact value to the first one's innermost frame.
 *
 * IR lines.  Three numbers, each named for what it is wherever it is shown:
 *   own        an IR line's own share (tk_cost_ir_line_own(), the heat
 *              column of IR panes): each SASS instruction bound to several
 *              lines of a stage (every PTX line of a tl.dot has the dot's
 *              stack) is divided among them, among those that do its kind
 *              of work when some do (a wgmma line gets the HGMMAs: the
 *              tensor, TMA, barrier, global and shared classes, read from
 *              the PTX opcode or the TTIR/TTGIR operation), else among
 *              those that do none of these kinds, else among all.  The
 *              own values of a stage's lines add up to the values of the
 *              instructions bound to any of them.  A SASS line's own value
 *              is its instruction's.  Peak metrics are not divided: an IR
 *              line's is the largest of the instructions it gets.
 *   bound      the sum over every SASS instruction bound to the line
 *              (tk_bind_stage_to_stage(), tk_cost_ir_line()): the same on
 *              every line with the same stacks, so IR lines' bound values
 *              do not add up to the total;
 *   source     the exact value of the source line the IR line is code of
 *              (tk_cost_ir_line_source()).
 * Front ends say "this PTX line: 2.5; source line F:L total: 22".
 *
 * Memory: per source line three arrays, per IR line an index into the
 * arrays of the distinct sets of SASS lines, so a 100 000 line stage costs
 * 4 bytes a line plus its few thousand distinct sets.
 *
 * Ownership: a tk_cost borrows the index, the kernel, the location table
 * and the profile, which must outlive it; every pointer it returns is its
 * own and lives as long as it.
 */
#ifndef TKDUMP_TK_COST_H
#define TKDUMP_TK_COST_H

#include <stddef.h>
#include <stdint.h>

#include "tk_bind.h"
#include "tk_export.h"
#include "tk_kernel.h"
#include "tk_loctab.h"
#include "tk_profile.h"
#include "tk_stage.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- SASS instructions and their classes ------------------------------ */

typedef enum {
    TK_SASS_GLOBAL,  /* global and local memory: LDG, STG, LD, ST, ATOMG,
                        RED, LDL, STL (spills), surface and texture */
    TK_SASS_SHARED,  /* shared memory: LDS, STS, LDSM, STSM, ATOMS */
    TK_SASS_TENSOR,  /* tensor cores: HMMA, HGMMA, IMMA, IGMMA, QGMMA, ... */
    TK_SASS_TMA,     /* TMA and bulk or async copies: UTMALDG, UTMASTG,
                        UBLKCP, LDGSTS, ... */
    TK_SASS_BARRIER, /* barriers and waits: BAR, SYNCS, WARPSYNC, DEPBAR,
                        WARPGROUP, MEMBAR, FENCE, ... */
    TK_SASS_CONVERT, /* conversions: F2F, F2I, I2F, I2I, F2FP, FRND, ... */
    TK_SASS_ALU,     /* integer and float arithmetic, logic, compares,
                        moves, the uniform datapath's too */
    TK_SASS_CONTROL, /* control flow: BRA, EXIT, CALL, RET, BSSY, BREAK, ... */
    TK_SASS_OTHER,   /* the rest: constant loads, special registers,
                        shuffles, votes, NOP, and opcodes the table lacks */
    TK_SASS_CLASS_COUNT
} tk_sass_class;

/* "global", "shared", "tensor", "tma", "barrier", "convert", "alu",
 * "control", "other": the class's metric name. */
TK_API
const char *tk_sass_class_name(tk_sass_class cls);
/* "global memory", "shared memory", "tensor core", "TMA / bulk copy",
 * "barrier / wait", "conversion", "ALU", "control", "other". */
TK_API
const char *tk_sass_class_label(tk_sass_class cls);

/* The class of OPCODE (LEN bytes, with or without its modifiers:
 * "HGMMA.64x128x16.F32" or "HGMMA"). */
TK_API
tk_sass_class tk_sass_class_of(const char *opcode, size_t len);

/* One SASS instruction line of nvdisasm, an offset in a comment and the
 * instruction ("@!P0 LDG.E R2, [R4.64] ;" at offset 0x0bd0): its byte
 * offset in the function, and pointers into the line for the
 * opcode with its modifiers ("LDG.E", no predicate) and for the whole
 * instruction without the offset and the final " ;". */
typedef struct {
    uint32_t offset;
    const char *opcode;
    size_t opcode_len;
    const char *text;
    size_t text_len;
} tk_sass_insn;

/* Reads LEN bytes of LINE as an instruction line.  Returns 1 and fills
 * *INSN, or 0 for any other line (comments, labels, directives). */
TK_API
int tk_sass_insn_parse(const char *line, size_t len, tk_sass_insn *insn);

/* ---- the cost tables of one kernel ------------------------------------ */

typedef struct tk_cost tk_cost;

/* Builds the tables of KERNEL, bound by INDEX, whose locations are in TAB;
 * PROFILE (may be NULL: static counts only) is the kernel's, already
 * matched to its SASS (tk_profile_load()).  A kernel without SASS gives
 * tables of zeros.  Free with tk_cost_free().  INDEX, KERNEL, TAB and
 * PROFILE are borrowed and must outlive the tables: the source lines'
 * tables are made from INDEX on the first question about them (once, safe
 * from any thread). */
TK_API
tk_cost *tk_cost_new(const tk_bind *index, const tk_kernel *kernel,
                     const tk_loctab *tab, const tk_profile *profile);
TK_API
void tk_cost_free(tk_cost *cost);

/* The metrics, static first (see above). */
typedef enum {
    TK_METRIC_STATIC,  /* counted from the SASS text */
    TK_METRIC_MEASURED /* from the profile */
} tk_metric_kind;

TK_API
size_t tk_cost_metric_count(const tk_cost *cost);
/* "instructions", "tensor", "samples", "stall_long_sb"... */
TK_API
const char *tk_cost_metric_name(const tk_cost *cost, size_t metric);
/* What a person reads: "SASS instructions", "tensor core instructions",
 * "Warp Stall Sampling (All Samples)"... */
TK_API
const char *tk_cost_metric_label(const tk_cost *cost, size_t metric);
TK_API
tk_metric_kind tk_cost_metric_kind(const tk_cost *cost, size_t metric);
/* The index of the metric NAME, or -1. */
TK_API
int tk_cost_metric_find(const tk_cost *cost, const char *name);
/* Why the cost has no metric NAME when it is one this header names but the
 * kernel lacks (the live register metrics without NAME.sass_lr: what
 * tk_cost_life_ranges() says), for a front end to add to its "no such
 * metric"; NULL otherwise.  Owned by the cost. */
TK_API
const char *tk_cost_metric_missing(const tk_cost *cost, const char *name);
/* The metric a front end shows first: "samples" when the profile has it,
 * else "instructions". */
TK_API
size_t tk_cost_default_metric(const tk_cost *cost);
/* The measured metrics that are stall reasons ("stall_*"): the breakdown
 * a front end shows on hover.  *FIRST receives the first one's index;
 * returns how many there are (consecutive). */
TK_API
size_t tk_cost_stall_metrics(const tk_cost *cost, size_t *first);

/* Sums over every SASS instruction, and over those without a location. */
TK_API
const double *tk_cost_total(const tk_cost *cost);
TK_API
const double *tk_cost_no_location(const tk_cost *cost);

/* One source line's values. */
typedef struct {
    tk_file_id file;
    uint32_t line;
    const double *exact;
    const double *inclusive;
    const double *shared;
    /* The number of call sites its shared values are split between at
     * most (0 when it has none). */
    uint32_t shared_sites;
} tk_cost_line;

/* Every source line some SASS instruction's stack names, sorted by file
 * path, then line.  *LINES is owned by the cost. */
TK_API
size_t tk_cost_source_lines(const tk_cost *cost, const tk_cost_line **lines);
/* FILE:LINE's values, or NULL when no instruction names it. */
TK_API
const tk_cost_line *tk_cost_source_line(const tk_cost *cost, tk_file_id file,
                                        uint32_t line);

/* The bound values of line LINE of STAGE (the sum over every SASS
 * instruction bound to it), or NULL when none is (for SASS: its own
 * values, NULL when it is no instruction line). */
TK_API
const double *tk_cost_ir_line(const tk_cost *cost, tk_stage_kind stage,
                              uint32_t line);

/* Line LINE of STAGE's own share (see above: the heat column of an IR
 * pane), or NULL when it gets none.  For SASS, tk_cost_ir_line(). */
TK_API
const double *tk_cost_ir_line_own(const tk_cost *cost, tk_stage_kind stage,
                                  uint32_t line);

/* The source line line LINE of STAGE is code of (the innermost frame of its
 * first stack as the binding index gives it), or NULL without a location
 * or when no instruction names it.  Its exact values are the "source line
 * total" shown beside an IR line's own. */
TK_API
const tk_cost_line *tk_cost_ir_line_source(const tk_cost *cost,
                                           tk_stage_kind stage, uint32_t line);

/* Whether METRIC's values are maxima over instructions, not sums (the live
 * register counts). */
TK_API
int tk_cost_metric_is_peak(const tk_cost *cost, size_t metric);

/* The life ranges file the peak metrics were read from, or NULL when the
 * cost has none; then *WHY (may be NULL) receives why: "no NAME.sass_lr
 * beside the cubin (...)" or what was wrong with the file (owned by the
 * cost). */
TK_API
const char *tk_cost_life_ranges(const tk_cost *cost, const char **why);

/* Where METRIC peaks: the SASS line of the first instruction (in address
 * order) whose value of METRIC is the largest among the instructions of
 * source line FILE:LINE (its innermost frame only, or with INCLUSIVE any
 * frame of its stacks), or of the whole kernel when FILE is TK_NO_FILE.
 * 0 when there is no such instruction. */
TK_API
uint32_t tk_cost_peak_sass_line(const tk_cost *cost, size_t metric,
                                tk_file_id file, uint32_t line, int inclusive);
/* The same for line LINE of STAGE: among the instructions bound to it. */
TK_API
uint32_t tk_cost_ir_peak_sass_line(const tk_cost *cost, size_t metric,
                                   tk_stage_kind stage, uint32_t line);

/* Where the kernel's live registers peak, as front ends show it: the peaks
 * of the four register files (the totals of the live_* metrics), the SASS
 * line of the first instruction at the GPR peak (tk_cost_peak_sass_line()),
 * its offset, and the innermost frame of its first stack (what `tkview
 * info`, the report and the viewer call the peak's source line). */
typedef struct {
    size_t metric;        /* the index of "live_registers" */
    double gpr, pred, ugpr, upred;
    uint32_t sass_line;   /* 0: no instruction */
    int has_offset;
    uint32_t offset;
    tk_file_id file;      /* TK_NO_FILE: the instruction has no location */
    uint32_t line;
} tk_cost_reg_peak;

/* Fills *OUT for COST of KERNEL, bound by INDEX with locations in TAB (the
 * ones the cost was built with).  Returns 0, or -1 when the cost has no
 * life ranges (tk_cost_life_ranges() says why). */
TK_API
int tk_cost_register_peak(const tk_cost *cost, const tk_kernel *kernel,
                          const tk_bind *index, const tk_loctab *tab,
                          tk_cost_reg_peak *out);

/* ---- occupancy ---------------------------------------------------------- */

/* What a kernel's register count means for occupancy on its GPU (NVIDIA):
 * the rule of NVIDIA's occupancy calculator for compute capability 5.0 and
 * up.  Registers are allocated per warp in units of 256 (8 per thread:
 * ceil(N * 32 / 256) * 256), from 65 536 per SM; a block runs only when
 * all its warps get theirs, so the warps per SM are whole blocks:
 * floor(floor(65536 / per_warp) / warps_per_block) * warps_per_block, and
 * at most max_warps_per_sm (64 on 9.0 and 8.0, 48 on 8.6/8.9/12.x, 32 on
 * 7.5).  Registers only: shared memory and the block limit may allow
 * fewer. */
typedef struct {
    int registers;          /* per thread, the cubin's (ptxas's "Used N") */
    int warps_per_block;    /* the kernel's num_warps */
    int registers_per_sm;   /* 65536 */
    int max_warps_per_sm;
    int warps_per_sm;       /* at REGISTERS */
    int next_registers;     /* the most registers per thread that would
                               give more warps per SM (0: none would) */
    int next_warps_per_sm;  /* the warps per SM at next_registers */
} tk_occupancy;

/* Fills *OUT for KERNEL from its metadata (target "cuda:CC", registers,
 * num_warps).  Returns 0, or -1 when it is not known (no register count,
 * not an NVIDIA target). */
TK_API
int tk_cost_occupancy(const tk_kernel *kernel, tk_occupancy *out);

/* The class of SASS line LINE, or -1 when it is no instruction line. */
TK_API
int tk_cost_sass_class(const tk_cost *cost, uint32_t line);

/* The number of instructions of helpers inlined at several call sites
 * that the binding could not give to one of them (their values count in
 * "shared", see above). */
TK_API
uint32_t tk_cost_unsplit_instructions(const tk_cost *cost);

/* A source line whose stages disagree: the PTX puts N_PTX instructions of
 * class CLS (tensor, TMA, barrier, global or shared memory) on it (innermost
 * frame), nvdisasm's line table N_SASS.  ptxas moves instructions across
 * the PTX's .loc lines when it schedules, and its line table says where an
 * instruction ended up, not which PTX it came from (docs/cost.md).  Found
 * only for classes the whole kernel has as many of in both stages.  TEXT
 * is the sentence every front end shows: "PTX: 4 wgmma on this line; SASS
 * line info: 2 here, 2 on lines 32, 33". */
typedef struct {
    tk_file_id file;
    uint32_t line;
    tk_sass_class cls;
    uint32_t n_ptx;
    uint32_t n_sass;
    const char *text;
} tk_cost_disagreement;

/* Every disagreement of the kernel, sorted by file path, line, then class.
 * *OUT is owned by the cost; returns their number. */
TK_API
size_t tk_cost_disagreements(const tk_cost *cost,
                             const tk_cost_disagreement **out);
/* The disagreements of source line FILE:LINE (consecutive in the list
 * above); 0 when the stages agree about it. */
TK_API
size_t tk_cost_line_disagreements(const tk_cost *cost, tk_file_id file,
                                  uint32_t line,
                                  const tk_cost_disagreement **out);

#ifdef __cplusplus
}
#endif
#endif
