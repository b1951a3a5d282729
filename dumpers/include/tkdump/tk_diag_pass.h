/* tk_diag_pass.h - a compiler message's pass placed on its kernel's pass
 * timeline: the step the viewer's Diagnostics panel and the report's list
 * open in pass mode, and the step `tkview diagnostics` names.
 *
 * A message knows a pass by name only (tk_diag_entry.pass, tk_diag.h): the
 * pass a failed pipeline names ("Pipeline failed while executing
 * [`NVGPUWarpSpecialization` on 'builtin.module' operation]"), or the pass
 * the known-message table says emits it.  A timeline may run a pass of
 * that name several times (Canonicalizer runs a dozen times); the rule
 * says which run, or says it cannot:
 *
 *   failed-run  the message's pass came from a failed pipeline's note: the
 *               pipeline stopped in that pass, so it is the last run of
 *               that name in the kernel's timeline (its Before dump is the
 *               last one MLIR printed);
 *   only-run    the pass ran exactly once in the timeline;
 *   several     it ran N_RUNS > 1 times and nothing in the streams says
 *               which run printed the message: STEP stays TK_TL_NONE (never
 *               a guess; RUN is TK_TL_NONE);
 *   not-run     no step of the timeline has that name (or argument);
 *   no-pass     the message names no pass.
 *
 * A step's name matches as tk_passref.h's names do: the pass name or its
 * argument ("TritonGPUAccelerateMatmul", "tritongpu-accelerate-matmul").
 * Placeholder entries (sub-step holders with no dump) never match.
 *
 * Ownership: nothing is allocated; both arguments are borrowed.
 */
#ifndef TKDUMP_TK_DIAG_PASS_H
#define TKDUMP_TK_DIAG_PASS_H

#include <stddef.h>

#include "tk_diag.h"
#include "tk_export.h"
#include "tk_timeline.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TK_DIAG_STEP_NO_PASS,
    TK_DIAG_STEP_NOT_RUN,
    TK_DIAG_STEP_SEVERAL,
    TK_DIAG_STEP_ONLY_RUN,
    TK_DIAG_STEP_FAILED_RUN
} tk_diag_step_how;

typedef struct {
    size_t step;   /* index for tk_timeline_get(); TK_TL_NONE: unknown */
    size_t run;    /* which run of the pass STEP is, 0-based; TK_TL_NONE */
    size_t n_runs; /* how many times a pass of that name ran */
    tk_diag_step_how how;
} tk_diag_step;

/* The step of TL (the timeline of ENTRY's kernel) ENTRY's pass is, by the
 * rule above.  TL NULL: no timeline, NOT_RUN (NO_PASS without a pass). */
TK_API
tk_diag_step tk_diag_entry_step(const tk_diag_entry *entry,
                                const tk_timeline *tl);

/* What a front end says after "pass: NAME", the same words everywhere
 * (`tkview diagnostics`, the report's list, the viewer's Diagnostics panel):
 *   "step 30 of `tkview passes` (its only run)",
 *   "step 28 of `tkview passes` (run 9 of 9: the pipeline failed in it)",
 *   "it ran 9 times; which run printed this is unknown",
 *   "no such step in the kernel's pass dumps";
 * NULL for NO_PASS.  Caller frees with g_free(). */
TK_API
char *tk_diag_step_sentence(const tk_diag_step *step);

/* "no-pass", "not-run", "several", "only-run", "failed-run".  Static. */
TK_API
const char *tk_diag_step_how_name(tk_diag_step_how how);

#ifdef __cplusplus
}
#endif

#endif
