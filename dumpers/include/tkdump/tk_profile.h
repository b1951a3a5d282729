/* tk_profile.h - measured cost: per SASS instruction of one kernel, the
 * values a profiler measured (warp stall samples by reason, instructions
 * executed), as a bundle stores them and as they are read from a
 * profiler's export.  tk_cost.h puts them on source and IR lines.
 *
 * A profile is a table, one row per SASS instruction of the kernel's
 * function, keyed by the instruction's byte offset (the offset nvdisasm
 * prints in a comment before it), with one value per metric.  Its metrics are named for the
 * command line ("samples", "samples_not_issued", "inst_executed",
 * "thread_inst_executed", "divergent_branches", and one "stall_REASON" per
 * stall reason, REASON as the profiler names it) and labelled as the
 * profiler labels them.
 *
 * Where profiles come from: Nsight Compute's source page exported as CSV
 * with its own command line (never its binary report):
 *
 *     ncu --import REPORT.ncu-rep --page source --csv --print-source sass
 *
 * tk_ncu_export_read() reads every kernel section of such a file (plain
 * or gzip-compressed); tk_ncu_export_match() finds the kernel of a bundle
 * each was taken of.  A profile belongs to a kernel only when its rows are
 * that kernel's instructions: as many, at the same offsets, with the same
 * opcodes (modifiers included; operands may print differently).  Anything
 * else is refused with the first difference, never matched approximately:
 * a profile of another compile would put numbers on the wrong lines.
 *
 * In a bundle a profile is a JSON file per kernel, named by the kernel's
 * manifest entry (files.profile; docs/bundle.md gives the format).
 *
 * Ownership: a profile owns its table; the one tk_profile_load() or
 * tk_ncu_export_match() returns refers to lines of the kernel's SASS
 * stage, so the kernel must outlive it.
 */
#ifndef TKDUMP_TK_PROFILE_H
#define TKDUMP_TK_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "tk_bundle.h"
#include "tk_diags.h"
#include "tk_export.h"
#include "tk_kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_profile tk_profile;

/* KERNEL's profile from its bundle (tk_kernel_profile_path()), checked
 * against the kernel's SASS.  NULL when the kernel has none (nothing added
 * to DIAGS), or when the file cannot be read or does not match (an error
 * in DIAGS says why).  Free with tk_profile_free(). */
TK_API
tk_profile *tk_profile_load(const tk_kernel *kernel, tk_diags *diags);
TK_API
void tk_profile_free(tk_profile *profile);

/* "ncu". */
TK_API
const char *tk_profile_tool(const tk_profile *profile);
/* The kernel name the profiler gave. */
TK_API
const char *tk_profile_kernel_name(const tk_profile *profile);

TK_API
size_t tk_profile_metric_count(const tk_profile *profile);
TK_API
const char *tk_profile_metric_name(const tk_profile *profile, size_t metric);
TK_API
const char *tk_profile_metric_label(const tk_profile *profile, size_t metric);

/* The number of instructions (rows). */
TK_API
size_t tk_profile_row_count(const tk_profile *profile);
/* The values of the instruction on line LINE of the kernel's SASS stage
 * (tk_profile_metric_count() of them), or NULL when that line is none of
 * the profile's instructions. */
TK_API
const double *tk_profile_line_values(const tk_profile *profile,
                                     uint32_t sass_line);

/* Writes PROFILE into BUNDLE as KERNEL's profile file and records it in
 * the manifest (tk_bundle_add_kernel_file(), key "profile"); an existing
 * profile is replaced only when REPLACE is not 0.  *REL (if not NULL)
 * receives the file's path in the bundle (caller frees).  Returns 0, or -1
 * with an error in DIAGS. */
TK_API
int tk_profile_save(const tk_profile *profile, tk_bundle *bundle,
                    const tk_kernel *kernel, int replace, char **rel,
                    tk_diags *diags);

/* ---- Nsight Compute's source page export ------------------------------ */

typedef struct tk_ncu_export tk_ncu_export;

/* Reads PATH, the output of "ncu --import R --page source --csv
 * --print-source sass" (one section per profiled kernel launch, each
 * "Kernel Name", a header, one row per instruction), plain or gzip.
 * Returns NULL with an error in DIAGS when it is not such a file (the
 * "cuda,sass" view, which folds instructions onto source lines, is refused
 * with how to export the right one) or has no section; rows that cannot be
 * read are warnings.  Free with tk_ncu_export_free(). */
TK_API
tk_ncu_export *tk_ncu_export_read(const char *path, tk_diags *diags);
TK_API
void tk_ncu_export_free(tk_ncu_export *export_);

TK_API
size_t tk_ncu_export_count(const tk_ncu_export *export_);
/* The kernel name of section I. */
TK_API
const char *tk_ncu_export_kernel(const tk_ncu_export *export_, size_t i);
/* The number of instructions of section I. */
TK_API
size_t tk_ncu_export_rows(const tk_ncu_export *export_, size_t i);

/* How many kernels of BUNDLE have section I's kernel name: 0 for a
 * section of a kernel the bundle does not hold (a program profiled under
 * ncu launches PyTorch's own kernels too), which an import skips. */
TK_API
size_t tk_ncu_export_candidates(const tk_ncu_export *export_, size_t i,
                                const tk_bundle *bundle);

/* The kernel of BUNDLE that section I was taken of: among the kernels
 * with the section's name (only ONLY, when it is not NULL), the first
 * whose SASS the section's instructions are.  Returns a new profile
 * matched to it, with *KERNEL set; NULL when none matches, with an error
 * in DIAGS naming the kernels tried and the first difference of each (or
 * that no kernel has that name). */
TK_API
tk_profile *tk_ncu_export_match(const tk_ncu_export *export_, size_t i,
                                const tk_bundle *bundle, const tk_kernel *only,
                                const tk_kernel **kernel, tk_diags *diags);

#ifdef __cplusplus
}
#endif
#endif
