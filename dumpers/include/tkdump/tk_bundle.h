/* tk_bundle.h - loading what a user has on disk: a tkview bundle, a capture
 * folder, a Triton cache or TRITON_DUMP_DIR folder, or loose stage files.
 *
 * Whatever the input, the result is the same model: a list of kernels
 * (tk_kernel.h), each identified by name and hash, each with the final stages
 * that were found and the metadata Triton wrote.  The same kernel found
 * twice (under kernel_dump/ and under cache/ of one capture) is one kernel.
 *
 * Ownership: the bundle owns its kernels, their stages, the location table and
 * every string it returns.  Freeing the bundle frees all of them.
 *
 * Threads: a bundle is not thread-safe.  Some calls that look like reads fill
 * caches (tk_bundle_resolve_source(), tk_bundle_pass_file_count()) or intern
 * stacks into its location table (tk_bind_new(), tk_timeline_history(),
 * tk_ir_diff_bind(), tk_stage_read() with its table), which may move the
 * table's arrays; a program that works on one bundle from several threads
 * serializes those calls against every other use of the bundle.
 *
 * The bundle object and what it answers about its kernels and sources are
 * bundle/'s.  The jobs done on a bundle live in folders of their own
 * (dumpers/src/README.md), each with its own header: loading and freeing
 * (tk_bundle_load.h, load/), register life ranges made afterwards
 * (tk_life_ranges.h, load/), a source line's statement (tk_statement.h,
 * statement/), writing (tk_bundle_write.h, write/), the pass dumps that came
 * with the input (tk_bundle_passes.h, passfiles/), and a file a user names
 * (tk_file_query.h, query/).
 */
#ifndef TKDUMP_TK_BUNDLE_H
#define TKDUMP_TK_BUNDLE_H

#include <stddef.h>
#include <stdint.h>

#include "tk_diags.h"
#include "tk_export.h"
#include "tk_kernel.h"
#include "tk_loctab.h"
#include "tk_stage.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What PATH turned out to be. */
typedef enum {
    TK_INPUT_BUNDLE,      /* a directory with a tkview manifest.json */
    TK_INPUT_CAPTURE,     /* a folder holding kernel_dump/ and/or cache/ */
    TK_INPUT_KERNEL_DIRS, /* a Triton cache or TRITON_DUMP_DIR: HASH/ folders */
    TK_INPUT_KERNEL_DIR,  /* one HASH/ folder of those */
    TK_INPUT_FILES        /* loose stage files (a folder of them, or one file) */
} tk_input_kind;

typedef struct tk_bundle tk_bundle;

TK_API
tk_input_kind tk_bundle_input_kind(const tk_bundle *bundle);
TK_API
const char *tk_bundle_path(const tk_bundle *bundle);
TK_API
tk_loctab *tk_bundle_loctab(const tk_bundle *bundle);

/* From the manifest of a tkview bundle; NULL when unknown or not a bundle. */
TK_API
const char *tk_bundle_tool_version(const tk_bundle *bundle);
TK_API
const char *tk_bundle_compiler(const tk_bundle *bundle); /* "triton 3.6.0" */
TK_API
const char *tk_bundle_command(const tk_bundle *bundle);
/* 1: the capture finished; 0: it did not (the manifest says incomplete);
 * -1: unknown (not a bundle). */
TK_API
int tk_bundle_complete(const tk_bundle *bundle);
/* The pass dumps the capture asked for (`tkview capture --passes`, the
 * manifest's "capture"."passes"): "all", "mlir" or "none"; NULL when the
 * manifest does not say (an older bundle, not a bundle: all that were
 * made). */
TK_API
const char *tk_bundle_passes_asked(const tk_bundle *bundle);
/* Why a kernel of BUNDLE may have no pass dumps, or no LLVM IR ones, when
 * the capture asked for fewer than all: "pass dumps were not captured
 * (`tkview capture --passes none`)", "LLVM IR pass dumps were not
 * captured (`tkview capture --passes mlir`)"; NULL when all were asked
 * for.  The one sentence every front end says beside "no pass dumps".
 * Static storage. */
TK_API
const char *tk_bundle_passes_not_asked(const tk_bundle *bundle);

TK_API
size_t tk_bundle_kernel_count(const tk_bundle *bundle);
/* Kernels are ordered by name, then by hash. */
TK_API
const tk_kernel *tk_bundle_kernel(const tk_bundle *bundle, size_t i);

/* Finds a kernel by what a user types, by the first of these rules that
 * matches any kernel: an index ("3"); "name:hashprefix"; a full name; a
 * prefix of a name or of a hash ("attn" for attn_fwd, "e75ec6").  Returns
 * NULL when nothing matches or when more than one kernel does; *N_MATCHES
 * (if not NULL) receives how many matched, so the caller can say which
 * (tk_bundle_find_kernels()).  Every command and front end finds kernels
 * this way. */
TK_API
const tk_kernel *tk_bundle_find_kernel(const tk_bundle *bundle,
                                       const char *spec, size_t *n_matches);
/* The same, as the kernel's index (for tk_bundle_kernel()): -1 when
 * nothing or more than one kernel matches (*N_MATCHES says which). */
TK_API
ptrdiff_t tk_bundle_find_kernel_index(const tk_bundle *bundle,
                                      const char *spec, size_t *n_matches);
/* Every kernel SPEC names, by the same rule: their indices (for
 * tk_bundle_kernel()) in *INDICES, ascending (caller frees with g_free();
 * NULL when none).  Returns their number; a front end lists them as the
 * candidates when SPEC is ambiguous. */
TK_API
size_t tk_bundle_find_kernels(const tk_bundle *bundle, const char *spec,
                              size_t **indices);

/* Resolves a location's file to a readable local path: the bundle's sources/,
 * then the original path, then files under the loaded folder whose path ends
 * like the location's, then the source_dirs.  When the input is a tkview
 * bundle (someone else's folder), only files whose real path is inside the
 * bundle folder, or under a source_dirs folder, are returned: a location
 * naming any other file of this machine (/etc/passwd, a link out of the
 * bundle) gives NULL and a note (docs/bundle.md, "What a bundle may read").
 * Returns NULL when not found; the first failure for a file adds one note to
 * DIAGS (if not NULL), later ones add nothing.  The result is cached and
 * owned by the bundle. */
TK_API
const char *tk_bundle_resolve_source(tk_bundle *bundle, tk_file_id file,
                                     tk_diags *diags);

/* The autotuner's timings that came with the input (tk_configs.h says
 * their shape): autotune_timings.json in the folder loaded, where
 * `tkview capture` writes it, else in the bundle folder of a kernel folder
 * loaded from a bundle; a regular file only, and for a bundle only one
 * inside it.  NULL when there is none.  Caller frees with g_free().  The
 * front ends give it to tk_configs_new(); tk_bundle_save() copies it. */
TK_API
char *tk_bundle_autotune_timings(const tk_bundle *bundle);

/* 1 when tk_bundle_resolve_source() gave NULL for FILE because of the trust
 * rule (a file exists where the location points, but outside the bundle),
 * 0 otherwise (also before FILE was resolved): for saying why a source is
 * not shown. */
TK_API
int tk_bundle_source_refused(const tk_bundle *bundle, tk_file_id file);

#ifdef __cplusplus
}
#endif
#endif
