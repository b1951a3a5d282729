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

/* tk_bundle_load(), except that a bundle's kernels that are kept whatever
 * their stage files hold (their manifest entry lists pass dumps and has its
 * "metadata") are loaded with their stage files named but not read, nor
 * their NAME.json's compile options: tk_bundle_kernel_read() reads them.
 * For a command about one kernel of many (`tkview bind --kernel K`), which
 * then reads only that one's.  Kernels are numbered as by tk_bundle_load();
 * its diagnostics may come in another order.  Free with tk_bundle_free(). */
TK_API
tk_bundle *tk_bundle_load_on_demand(const char *path, const tk_load_options *opts,
                                    tk_diags *diags);

/* Reads what tk_bundle_load_on_demand() left unread of kernel INDEX
 * (its compile options, then its stages), with the diagnostics a whole load
 * gives about them going to DIAGS.  Returns the number of stages read then
 * (0 when nothing was left unread or INDEX is past the count). */
TK_API
int tk_bundle_kernel_read(tk_bundle *bundle, size_t index, tk_diags *diags);

#ifdef __cplusplus
}
#endif
#endif
