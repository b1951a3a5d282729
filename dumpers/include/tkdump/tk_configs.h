/* tk_configs.h - every compile of a kernel side by side: the table
 * `tkview configs`, the report's configs page and the viewer's configs
 * view all show, computed once here.
 *
 * A group is every kernel of a bundle with one name, when there are two or
 * more (autotune configurations, repeated compiles), or the one name asked
 * for.  A row per compile: what sets it apart from its siblings
 * (tk_config_apart(), as a label), its SASS instruction count and counts
 * by class (tk_cost.h), the time the autotuner measured for it, whether it
 * won, and its first divergence from the winner (tk_compare.h).
 *
 * Timings.  The autotuner's measurements are read from a JSON file
 * (tk_bundle_autotune_timings(): autotune_timings.json beside the input,
 * written by `tkview capture`'s hook): {"configs": [{"kwargs": {...}, "num_warps": N, "num_stages": N,
 * "ms": [median, p20, p80] or a number, "kernel": NAME (optional)}, ...]}.
 * An entry belongs to a compile when num_warps and num_stages, where it
 * names them, and every kwarg the compile has a configuration item of that
 * name for (the value as JSON text) are equal, at least one of them
 * checked: a kwarg no item shows (Inductor's GROUP_M, a constexpr no
 * tl.arange reads) is passed over; a compile two entries match gets no
 * time (the entry is not known to be its).  Inductor's max-autotune
 * entries ("source": "inductor") name the template's benchmark kernel
 * ("triton_mm"); its extern choices (aten's mm, "extern": true) match no
 * compile.  The winner is the compile with the smallest median; none
 * without timings.  When an extern choice benchmarked for the same
 * operation ("op") as the group's compiles was faster than all of them,
 * the group says so (EXTERN_WINNER, EXTERN_MS), no row is the winner, and
 * the fastest compile (WINNER, the row) is what the others are compared
 * with.
 *
 * The matrix.  The source lines any compile's SASS is on (innermost
 * frame), sorted by file path and line, each with its SASS instruction
 * count per row: where the compiles differ.
 *
 * Ownership: the result borrows the bundle (its kernels and location
 * table), which must outlive it; every pointer it hands out is its own.
 * Free with tk_configs_free().
 */
#ifndef TKDUMP_TK_CONFIGS_H
#define TKDUMP_TK_CONFIGS_H

#include <stddef.h>
#include <stdint.h>

#include "tk_bundle.h"
#include "tk_cost.h"
#include "tk_diags.h"
#include "tk_export.h"
#include "tk_kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const tk_kernel *kernel;
    size_t index;      /* the kernel's index in the bundle */
    const char *apart; /* "num_stages=3, enable_fp_fusion=false"; "" */
    int has_sass;
    /* SASS instructions, then per class (tk_sass_class order); zeros
     * without SASS */
    double sass[1 + TK_SASS_CLASS_COUNT];
    int has_ms;
    double ms;         /* the autotuner's median, when HAS_MS */
    int winner;        /* the fastest measured, and no extern kernel faster */
    /* Its first divergence from the winner (from the fastest compile when
     * an extern kernel won), as a person reads it: "(winner)", "(fastest
     * compile)", "ConvertTritonToTritonGPU (ttir)", "none: every pass the
     * same", "- (no pass dumps)"; NULL when there is no winner. */
    const char *diverge;
} tk_configs_row;

typedef struct {
    tk_file_id file;
    const char *path;      /* the file's path, owned by the location table */
    uint32_t line;
    const uint32_t *sass;  /* per row: SASS instructions on the line */
} tk_configs_line;

typedef struct {
    const char *name;
    size_t n_rows;
    const tk_configs_row *rows; /* in the bundle's order */
    /* The winner's row; the fastest compile's when an extern kernel won
     * (EXTERN_WINNER); -1 none (no timings). */
    ptrdiff_t winner;
    size_t n_lines;
    const tk_configs_line *lines;
    /* An extern kernel faster than every compile here (Inductor's aten
     * mm): its name as the timings give it ("mm", "extern_mm") and its
     * median; NULL when a compile won or nothing was timed. */
    const char *extern_winner;
    double extern_ms;
} tk_configs_group;

typedef struct tk_configs tk_configs;

/* The groups of BUNDLE (only the kernel named ONLY when not NULL, even
 * with one compile), with timings read from TIMINGS (a path; NULL or a
 * file that is not there: no timings; a file that cannot be read adds a
 * warning to DIAGS, which may be NULL).  Builds every compile's binding
 * and cost, and compares each with the winner: seconds on a big bundle,
 * almost all of it the comparisons (tk_configs_new() then
 * tk_configs_diverge() for every row). */
TK_API
tk_configs *tk_configs_build(tk_bundle *bundle, const char *only,
                             const char *timings, tk_diags *diags);

/* In two steps, for a front end that compares on a worker thread.
 * tk_configs_new(): as tk_configs_build() without the comparisons: every
 * row's DIVERGE is NULL.  It binds and costs every compile, interning
 * stacks into the bundle's location table (tk_bundle.h, "Threads"): call
 * it where that table may be written; a fraction of a second.
 * tk_configs_diverge(): fills in row ROW of group GROUP's first divergence
 * from the winner (tk_compare_build(): it touches the bundle only through
 * its pass files and final stages' text, never the location table, so it
 * may run on a worker while another thread reads the table, serialized
 * with every other use of the pass files).  While it runs, another thread
 * may read every field of the rows but DIVERGE.  Returns 1 when it
 * compared, 0 when there was nothing to do (no winner, out of range, done
 * already). */
TK_API
tk_configs *tk_configs_new(tk_bundle *bundle, const char *only,
                           const char *timings, tk_diags *diags);
TK_API
int tk_configs_diverge(tk_configs *configs, size_t group, size_t row);
TK_API
void tk_configs_free(tk_configs *configs);

TK_API
size_t tk_configs_group_count(const tk_configs *configs);
/* Group I, or NULL when out of range. */
TK_API
const tk_configs_group *tk_configs_group_get(const tk_configs *configs,
                                             size_t i);
/* Whether timings were found (a file with a "configs" list). */
TK_API
int tk_configs_have_timings(const tk_configs *configs);

#ifdef __cplusplus
}
#endif
#endif
