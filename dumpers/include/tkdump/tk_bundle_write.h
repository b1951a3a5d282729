/* tk_bundle_write.h - a bundle written out, a file added to one, and an
 * output folder checked against what a bundle reads (write/).
 */
#ifndef TKDUMP_TK_BUNDLE_WRITE_H
#define TKDUMP_TK_BUNDLE_WRITE_H

#include <stddef.h>

#include "tk_bundle.h"
#include "tk_diags.h"
#include "tk_export.h"
#include "tk_kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Checks that writing the folder OUTDIR cannot touch what BUNDLE reads:
 * refuses (-1, with an error naming OUTDIR and the input in DIAGS) an
 * OUTDIR that is the loaded path, lies inside it or contains it (the same
 * for the bundle folder when a file or kernel folder of a bundle was
 * loaded), or that is or contains a --source-dir folder.  Returns 0 when
 * OUTDIR is apart from all of them.  tk_staged_dir_overlap() compares the
 * paths (links and bind mounts resolved).  tk_bundle_save() checks this
 * first; a program writing any other output of a bundle (the report) calls
 * it before it stages anything. */
TK_API
int tk_bundle_check_output(const tk_bundle *bundle, const char *outdir,
                           tk_diags *diags);

/* Writes BUNDLE as a tkview bundle into the folder OUTDIR (see
 * docs/bundle.md): each kernel's stage files, metadata and cubin in a
 * NAME-HASHPREFIX/ folder, a copy of every source file its locations name
 * that tk_bundle_resolve_source() finds in sources/ (the others listed as
 * missing), and manifest.json.  OUTDIR must not exist or be an empty folder;
 * the bundle is built beside it and renamed into place, so a failure leaves
 * nothing behind.  An OUTDIR that tk_bundle_check_output() refuses is an
 * error.  No name in the input can place a file outside OUTDIR.
 * Returns 0, or -1 with an error in DIAGS; sources not found add notes. */
TK_API
int tk_bundle_save(const tk_bundle *bundle, const char *outdir,
                   tk_diags *diags);

/* Writes LEN bytes at DATA into the folder of KERNEL in the tkview bundle
 * BUNDLE as the file NAME (made a safe file name) and records it in the
 * manifest's "files" of that kernel under KEY (docs/bundle.md); with KEY
 * "profile", tk_kernel_profile_path() names it from then on.  The file and
 * the manifest are each written beside their target and renamed into
 * place.  A KEY the kernel already has, or an existing file NAME, is
 * replaced only when REPLACE is not 0.  Returns 0, or -1 with an error in
 * DIAGS (BUNDLE is not a tkview bundle, the kernel has no entry in its
 * manifest, a write failed). */
TK_API
int tk_bundle_add_kernel_file(tk_bundle *bundle, const tk_kernel *kernel,
                              const char *key, const char *name,
                              const void *data, size_t len, int replace,
                              tk_diags *diags);

#ifdef __cplusplus
}
#endif
#endif
