/* tk_bundle_load.h - a bundle loaded from what is on disk, and freed (load/).
 *
 * tk_bundle.h says what a bundle is and who owns what; this header makes
 * and frees one.
 */
#ifndef TKDUMP_TK_BUNDLE_LOAD_H
#define TKDUMP_TK_BUNDLE_LOAD_H

#include "tk_bundle.h"
#include "tk_diags.h"
#include "tk_export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    /* Folders searched last for source files, as --source-dir gives them. */
    const char *const *source_dirs;
    size_t n_source_dirs;
} tk_load_options;

/* Loads PATH (a folder or a single stage file).  Returns NULL, with an error
 * in DIAGS, only when nothing usable was found; otherwise a bundle with every
 * kernel that could be read and a diagnostic for each thing skipped.  OPTS may
 * be NULL.  Free with tk_bundle_free().
 *
 * A pass dump file given as PATH, or a folder whose only IR files are pass
 * dump files (no stage file found), gives kernels without stages, one per
 * compile in the dumps (TK_INPUT_FILES).  In a folder, a compile's MLIR
 * sequence (an MLIR_DUMP_PATH file) and its LLVM sequence (a stderr) are one
 * kernel when the dumps single the pair out (docs/bundle.md, "A folder of
 * pass dump files"); compiles they cannot pair stay kernels of their own,
 * with a note.  Such a load indexes the pass files at once, reporting to
 * DIAGS.  When nothing loads, the error names the files looked at that are
 * neither stage files nor pass dumps. */
TK_API
tk_bundle *tk_bundle_load(const char *path, const tk_load_options *opts,
                          tk_diags *diags);
TK_API
void tk_bundle_free(tk_bundle *bundle);

#ifdef __cplusplus
}
#endif
#endif
