/* cover.c - how a layout spreads a tensor over a CTA (tk_layouts.h).
 *
 * Per dimension d of a blocked layout, one CTA tile covers
 *   tile[d] = sizePerThread[d] x threadsPerWarp[d] x warpsPerCTA[d]
 * elements, the tensor needs reps[d] = ceil(shape[d] / tile[d]) tiles, and a
 * thread holds per_thread[d] = reps[d] x sizePerThread[d] elements: Triton's
 * BlockedEncodingAttr::getElemsPerThread.  A tensor smaller than the tile
 * still gives each thread sizePerThread elements, duplicated across threads.
 */
#include "tkdump/tk_layouts.h"

#include <string.h>

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return b ? (a + b - 1) / b : 0;
}

/* Fills OUT from a per-dimension tile and per-tile elements of a thread. */
static void finish(tk_layout_cover *out, const uint64_t *shape, unsigned rank,
                   const uint64_t *tile, const uint64_t *spt, uint64_t threads)
{
    out->known = 1;
    out->rank = rank;
    out->tile_elems = out->tensor_elems = out->elems_per_thread = 1;
    for (unsigned d = 0; d < rank; d++) {
        out->tile[d] = tile[d];
        out->reps[d] = shape[d] ? ceil_div(shape[d], tile[d]) : 0;
        out->per_thread[d] = out->reps[d] * spt[d];
        out->tile_elems *= tile[d];
        out->tensor_elems *= shape[d];
        out->elems_per_thread *= out->per_thread[d];
    }
    out->threads = threads;
    out->duplication = out->tensor_elems && out->tile_elems > out->tensor_elems
                           ? out->tile_elems / out->tensor_elems
                           : 1;
}

/* The blocked arithmetic over RANK dims of L (the parent of a slice passes
 * its own arrays with one dimension dropped). */
static int blocked_dims(const tk_layout *l, int drop, uint64_t *tile,
                        uint64_t *spt, uint64_t *threads, unsigned *rank)
{
    unsigned r = 0;
    uint64_t th = 1;
    for (unsigned d = 0; d < l->rank; d++) {
        uint64_t t = (uint64_t)l->threads_per_warp[d] * l->warps_per_cta[d];
        th *= t;
        if ((int)d == drop)
            continue;
        if (!l->size_per_thread[d] || !t)
            return 0;
        spt[r] = l->size_per_thread[d];
        tile[r] = spt[r] * t;
        r++;
    }
    *threads = th;
    *rank = r;
    return 1;
}

/* MMA result tile: instrShape[d] x warpsPerCTA[d] for the last two dims
 * (Hopper's wgmma: a warp group of 4 warps stacks 4 x 16 rows).  A thread's
 * share of one tile, tile / threads, is put on the last dimension (the
 * accumulator fragments of a row). */
static int mma_dims(const tk_layout *l, uint64_t *tile, uint64_t *spt,
                    uint64_t *threads, unsigned *rank)
{
    if (l->rank < 2 || l->n_instr < 2 || l->rank > TK_LAYOUT_MAX_RANK)
        return 0;
    uint64_t warps = 1, per_tile = 1;
    for (unsigned d = 0; d < l->rank; d++) {
        warps *= l->warps_per_cta[d];
        tile[d] = l->warps_per_cta[d];
        spt[d] = 1;
    }
    tile[l->rank - 2] *= l->instr_shape[0];
    tile[l->rank - 1] *= l->instr_shape[1];
    for (unsigned d = 0; d < l->rank; d++)
        per_tile *= tile[d];
    uint64_t th = warps * 32;
    if (!th || per_tile < th)
        return 0;
    spt[l->rank - 1] = per_tile / th;
    *threads = th;
    *rank = l->rank;
    return 1;
}

void tk_layouts_cover(const tk_layouts *t, int i, const uint64_t *shape,
                      unsigned rank, tk_layout_cover *out)
{
    memset(out, 0, sizeof *out);
    const tk_layout *l = tk_layouts_get(t, i < 0 ? SIZE_MAX : (size_t)i);
    if (!l || rank > TK_LAYOUT_MAX_RANK)
        return;
    uint64_t tile[TK_LAYOUT_MAX_RANK], spt[TK_LAYOUT_MAX_RANK], threads = 0;
    unsigned r = 0;
    int ok = 0;
    switch (l->kind) {
    case TK_LAYOUT_BLOCKED:
        ok = blocked_dims(l, -1, tile, spt, &threads, &r);
        break;
    case TK_LAYOUT_MMA:
        ok = mma_dims(l, tile, spt, &threads, &r);
        break;
    case TK_LAYOUT_SLICE: {
        const tk_layout *p = tk_layouts_get(t, l->parent < 0 ? SIZE_MAX : (size_t)l->parent);
        if (!p || l->dim < 0 || (unsigned)l->dim >= p->rank)
            return;
        if (p->kind == TK_LAYOUT_BLOCKED)
            ok = blocked_dims(p, l->dim, tile, spt, &threads, &r);
        break; /* slices of MMA and others: not explained */
    }
    case TK_LAYOUT_LINEAR: {
        /* 2^register elements per thread, 2^(lane + warp) threads; the
         * shape of the tile is not a product of per-dim numbers. */
        if (l->n_register > 32 || l->n_lane + l->n_warp > 32)
            return;
        out->known = 1;
        out->rank = rank;
        out->tensor_elems = 1;
        for (unsigned d = 0; d < rank; d++) {
            out->tensor_elems *= shape[d];
            out->tile[d] = out->reps[d] = out->per_thread[d] = 0;
        }
        out->threads = UINT64_C(1) << (l->n_lane + l->n_warp);
        out->elems_per_thread = UINT64_C(1) << l->n_register;
        out->tile_elems = out->threads * out->elems_per_thread;
        out->duplication = out->tensor_elems && out->tile_elems > out->tensor_elems
                               ? out->tile_elems / out->tensor_elems
                               : 1;
        return;
    }
    default:
        return;
    }
    if (!ok || r != rank)
        return;
    finish(out, shape, rank, tile, spt, threads);
}
