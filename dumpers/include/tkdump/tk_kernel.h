/* tk_kernel.h - one compiled kernel: its name and hash, the final stages
 * that were found for it, and the metadata Triton wrote.
 *
 * Kernels are made by loading (tk_bundle_load.h): a bundle owns its kernels, their
 * stages and every string they return, and freeing the bundle frees them.
 * Autotune configurations and repeated compiles are separate kernels.
 */
#ifndef TKDUMP_TK_KERNEL_H
#define TKDUMP_TK_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "tk_export.h"
#include "tk_stage.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_kernel tk_kernel;

TK_API
const char *tk_kernel_name(const tk_kernel *kernel);
/* Triton's hash of the compiled kernel (from its metadata), or the name of
 * the folder it was found in when there is no metadata; never NULL. */
TK_API
const char *tk_kernel_hash(const tk_kernel *kernel);

/* The stage of KIND, or NULL when none was found. */
TK_API
const tk_stage *tk_kernel_stage(const tk_kernel *kernel, tk_stage_kind kind);

/* The stage a front end opens first: TTGIR where the kernel has it (the
 * layouts are there, and it is still close to the source), else the first
 * stage it has in tk_stage_kind order; TK_STAGE_UNKNOWN when it has none.
 * The viewer's binding view, the report's IR pane (its data's "first",
 * data_kernel.c) and the viewer's bench all open this one. */
TK_API
tk_stage_kind tk_kernel_first_stage(const tk_kernel *kernel);

/* Whether the kernel has any final stage: not one made from pass dumps
 * alone, which has its passes only. */
TK_API
int tk_kernel_has_stages(const tk_kernel *kernel);

/* Whether KIND is a stage of KERNEL's backend, the stages a front end lists
 * for it (in tk_stage_kind order), present or missing: TTIR, TTGIR, LLVM IR,
 * then PTX and SASS for NVIDIA, AMDGCN for AMD.  The backend is the
 * target's ("hip:gfx942" is AMD, "cuda:90" NVIDIA), else that of the stages
 * found (an AMDGCN stage or a code object is AMD), else NVIDIA. */
TK_API
int tk_kernel_stage_expected(const tk_kernel *kernel, tk_stage_kind kind);

/* What Triton's metadata (NAME.json), the cubin (NVIDIA) and the AMDGCN
 * assembly's kernel descriptor (AMD) say; -1 when unknown. */
typedef struct {
    int64_t num_warps;
    int64_t num_ctas;
    int64_t num_stages;
    int64_t shared_bytes; /* NAME.json "shared": shared memory (LDS on AMD)
                             Triton asks for at launch */
    int64_t registers; /* per thread: from the cubin (NVIDIA); the vector
                          registers of a lane, accumulation registers
                          included (the .amdgcn's ".vgpr_count", AMD) */
    int64_t spill_bytes; /* local memory per thread (NVIDIA), scratch per
                            lane (".private_segment_fixed_size", AMD) */
    const char *target;         /* "cuda:90", "hip:gfx942"; NULL when unknown */
    const char *triton_version; /* NULL when unknown */
    int64_t warp_size;    /* NAME.json "warp_size": 32, or the wavefront
                             size on AMD (64 on CDNA) */
    /* AMD only (-1 elsewhere).  From NAME.json: */
    int64_t waves_per_eu; /* "waves_per_eu" (0: left to the compiler) */
    /* From the .amdgcn text (its .amdgpu_metadata, else the .amdhsa_*
     * directives): */
    int64_t sgprs;        /* scalar registers (".sgpr_count") */
    int64_t agprs;        /* accumulation registers, part of registers */
    int64_t vgpr_spills;  /* ".vgpr_spill_count" */
    int64_t sgpr_spills;  /* ".sgpr_spill_count" */
    int64_t lds_static_bytes; /* LDS the code object itself reserves
                                 (".group_segment_fixed_size"); Triton's
                                 is in shared_bytes */
    int64_t occupancy;    /* waves per SIMD the compiler expects
                             ("; Occupancy: N") */
} tk_kernel_meta;

TK_API
const tk_kernel_meta *tk_kernel_metadata(const tk_kernel *kernel);

/* One fact of a kernel's metadata, as every front end lists it: `tkview
 * info`'s line and the viewer's Kernel panel read the same table, in this
 * order, so that neither can drop or reorder a fact the other shows. */
typedef struct {
    const char *key;   /* "num_warps", "shared": the CLI's word */
    const char *label; /* "shared memory": a person's words */
    const char *text;  /* the value when it is text ("cuda:90"), else NULL */
    int64_t value;     /* the value when TEXT is NULL */
    const char *unit;      /* after the value in the CLI (" B"), or "" */
    const char *unit_long; /* after it in the viewer (" bytes"), or "" */
    int amd;               /* 1: an AMD fact (the CLI's second line) */
} tk_meta_field;

/* The facts M knows (values not -1, texts not NULL), in the order they are
 * shown, into OUT (room for MAX); returns how many there are (at most
 * TK_META_FIELD_MAX).  AMD facts only when M's target is AMD ("hip:...").
 * The strings are static or M's. */
#define TK_META_FIELD_MAX 16
TK_API
size_t tk_kernel_meta_fields(const tk_kernel_meta *m, tk_meta_field *out, size_t max);

/* The constants Triton's metadata records for the kernel, when it does:
 * the members of NAME.json's "constants" object (older Triton wrote the
 * constexpr values there, by name or by argument index; Triton 3.6 does
 * not), in file order.  Constant I's name, with its value as JSON text in
 * *VALUE ("128", "true", "\"fp32\""); NULL when I is out of range.  Owned
 * by the bundle. */
TK_API
size_t tk_kernel_constant_count(const tk_kernel *kernel);
TK_API
const char *tk_kernel_constant(const tk_kernel *kernel, size_t i,
                               const char **value);

/* The compile options Triton's metadata (NAME.json) records: every member
 * that is none of the kernel's identity (name, hash), a result of the
 * compile (shared, tmem_size, *_scratch_*, tensordesc_meta), a member
 * tk_kernel_meta holds (num_warps, num_ctas, num_stages, warp_size,
 * target, triton_version) or "constants", in file order: enable_fp_fusion,
 * maxnreg, ptx_options, launch_pdl, ... and whatever a later Triton adds.
 * Option I's name, with its value as JSON text in *VALUE ("false", "null",
 * "[\"fp8e5\"]"); NULL when I is out of range.  Owned by the bundle. */
TK_API
size_t tk_kernel_option_count(const tk_kernel *kernel);
TK_API
const char *tk_kernel_option(const tk_kernel *kernel, size_t i,
                             const char **value);

/* The file of the TTIR as Triton's front end made it, before any pass
 * (Triton's NAME.source, kept with a bundle), or NULL when there is none.
 * Owned by the bundle. */
TK_API
const char *tk_kernel_source_ttir(const tk_kernel *kernel);

/* Why KERNEL has no stage of KIND, for a viewer to say instead of showing an
 * empty pane: what the capture recorded (e.g. "no nvdisasm on the capture
 * machine"), "no final stages were found: the kernel comes from pass dumps
 * only (...)" for a kernel made from pass dumps, or else where the stage was
 * looked for.  NULL when the stage is there.  Owned by the bundle. */
TK_API
const char *tk_kernel_stage_missing(const tk_kernel *kernel, tk_stage_kind kind);

/* The folder(s) the kernel's files came from, for display. */
TK_API
const char *tk_kernel_origin(const tk_kernel *kernel);

/* The measured cost file a tkview bundle holds for the kernel (its
 * manifest's files.profile, docs/bundle.md; read with tk_profile_load()),
 * or NULL when it has none.  Owned by the bundle. */
TK_API
const char *tk_kernel_profile_path(const tk_kernel *kernel);

/* The file of the kernel's own code, which a front end opens first: the
 * file most lines of the kernel's first located stage (TTIR, or TTGIR for a
 * Gluon kernel) have the outermost frame of a stack in.  Outermost, because
 * every stack ends at the @triton.jit kernel itself, however deep the
 * helpers and Triton's library inlined into it go (counting innermost
 * frames would pick triton/language/standard.py for a kernel made mostly of
 * tl.sum and tl.max).  Ties go to the first path in byte order.
 * TK_NO_FILE when no stage has a location.  TAB is the bundle's table. */
TK_API
tk_file_id tk_kernel_main_source(const tk_kernel *kernel, const tk_loctab *tab);

#ifdef __cplusplus
}
#endif
#endif
