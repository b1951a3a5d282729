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
 * One header, several folders.  The bundle object and what it answers about
 * its kernels and sources are bundle/'s; the jobs done on a bundle live in
 * folders of their own (dumpers/src/README.md), and each section below names
 * the folder that implements it: loading (load/), a source line's statement
 * (statement/), writing (write/), pass dumps (passfiles/).  A file a user
 * names is matched by query/, with a header of its own (tk_file_query.h).
 * They stay in one header because a program uses a bundle as one object,
 * with one include, and because a header per folder would make this one
 * (bundle/'s, below those folders) include the headers of its own users.
 */
#ifndef TKDUMP_TK_BUNDLE_H
#define TKDUMP_TK_BUNDLE_H

#include <stddef.h>
#include <stdint.h>

#include "tk_diags.h"
#include "tk_export.h"
#include "tk_kernel.h"
#include "tk_loctab.h"
#include "tk_pysource.h"
#include "tk_passes.h"
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

typedef struct {
    /* Folders searched last for source files, as --source-dir gives them. */
    const char *const *source_dirs;
    size_t n_source_dirs;
} tk_load_options;

typedef struct tk_bundle tk_bundle;

/* ---- loading (load/) ----------------------------------------------------- */

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

/* ---- the bundle, its kernels and sources (bundle/) ----------------------- */

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

TK_API
size_t tk_bundle_kernel_count(const tk_bundle *bundle);
/* Kernels are ordered by name, then by hash. */
TK_API
const tk_kernel *tk_bundle_kernel(const tk_bundle *bundle, size_t i);

/* ---- register life ranges made afterwards --------------------------------
 * A kernel's live register counts come from NAME.sass_lr, the text of
 * `nvdisasm --print-life-ranges --life-range-mode count -c NAME.cubin`,
 * beside its cubin (capture writes it) or beside its SASS.  For inputs
 * capture did not make (a raw folder, a Triton cache) the front ends have
 * it made (load/life_ranges.c).  The library runs no programs: the front
 * end hands it a runner; every rule (which kernels, which nvdisasm in
 * which order, the arguments, where the file goes) is here.
 *
 * Where: the cache folder $XDG_CACHE_HOME/tkview/sass_lr, the file named
 * by the SHA-256 of the cubin's bytes ("HASH.sass_lr": the same cubin
 * anywhere is the same file), never the input folder (a stranger's bundle
 * is read-only).  A file already there is used without running anything.
 * Which nvdisasm: TKVIEW_NVDISASM when set is the only one ("none" or
 * empty: none); else Triton's own first (triton/backends/nvidia/bin/, told
 * by `python3 -c "import triton; ..."` run through the runner), since CUDA
 * 13.0's refuses Triton 3.6's cubins ("Disassembling Std Elf to Old format
 * ... Cannot print life ranges"); then TRITON_NVDISASM_PATH, PATH,
 * CUDA_HOME/bin, /usr/local/cuda/bin.  Each cubin is tried with each in
 * that order until one succeeds. */

/* Runs ARGV (ARGV[0] the program, NULL-terminated) with its stdout into
 * the file STDOUT_PATH; returns 0 when it exited with status 0.  Else
 * nonzero, with *ERR (may be left NULL; freed by the caller with free())
 * saying why: its stderr's first line or why it could not run.  A front
 * end bounds its time. */
typedef int (*tk_run_fn)(const char *const *argv, const char *stdout_path,
                         char **err, void *user);

/* Triton's own folder of CUDA tools, triton/backends/nvidia/bin, as
 * PYTHON (NULL: "python3") tells it through RUN (`PYTHON -c "import
 * triton; ..."`): an absolute path, or NULL when Triton could not be
 * imported or the answer was not one path.  It may not exist (an AMD
 * build).  Caller frees with g_free().  tk_bundle_make_life_ranges()
 * looks there first; capture asks the captured program's Python. */
TK_API
char *tk_triton_nvidia_bin(const char *python, tk_run_fn run, void *user);

/* What tk_bundle_make_life_ranges() did; free with
 * tk_life_ranges_made_clear(). */
typedef struct {
    unsigned made;    /* made now */
    unsigned cached;  /* found in the cache */
    unsigned failed;  /* every nvdisasm refused the cubin, or the cache
                         folder could not be made */
    unsigned no_tool; /* lacked, and no nvdisasm was found */
    char *cache;      /* the cache folder used; NULL: none */
    char *tool;       /* the nvdisasm that made the first; NULL: none */
    char *why;        /* the first refusal; NULL: none */
} tk_life_ranges_made;

/* For every kernel of BUNDLE with a cubin and SASS but no NAME.sass_lr:
 * the one in the cache, else one made there with RUN (USER passed on),
 * then read by the kernel's cost (tk_cost_new()) as if beside its cubin.
 * OUT is cleared, then filled.  Run before the kernels' costs are made;
 * on a worker if the front end has a window. */
TK_API
void tk_bundle_make_life_ranges(tk_bundle *bundle, tk_run_fn run, void *user,
                                tk_life_ranges_made *out);
TK_API
void tk_life_ranges_made_clear(tk_life_ranges_made *made);

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

/* 1 when tk_bundle_resolve_source() gave NULL for FILE because of the trust
 * rule (a file exists where the location points, but outside the bundle),
 * 0 otherwise (also before FILE was resolved): for saying why a source is
 * not shown. */
TK_API
int tk_bundle_source_refused(const tk_bundle *bundle, tk_file_id file);

/* ---- a source line's statement (statement/) ------------------------------ */

/* The statement a source line belongs to (tk_pysource.h), for binding a
 * click on any line of a wrapped call to the IR Triton recorded at one of
 * them (tk_bind_lines_to_stage()). */
typedef enum {
    TK_STATEMENT_CODE,     /* a line of the statement FIRST..LAST */
    TK_STATEMENT_NO_CODE,  /* a blank or comment line: FIRST = LAST = LINE */
    TK_STATEMENT_PAST_END, /* past the file's N_LINES lines */
    TK_STATEMENT_UNKNOWN   /* the file is not at hand or not Python: the
                              line alone, FIRST = LAST = LINE */
} tk_statement_status;

typedef struct {
    tk_statement_status status;
    uint32_t first, last;
    uint32_t n_lines; /* lines of the file; 0 when not read */
} tk_statement;

/* Fills *OUT for line LINE of FILE: the file is resolved
 * (tk_bundle_resolve_source()) and, when its path ends in ".py", read and
 * tokenized once and kept.  Returns OUT->status.  Fills the bundle's caches
 * (see "Threads" above). */
TK_API
tk_statement_status tk_bundle_statement(tk_bundle *bundle, tk_file_id file,
                                        uint32_t line, tk_statement *out);

/* ---- writing (write/) ---------------------------------------------------- */

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

/* ---- pass dumps (passfiles/) --------------------------------------------- */

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
