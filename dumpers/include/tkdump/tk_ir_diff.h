/* tk_ir_diff.h - two IR texts normalized and diffed once, kept with their
 * hunks so that a front end can show the original lines (and their source
 * locations) of a unified diff.
 *
 * A diff is made from two texts (tk_ir_diff_texts()), from two final stages
 * (tk_ir_diff_stages()), or by a timeline between two of its points
 * (tk_timeline_diff(), tk_timeline.h).  Lines are compared as tk_normalize.h
 * compares them: debug locations and value numbers do not make a change.
 *
 * Ownership: a tk_ir_diff made from two texts owns copies of them; a diff
 * of two stages borrows the stages, and a diff made by a timeline reads
 * its lines back from the timeline's pass dump files (their indexes, and
 * the kernel, must outlive it).  Everything it returns is owned by the
 * diff.  Free with tk_ir_diff_free().  A diff is used by one thread at a
 * time: reading lines back fills its buffers.
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
 * SASS with their registers renamed by first use (tk_normalize.h), so that
 * renumbering is no change.  The stages must outlive the diff.  Returns NULL when
 * the kinds differ. */
TK_API
tk_ir_diff *tk_ir_diff_stages(const tk_stage *a, const tk_stage *b,
                              const tk_diff_opts *opts);

/* The same, comparing the stages as DIALECT: TK_IR_PLAIN compares PTX and
 * SASS with their registers as they are (a "raw" switch). */
TK_API
tk_ir_diff *tk_ir_diff_stages_as(const tk_stage *a, const tk_stage *b,
                                 tk_ir_dialect dialect,
                                 const tk_diff_opts *opts);

/* How a stage of KIND is normalized: MLIR, LLVM, PTX, SASS. */
TK_API
tk_ir_dialect tk_stage_kind_dialect(tk_stage_kind kind);

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

/* The hunks as a view shows them: tk_ir_diff_hunks()'s with each replaced
 * block's lines paired by likeness (tk_diff_align(), tk_diff.h): a replace
 * hunk pairs its lines one to one, in order (unless its block was too big
 * to align), and the lines that pair with none are a delete and an insert
 * hunk beside it.  The same lines are changed and the same changes made
 * (tk_diff_changes() gives the same groups).  Made on the first call, by
 * reading the starts of the replaced lines back; owned by the diff.  The
 * CLI's unified diff, the report's pass diffs and the viewer's diff views
 * show these rows; tk_ir_diff_group_budget() hands these out. */
TK_API
const tk_hunk *tk_ir_diff_aligned(const tk_ir_diff *d, size_t *n);

TK_API
uint32_t tk_ir_diff_kept_count(const tk_ir_diff *d, int side);
/* ---- reading lines back ------------------------------------------------
 *
 * A diff holds a few words per line (where the line lies, the hash of its
 * normalized text), never the texts: a line's text is read back from where
 * it lies (a pass dump file, by offset) when it is asked for, so a diff of
 * two 2 GB dumps costs what its lines cost, and showing a part of it costs
 * what that part holds.  Read the lines you show, in order where you can
 * (reads ahead are kept: a run of neighbouring lines costs one read). */

/* Kept line K of SIDE in its original text (locations and all); *LEN its
 * length; *LINE (if not NULL) its 1-based line number in the side's text.
 * The text is the diff's, valid until the next tk_ir_diff_kept_line() or
 * tk_ir_diff_kept_head() call for the same SIDE of D (each side has its
 * own: a line of A and a line of B can be held at once), or until D is
 * freed; copy what you keep.  NULL when K is out of range, or when the
 * text cannot be read back (its file changed since it was indexed). */
TK_API
const char *tk_ir_diff_kept_line(const tk_ir_diff *d, int side, uint32_t k,
                                 size_t *len, uint32_t *line);

/* The length in bytes of kept line K of SIDE, known without reading it; 0
 * when K is out of range. */
TK_API
size_t tk_ir_diff_kept_len(const tk_ir_diff *d, int side, uint32_t k);

/* The 1-based line number of kept line K of SIDE in the side's text,
 * known without reading it (for a caller that looks up the line's stacks
 * with tk_ir_diff_line_stacks() but shows no text); 0 out of range. */
TK_API
uint32_t tk_ir_diff_kept_number(const tk_ir_diff *d, int side, uint32_t k);

/* Whether kept line KA of A and kept line KB of B are the same bytes (a
 * context line whose text did not change at all, not even its value
 * numbers), told from their records: nothing is read.  0 out of range. */
TK_API
int tk_ir_diff_kept_equal(const tk_ir_diff *d, uint32_t ka, uint32_t kb);

/* The first bytes of kept line K of SIDE, at most MAX of them (cut before a
 * UTF-8 sequence that would not fit whole), as tk_ir_diff_kept_line() gives
 * the whole line and with the same lifetime: only those bytes are read.
 * *LEN receives how many; the line's whole length is
 * tk_ir_diff_kept_len().  For a line of 32 KB of struct type that a person
 * sees the start of. */
TK_API
const char *tk_ir_diff_kept_head(const tk_ir_diff *d, int side, uint32_t k,
                                 size_t max, size_t *len, uint32_t *line);

/* The number of changes of D: the groups tk_diff_changes() makes of its
 * hunks (TK_DIFF_CONTEXT lines of context), counted without keeping them.
 * It is the "N" of "change k of N" everywhere: `tkview diff --json`'s
 * "hunks", `tkview passes --changes`, the report's pass diffs and the
 * viewer's count, a diff cut over a front end's budget included (this
 * counts the whole diff).  0 for NULL. */
TK_API
size_t tk_ir_diff_change_count(const tk_ir_diff *d);

/* ---- showing a giant diff within a budget ----------------------------- *
 *
 * A pass that rewrites a 2 GB module changes every line of it: no page,
 * window or terminal can take that.  tk_ir_diff_group_budget() hands out
 * the groups of a unified diff (as tk_diff_group() makes them) up to a
 * budget of lines and bytes, and says what it left out, so that a front
 * end shows the start of the change and tells how to see the rest
 * (`tkview diff --pass N`, which prints all of it, reading as it goes). */

typedef struct {
    uint32_t context;      /* equal lines around each change, as
                              tk_diff_group() */
    uint64_t first_line;   /* lines of the unified diff to skip before the
                              first one handed out (0: from the start), for
                              a front end that pages through a giant diff */
    uint64_t max_lines;    /* lines handed out at most: each context,
                              removed and added line counts one (a group's
                              "@@" line does not); 0: no limit */
    uint64_t max_bytes;    /* bytes of those lines' text at most (a context
                              line counts its A side's bytes); 0: no
                              limit */
    size_t max_line_bytes; /* a longer line counts as this many bytes: the
                              front end shows its head (tk_ir_diff_kept_head)
                              with what is left out; 0: lines count whole */
} tk_ir_diff_budget;

/* What a budget handed out and left out, counted in unified diff lines.
 * The whole diff has lines_skipped + lines_shown + lines_left lines. */
typedef struct {
    uint64_t lines_skipped; /* before budget.first_line */
    uint64_t lines_shown;   /* handed out */
    uint64_t lines_left;    /* after the budget ran out */
    uint64_t bytes_shown;   /* as budget.max_bytes counts them */
    uint32_t groups;        /* groups of the whole diff */
    uint32_t groups_shown;  /* handed out, whole or in part */
    uint32_t removed_left;  /* removed lines left out (skipped or after) */
    uint32_t added_left;    /* added lines left out (skipped or after) */
    int cut;                /* 1 when any line was skipped or left out */
} tk_ir_diff_cut;

/* Hands the groups of D's unified diff to FN as tk_diff_group() does (a
 * TK_HUNK_GROUP hunk giving the extent of what is handed out of the group,
 * then its hunks, over kept lines: tk_ir_diff_aligned()'s), starting BUDGET->first_line lines in
 * and stopping when the next line would pass BUDGET->max_lines or
 * BUDGET->max_bytes (at least one line is handed out, whatever its size).
 * A group is cut between lines: a cut hunk keeps the lines handed out
 * (a replace cut among its removed lines becomes a delete).  The counts
 * come from the lines' lengths: nothing is read but what aligning the
 * replaced blocks reads (the starts of their lines, bounded).  Fills *CUT (may be
 * NULL).  Returns 0, or what FN returned to stop.  BUDGET NULL: no limit,
 * context 3. */
TK_API
int tk_ir_diff_group_budget(const tk_ir_diff *d, const tk_ir_diff_budget *budget,
                            tk_diff_hunk_fn fn, void *user, tk_ir_diff_cut *cut);

/* The normalization of SIDE (tk_normalize.h): its kept lines' hashes,
 * which the hunks index, and tk_normalize_digest() (a diff made by a
 * timeline keeps hashes only: tk_normalize_input()'s LINES is NULL).  Owned
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

/* ---- the changed words of a changed line --------------------------------
 *
 * Where a diff pairs line A with line B (a replaced line), the parts of
 * each that changed, as Meld shows them.  Both lines are cut into IR
 * tokens, the same for every dialect:
 *   - a value or symbol name: one of % @ # ^ ! followed by letters, digits
 *     and _ . $ - (%x_4, %arg0, #blocked1, @matmul_kernel, ^bb1, !dbg);
 *   - a word: letters, digits and _ . $ (tt.load, 1024xf32, i32, 0.5e);
 *   - a string in double quotes, \-escapes included;
 *   - a run of blanks;
 *   - any other character (one UTF-8 sequence): < > , : ( ) = ...
 * The tokens are diffed as lines are (tk_diff(), histogram); a run of
 * tokens only one side has is moved down while it says the same, as git
 * compacts a hunk ("#blocked> -> tensor<..., #blocked1> loc": the added
 * run is "-> tensor<..., #blocked1>", not "> -> tensor<..., #blocked1"),
 * and each side gets the byte ranges of its tokens outside the equal
 * hunks.  Ranges
 * separated only by blanks are merged into one ("%x_4, %x_5" rather than
 * two stretches); a range never starts or ends with a blank.  This is the
 * one rule of word highlighting: the report writes its ranges into its
 * data and the viewer asks for them, neither computes its own.
 *
 * Lines of more than TK_IR_WORDS_MAX_TOKENS tokens (a side) are not cut
 * into words: each non-empty side is then one range, its whole text.
 */
typedef struct {
    uint32_t off; /* byte offset into the line */
    uint32_t len; /* bytes */
} tk_ir_span;

#define TK_IR_WORDS_MAX_TOKENS 20000u

/* The changed ranges of A (A_LEN bytes, no line end) into *A_SPANS (*A_N
 * of them, in order) and of B into *B_SPANS (*B_N).  The arrays are the
 * caller's to g_free() (NULL when there is no range).  Equal lines give no
 * range.  Lines of 4 GiB or more give -1 and no range; otherwise 0. */
TK_API
int tk_ir_diff_words(const char *a, size_t a_len, const char *b, size_t b_len,
                     tk_ir_span **a_spans, size_t *a_n,
                     tk_ir_span **b_spans, size_t *b_n);

#ifdef __cplusplus
}
#endif
#endif
