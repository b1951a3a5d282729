/* kernel.h - the kernel model's structure, for the loaders that fill it
 * (internal).
 *
 * A kernel is its name and hash, the file found for each stage (the best
 * ranked one), the stages read from them, and the metadata Triton wrote.
 * Loaders (bundle/) make kernels with kernel_new(), offer stage files,
 * fill the metadata and the paths below, then read the stages; readers of
 * the model use the accessors of tkdump/tk_kernel.h.
 */
#ifndef TKDUMP_KERNEL_KERNEL_H
#define TKDUMP_KERNEL_KERNEL_H

#include <glib.h>

#include "tkdump/tk_diags.h"
#include "tkdump/tk_kernel.h"
#include "tkdump/tk_loctab.h"

/* How good a file is as the source of a stage: a better one replaces a worse
 * one.  SASS comes in three flavours and the one with inline frames wins. */
enum {
    KERNEL_RANK_NONE = 0,
    KERNEL_RANK_SNIFFED = 1, /* kind guessed from the content (.txt, no ext) */
    KERNEL_RANK_SASS = 2,    /* .sass: no line info */
    KERNEL_RANK_SASS_G = 3,  /* .sass_g: innermost frames only */
    KERNEL_RANK_AMDGCN_DIS = 3, /* .amdgcn_dis (llvm-objdump of the code
                                   object): innermost frames, no columns */
    KERNEL_RANK_NAMED = 4    /* the extension says the kind (.sass_gi included) */
};

/* One file that provides a stage. */
typedef struct {
    char *path;      /* on disk; owned; NULL when none */
    int rank;
    const char *ext; /* static: the extension to store it under in a bundle
                        ("ttir", "sass_gi", ...) */
} kernel_stage_file;

struct tk_kernel {
    char *name;
    char *hash;
    char *origin;
    kernel_stage_file files[TK_STAGE_COUNT];
    tk_stage *stages[TK_STAGE_COUNT];
    char *meta_path;   /* NAME.json; NULL when none */
    char *cubin_path;  /* NAME.cubin; NULL when none */
    char *hsaco_path;  /* NAME.hsaco, AMD's code object; NULL when none */
    char *source_path; /* NAME.source: the TTIR before any pass (kept for the
                          pass views); NULL when none */
    char *profile_path; /* a bundle's measured cost file (files.profile,
                           docs/bundle.md); NULL when none */
    char *life_ranges_path; /* NAME.sass_lr a front end made elsewhere (a
                               cache: tk_bundle_kernel_set_life_ranges());
                               NULL when none */
    tk_kernel_meta meta; /* its strings point at the two below */
    char *target;
    char *triton_version;
    /* NAME.json's "constants": names and values (JSON text), in pairs. */
    GPtrArray *constants;
    /* NAME.json's compile options (every member that is not identity, a
     * result or in meta): names and values (JSON text), in pairs. */
    GPtrArray *options;
    /* Why a stage is missing, as the capture recorded it (a manifest's
     * "sass_missing"); NULL when not recorded. */
    char *missing[TK_STAGE_COUNT];
    /* Lazily made default reasons for tk_kernel_stage_missing(). */
    char *missing_default[TK_STAGE_COUNT];
    /* Made from pass dumps alone (no stage file was ever looked for it):
     * tk_kernel_stage_missing() says so. */
    gboolean from_passes;
    /* Loaded with its stage files named but not read, nor NAME.json's
     * compile options (tk_bundle_load_on_demand()):
     * tk_bundle_kernel_read() reads them. */
    gboolean unread;
};

/* A new kernel with every metadata value unknown.  Free with
 * kernel_free(). */
tk_kernel *kernel_new(const char *name, const char *hash);
void kernel_free(tk_kernel *kernel);

/* Offers PATH as the file of stage KIND: taken (copied) when it ranks above
 * the current one.  Returns whether it was taken. */
gboolean kernel_offer_stage(tk_kernel *kernel, tk_stage_kind kind,
                            const char *path, int rank, const char *ext);

/* Reads every stage file the kernel names into stages, interning locations
 * in the bundle's table.  Returns the number of stages read. */
int kernel_read_stages(tk_kernel *kernel, tk_loctab *tab, tk_diags *diags);

/* Sets every number of META to unknown (-1) and its strings to NULL. */
void kernel_meta_init(tk_kernel_meta *meta);

/* Sets the kernel's target and Triton version (copied; NULL for unknown). */
void kernel_set_target(tk_kernel *kernel, const char *target);
void kernel_set_triton_version(tk_kernel *kernel, const char *version);

/* Adds a compile option of the metadata (both copied). */
void kernel_add_option(tk_kernel *kernel, const char *name, const char *value);

/* Adds a constant of the metadata (both copied). */
void kernel_add_constant(tk_kernel *kernel, const char *name,
                         const char *value);

#endif
