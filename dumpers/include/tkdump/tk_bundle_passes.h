/* tk_bundle_passes.h - the pass dumps that came with a bundle's input, and
 * each kernel's sequence in them (passfiles/).
 */
#ifndef TKDUMP_TK_BUNDLE_PASSES_H
#define TKDUMP_TK_BUNDLE_PASSES_H

#include <stddef.h>

#include "tk_bundle.h"
#include "tk_diags.h"
#include "tk_export.h"
#include "tk_kernel.h"
#include "tk_passes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Pass dumps that came with the input (tk_passes.h): in a capture folder or
 * any loaded folder, every text file whose content holds pass dump headers
 * (whatever its name: mlir_passes.txt, stderr.txt, a.log); in a tkview bundle,
 * the per-kernel pass files its manifest lists; a pass dump file given
 * directly as PATH.  Finding them costs a look at the head of each file when
 * the bundle is loaded; indexing them waits for the first call of
 * tk_bundle_pass_file_count(), so commands that do not look at passes do not
 * pay for reading hundreds of MB.  DIAGS (may be NULL) receives what indexing
 * reports.  The indexes are owned by the bundle. */
TK_API
size_t tk_bundle_pass_file_count(tk_bundle *bundle, tk_diags *diags);
TK_API
const tk_passes *tk_bundle_pass_file(tk_bundle *bundle, size_t i);

/* Begins indexing BUNDLE's pass dump files on a worker thread, so that a
 * front end can do other work meanwhile (info: its binding indexes and
 * costs); tk_bundle_pass_file_count() and every other call that needs the
 * index waits for it, and finds and says exactly what it would have
 * without.  Returns 1 when it began, 0 when there is nothing to index,
 * the index is made already, or the machine has one core.  Call it on the
 * thread that loaded BUNDLE (its budget is charged), before any other pass
 * call; freeing BUNDLE waits for it. */
TK_API
int tk_bundle_pass_files_start(tk_bundle *bundle);

/* 1 while indexing begun by tk_bundle_pass_files_start() still runs. */
TK_API
int tk_bundle_pass_files_indexing(const tk_bundle *bundle);

/* KERNEL's sequence of dumps in pass file I (tk_passes_seq()), chosen with
 * tk_passes_find_seq() for its tk_kernel_pass_key(), or -1 when that file has
 * none for it (or when the dumps cannot tell it apart from another compile:
 * then a warning was added to the DIAGS given to
 * tk_bundle_pass_file_count()). */
TK_API
ptrdiff_t tk_bundle_kernel_pass_seq(tk_bundle *bundle, const tk_kernel *kernel,
                                    size_t i);

/* What the pass index matches KERNEL by (tk_passes_find_seq()): its name
 * (borrowed: KEY lives no longer than the kernel), its num_warps, and the
 * digests of its final TTIR, TTGIR and LLIR.  Declared here, not in
 * tk_kernel.h, because it joins the kernel model and the pass index: the
 * pass index knows nothing of kernels. */
TK_API
void tk_kernel_pass_key(const tk_kernel *kernel, tk_pass_key *key);

#ifdef __cplusplus
}
#endif
#endif
