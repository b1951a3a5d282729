/* tk_layouts.h - Triton GPU layouts (TTGIR encodings) as numbers.
 *
 * A TTGIR tensor type names how its elements are spread over the threads of
 * a CTA: `tensor<1024xf32, #blocked>` with
 *   #blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32],
 *                            warpsPerCTA = [4], order = [0]}>
 * means each thread holds 4 consecutive elements, 32 threads of a warp
 * hold 128, 4 warps hold 512: one CTA tile is 512 elements, so the 1024
 * elements of the tensor are covered by 2 repetitions of the tile and each
 * thread holds 2 x 4 = 8 of them.  This module reads the layout attributes
 * (alias definitions at the top of a TTGIR file, and layouts written inline
 * in a type such as `#ttg.slice<{dim = 1, parent = #blocked}>`) and the
 * tensor and memory descriptor types that use them, and computes that
 * arithmetic, so that every front end explains a layout the same way.
 *
 * Kinds read (Triton 3.x spellings, `ttg.` and the older `triton_gpu.`):
 *   blocked, slice, dot_op, nvidia_mma, amd_mfma / amd_wmma (as MMA with
 *   warpsPerCTA only), linear (its bases), swizzled_shared, nvmma_shared,
 *   shared_linear / other *_shared (as shared, numbers that are there), and
 *   any other `#dialect.name<...>` as TK_LAYOUT_OTHER with its text.
 *
 * Numbers follow Triton's own definitions: a blocked tile is
 * sizePerThread x threadsPerWarp x warpsPerCTA per dimension; the elements a
 * thread holds along a dimension are ceil(shape / tile) x sizePerThread (a
 * tensor smaller than the tile is held with duplicates, as Triton does); a
 * slice is its parent without dimension `dim`; a Hopper/Ampere MMA tile is
 * instrShape[d] x warpsPerCTA[d] over the two result dimensions.
 *
 * Ownership: a tk_layouts owns every layout and string it hands out; freeing
 * it frees them.  It does not keep the stage or text it was read from.
 */
#ifndef TKDUMP_TK_LAYOUTS_H
#define TKDUMP_TK_LAYOUTS_H

#include <stddef.h>
#include <stdint.h>

#include "tk_export.h"
#include "tk_stage.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TK_LAYOUT_MAX_RANK 8

typedef enum {
    TK_LAYOUT_OTHER,           /* an attribute this module does not explain */
    TK_LAYOUT_BLOCKED,         /* #ttg.blocked */
    TK_LAYOUT_SLICE,           /* #ttg.slice: parent without dimension dim */
    TK_LAYOUT_DOT_OPERAND,     /* #ttg.dot_op: operand opIdx of a dot whose
                                  result has layout parent */
    TK_LAYOUT_MMA,             /* #ttg.nvidia_mma, #ttg.amd_mfma, ... */
    TK_LAYOUT_LINEAR,          /* #ttg.linear: bases per hardware level */
    TK_LAYOUT_SHARED,          /* #ttg.swizzled_shared, #ttg.nvmma_shared,
                                  any *_shared: a shared memory layout */
    TK_LAYOUT_MEMORY_SPACE     /* #ttg.shared_memory and the like */
} tk_layout_kind;

/* "other", "blocked", "slice", "dot_op", "mma", "linear", "shared",
 * "memory_space". */
TK_API
const char *tk_layout_kind_name(tk_layout_kind kind);

typedef struct {
    tk_layout_kind kind;
    const char *alias;  /* "blocked1" for `#blocked1 = ...`; "" inline */
    const char *name;   /* the attribute's name: "ttg.blocked" */
    const char *text;   /* the attribute as printed: "#ttg.blocked<{...}>" */
    uint32_t line;      /* 1-based line of the alias definition; 0 inline */

    /* Blocked (and MMA for warps_per_cta, shared for order).  rank is the
     * number of entries of the arrays that were given (0 if none). */
    unsigned rank;
    uint32_t size_per_thread[TK_LAYOUT_MAX_RANK];
    uint32_t threads_per_warp[TK_LAYOUT_MAX_RANK];
    uint32_t warps_per_cta[TK_LAYOUT_MAX_RANK];
    uint32_t order[TK_LAYOUT_MAX_RANK];

    /* Slice and dot operand: the parent layout (an index into the same
     * table, -1 when it could not be found), slice `dim`, dot `opIdx` and
     * `kWidth` (-1 when absent). */
    int parent;
    int dim;
    int op_idx;
    int k_width;

    /* MMA: versionMajor, versionMinor, instrShape (n_instr entries). */
    int version_major, version_minor;
    unsigned n_instr;
    uint32_t instr_shape[4];

    /* Shared: swizzled_shared's vec, perPhase, maxPhase; nvmma_shared's
     * swizzlingByteWidth, transposed (0/1), elementBitWidth; -1 absent. */
    int vec, per_phase, max_phase;
    int swizzle_bytes, transposed, element_bits;

    /* Linear: number of bases given for register, lane, warp and block (a
     * layout with r register bases gives each thread 2^r elements). */
    unsigned n_register, n_lane, n_warp, n_block;
} tk_layout;

/* A tensor or memory descriptor type on a line and the layout it names. */
typedef struct {
    uint32_t start, end; /* byte offsets in the line of the layout reference
                            (`#blocked1`, or the whole inline `#ttg.slice<
                            ...>`), half-open */
    int layout;          /* index into the table, -1 when the alias is not
                            defined there */
    int memdesc;         /* 1: `!ttg.memdesc<...>`, 0: `tensor<...>` */
    unsigned rank;       /* of the shape; 0 for a scalar-shaped type */
    uint64_t shape[TK_LAYOUT_MAX_RANK];
    char elem[16];       /* element type as printed: "f32", "i1", "f16",
                            "!tt.ptr<f32>" shortened to "ptr" */
    unsigned elem_bits;  /* 0 when not a plain int/float type */
} tk_layout_use;

/* How a layout covers a tensor of a given shape. */
typedef struct {
    int known;                    /* 0: the kind gives no distribution */
    unsigned rank;
    uint64_t tile[TK_LAYOUT_MAX_RANK];  /* elements one CTA tile covers */
    uint64_t reps[TK_LAYOUT_MAX_RANK];  /* ceil(shape / tile) */
    uint64_t per_thread[TK_LAYOUT_MAX_RANK]; /* elements a thread holds */
    uint64_t tile_elems;          /* product of tile */
    uint64_t tensor_elems;        /* product of shape */
    uint64_t elems_per_thread;    /* product of per_thread */
    uint64_t threads;             /* threads of the CTA the layout uses */
    uint64_t duplication;         /* tile_elems / tensor_elems when the tile
                                     is larger than the tensor, else 1 */
} tk_layout_cover;

typedef struct tk_layouts tk_layouts;

/* An empty table.  Free with tk_layouts_free(). */
TK_API
tk_layouts *tk_layouts_new(void);
TK_API
void tk_layouts_free(tk_layouts *layouts);

/* Reads the layout alias definitions (`#name = #dialect.kind<...>` lines)
 * of STAGE.  Never fails: unreadable definitions are kept as
 * TK_LAYOUT_OTHER.  A stage with none (TTIR, PTX) gives an empty table. */
TK_API
tk_layouts *tk_layouts_from_stage(const tk_stage *stage);

/* Adds one definition line, 1-based LINE_NO, LEN bytes at LINE.  Returns
 * the index of the new layout, or -1 when the line defines no attribute
 * alias (an `#loc` line, an op). */
TK_API
int tk_layouts_add_definition(tk_layouts *layouts, const char *line,
                              size_t len, uint32_t line_no);

TK_API
size_t tk_layouts_count(const tk_layouts *layouts);
/* Layout I, NULL when out of range; owned by the table. */
TK_API
const tk_layout *tk_layouts_get(const tk_layouts *layouts, size_t i);
/* The layout defined as `#ALIAS` (no '#'), or -1. */
TK_API
int tk_layouts_find(const tk_layouts *layouts, const char *alias);

/* Finds the tensor<...> and !ttg.memdesc<...> types of one line (LEN bytes
 * at LINE), in order, and writes up to CAP of them to OUT.  Inline layouts
 * are added to the table (hence non-const).  Returns how many there are
 * (which may exceed CAP). */
TK_API
size_t tk_layouts_line_uses(tk_layouts *layouts, const char *line, size_t len,
                            tk_layout_use *out, size_t cap);

/* How layout I covers a tensor of SHAPE (RANK dimensions).  Sets
 * out->known = 0 when the kind does not say (shared, other, a dot operand,
 * a slice of such) or the ranks do not fit. */
TK_API
void tk_layouts_cover(const tk_layouts *layouts, int i, const uint64_t *shape,
                      unsigned rank, tk_layout_cover *out);

#ifdef __cplusplus
}
#endif
#endif
