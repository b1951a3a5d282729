/* tk_compare.h - two compilations of a kernel compared pass by pass: where
 * do they part ways, and what followed from it?
 *
 * Autotuning compiles one kernel many times, a Triton upgrade recompiles
 * everything, an edit recompiles one kernel.  A comparison takes two kernels
 * (two configurations in one bundle, or one kernel in two bundles), builds
 * both pass timelines (tk_timeline.h) and lines them up:
 *
 *   - Alignment.  Each pass is keyed by its IR level, name and argument
 *     (and, for LLVM passes that run once per function, the function, with
 *     the kernel's own name standing for itself so that two kernels of
 *     different names still line up).  The two lists of keys are diffed
 *     with the line diff engine (tk_diff.h, histogram): equal runs are
 *     passes both pipelines ran (TK_COMPARE_BOTH); a pass only one ran is a
 *     row of its own (TK_COMPARE_ONLY_A: B does not run it, "removed";
 *     TK_COMPARE_ONLY_B: "added").  Sub-steps are not aligned.
 *
 *   - The IR at each row.  After each row, each side's IR is the output of
 *     its latest pass up to that row (a row only A has leaves B's IR as it
 *     was).  Texts are compared by tk_normalize_digest(): once debug
 *     locations and value numbers are normalized away (so the same program
 *     captured twice, whose paths and Triton hashes differ, compares equal),
 *     and with the values each line names checked, as tk_normalize_diff()
 *     does.  The digests are taken while each timeline is built, one text
 *     at a time: a comparison holds two digests per pass, never the texts
 *     of two pipelines.  The timelines are built with
 *     TK_TIMELINE_WHOLE_UNITS, so the LLVM IR and machine code after every
 *     pass is the whole module; a loop pass's output is its loop, compared
 *     only with the other side's loop at the same row.
 *
 *   - The first divergence: the first row whose outputs differ.  Its INPUT
 *     says whether the IR before it was already different (the very first
 *     pass of two kernels whose TTIR differs: two autotune configurations
 *     with other tile sizes start from different TTIR).  Rows before it
 *     whose outputs could not be compared (an unknown text) are counted:
 *     with any, the divergence may lie earlier than the first row found.
 *
 *   - After it, per row, whether the pass did the same thing to both: the
 *     same lines (normalized) removed and added, in order.
 *
 * Besides the passes: the final stages compared whole (tk_ir_diff_stages()),
 * each side's configuration (tk_config.h), and the SASS instructions of
 * each source line side by side (tk_compare_lines()).
 *
 * Ownership: a comparison borrows both bundles and kernels (they must
 * outlive it); it owns its timelines (but those lent by the caller to
 * tk_compare_build_from()), rows and configurations.  Strings in
 * rows are the timelines' (their pass indexes').
 *
 * Threads: tk_compare_build() touches the bundles only through their pass
 * files (indexed on first use, as tk_timeline_of_kernel() does) and their
 * final stages' text; it never writes a location table, so a front end may
 * run it on a worker while its other views read the bundles' tables.
 * tk_compare_config() and tk_compare_lines() read locations and intern them
 * into the bundles' tables on their first call: call them where those
 * tables may be written (the thread that owns them).
 */
#ifndef TKDUMP_TK_COMPARE_H
#define TKDUMP_TK_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "tk_bundle.h"
#include "tk_config.h"
#include "tk_diags.h"
#include "tk_diff.h"
#include "tk_export.h"
#include "tk_ir_diff.h"
#include "tk_kernel.h"
#include "tk_timeline.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TK_COMPARE_NONE ((size_t)-1)

/* Side indices, as tk_ir_diff.h's. */
#define TK_COMPARE_A 0
#define TK_COMPARE_B 1

typedef enum {
    TK_COMPARE_BOTH,   /* a pass both pipelines ran */
    TK_COMPARE_ONLY_A, /* a pass only A ran ("removed" going from A to B) */
    TK_COMPARE_ONLY_B  /* a pass only B ran ("added") */
} tk_compare_align;

/* "both", "a", "b". */
TK_API
const char *tk_compare_align_name(tk_compare_align align);

typedef enum {
    TK_COMPARE_SAME,      /* equal once normalized */
    TK_COMPARE_DIFFERENT,
    TK_COMPARE_UNKNOWN    /* a side's text is unknown (no dump after a pass,
                             a text that could not be read, a row only one
                             side has for an effect) */
} tk_compare_verdict;

/* "same", "different", "unknown". */
TK_API
const char *tk_compare_verdict_name(tk_compare_verdict verdict);

typedef struct {
    tk_compare_align align;
    /* The pass in each timeline (tk_timeline_get()); TK_COMPARE_NONE on the
     * side that does not run it. */
    size_t pass[2];
    /* The pass whose output is each side's IR after this row (for the side
     * that does not run the pass: its latest pass before the row);
     * TK_COMPARE_NONE before its first pass. */
    size_t state[2];
    /* From the side(s) running it; never NULL. */
    const char *name, *arg;
    tk_pass_level level;
    tk_compare_verdict input;  /* the IR before the row */
    tk_compare_verdict output; /* the IR after it */
    /* Whether the pass did the same thing to both (same normalized lines
     * removed and added): SAME, DIFFERENT, or UNKNOWN when a side's effect
     * is unknown or only one side runs the pass. */
    tk_compare_verdict effect;
} tk_compare_row;

/* Bits of tk_compare_opts.flags. */
#define TK_COMPARE_NO_PASSES (1u << 0) /* no timelines: metadata and final
                                          stages only */

typedef struct {
    tk_diff_opts diff; /* zeros: histogram */
    unsigned flags;    /* TK_COMPARE_... */
} tk_compare_opts;

typedef struct tk_compare tk_compare;

/* Compares KERNEL_A of BUNDLE_A with KERNEL_B of BUNDLE_B (the same bundle
 * twice for two configurations).  Builds both timelines, one after the
 * other, reading each dump once; a kernel without pass dumps has no rows
 * (tk_compare_timeline() is NULL) and a note in DIAGS.  OPTS may be NULL.
 * Never fails on content; returns NULL only for NULL arguments.  Free with
 * tk_compare_free(). */
TK_API
tk_compare *tk_compare_build(tk_bundle *bundle_a, const tk_kernel *kernel_a,
                             tk_bundle *bundle_b, const tk_kernel *kernel_b,
                             const tk_compare_opts *opts, tk_diags *diags);
TK_API
void tk_compare_free(tk_compare *cmp);

/* What a comparison keeps of one timeline's passes: digests of their texts
 * and of what each changed, never the texts.  A front end that builds a
 * kernel's timeline for its own use gathers them as it goes, so that a
 * comparison of that kernel need not build the timeline again: call
 * tk_compare_digests_step() with every step its tk_timeline_build_steps()
 * callback is handed (sub-steps are skipped here), before anything that may
 * stop the calls.  The timeline must be built with TK_TIMELINE_WHOLE_UNITS
 * and the comparison's diff options (tk_compare_opts.diff), as
 * tk_compare_build() builds it.  Free with tk_compare_digests_free(). */
typedef struct tk_compare_digests tk_compare_digests;
TK_API
tk_compare_digests *tk_compare_digests_new(void);
TK_API
void tk_compare_digests_step(tk_compare_digests *digests, const tk_timeline_step *step);
TK_API
void tk_compare_digests_free(tk_compare_digests *digests);

/* tk_compare_build() with either side's timeline already built by the
 * caller: TL_A with the digests DIG_A gathered while it was built (the
 * same for B).  A side whose TL or DIG is NULL is built here, as
 * tk_compare_build() does.  The caller keeps ownership: the comparison
 * borrows TL (tk_compare_timeline() and tk_compare_diff_row() read it), so
 * it must outlive the comparison; DIG is copied and may be freed at once.
 * A timeline only read may be lent to several comparisons on several
 * threads at once. */
TK_API
tk_compare *tk_compare_build_from(tk_bundle *bundle_a, const tk_kernel *kernel_a,
                                  const tk_timeline *tl_a, const tk_compare_digests *dig_a,
                                  tk_bundle *bundle_b, const tk_kernel *kernel_b,
                                  const tk_timeline *tl_b, const tk_compare_digests *dig_b,
                                  const tk_compare_opts *opts, tk_diags *diags);

TK_API
const tk_kernel *tk_compare_kernel(const tk_compare *cmp, int side);
TK_API
tk_bundle *tk_compare_bundle(const tk_compare *cmp, int side);
/* SIDE's timeline; NULL when its kernel has no pass dumps. */
TK_API
const tk_timeline *tk_compare_timeline(const tk_compare *cmp, int side);
/* SIDE's configuration (tk_config.h), read on the first call. */
TK_API
const tk_config *tk_compare_config(tk_compare *cmp, int side);

TK_API
size_t tk_compare_row_count(const tk_compare *cmp);
/* Row I in pipeline order; NULL when out of range. */
TK_API
const tk_compare_row *tk_compare_row_get(const tk_compare *cmp, size_t i);

/* The row of the first divergence, or TK_COMPARE_NONE when every row's
 * outputs compare equal (or none could be compared).  *UNKNOWN_BEFORE (if
 * not NULL) receives the number of rows before it (before the end, when
 * there is none) whose outputs could not be compared. */
TK_API
size_t tk_compare_first_divergence(const tk_compare *cmp,
                                   size_t *unknown_before);

/* The IR after row I on both sides (each side's state, see
 * tk_compare_row), as a diff: what the two compilations hold at that point
 * of the pipeline.  WHICH TK_TL_INPUT gives the IR before the row instead.
 * Reads one text of each side.  Returns NULL with an error in DIAGS when a
 * side has no text there or the two are not the same kind of IR.  Caller
 * frees with tk_ir_diff_free(). */
TK_API
tk_ir_diff *tk_compare_diff_row(const tk_compare *cmp, size_t i,
                                tk_timeline_point which,
                                const tk_diff_opts *opts, tk_diags *diags);

/* The same, the texts read once into TEXTS and taken from there again
 * (tk_timeline_texts_diff(): the comparisons of one report share one);
 * TEXTS NULL: tk_compare_diff_row(). */
TK_API
tk_ir_diff *tk_compare_diff_row_kept(const tk_compare *cmp, tk_timeline_texts *texts,
                                     size_t i, tk_timeline_point which,
                                     const tk_diff_opts *opts, tk_diags *diags);

/* ---- final stages ------------------------------------------------------ */

typedef struct {
    int have[2];          /* whether each kernel has the stage */
    tk_compare_verdict verdict; /* UNKNOWN when a side lacks it */
    tk_diff_stats stats;  /* lines added going from A to B, and removed */
} tk_compare_stage;

/* Final stage KIND of both kernels compared whole, as
 * tk_ir_diff_stages() compares them.  NULL for KIND out of range. */
TK_API
const tk_compare_stage *tk_compare_final_stage(const tk_compare *cmp,
                                               tk_stage_kind kind);

/* ---- per source line -------------------------------------------------- */

/* One source line either kernel has SASS for.  FILE is the path as the
 * locations give it (two bundles are joined on it).  The per-line cost
 * (profiler counters per line, when the bundle has them) is to be added
 * here, per side, next to the counts: front ends show the rows as they
 * come, so one new field reaches every view. */
typedef struct {
    const char *file;   /* owned by the comparison */
    uint32_t line;
    uint32_t sass[2];        /* SASS instructions whose innermost frame is
                                the line (tk_bind_source_refs() n_exact) */
    uint32_t sass_called[2]; /* with the line in any frame (n_called) */
} tk_compare_line;

/* The source lines that either kernel's SASS is bound to, sorted by file
 * path and line: made on the first call (both kernels' binding indexes are
 * built, then freed).  *N receives their number; the array is owned by the
 * comparison.  None when neither kernel has SASS. */
TK_API
const tk_compare_line *tk_compare_lines(tk_compare *cmp, size_t *n);

#ifdef __cplusplus
}
#endif
#endif
