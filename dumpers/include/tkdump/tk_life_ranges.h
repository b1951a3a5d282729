/* tk_life_ranges.h - register life ranges made afterwards (load/).
 *
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
 * that order until one succeeds.
 */
#ifndef TKDUMP_TK_LIFE_RANGES_H
#define TKDUMP_TK_LIFE_RANGES_H

#include "tk_bundle.h"
#include "tk_export.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif
#endif
