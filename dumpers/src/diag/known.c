/* known.c - the one table of known compiler messages in plain words
 * (tk_diag_entry_explain()); docs/diagnostics.md shows the same rows. */
#include <string.h>

#include "diag/internal.h"

/* MATCH: a ptxas code ("C7602"), or a piece of the message text. */
typedef struct {
    const char *match;
    int by_code;
    tk_diag_known row;
} known_row;

static const known_row rows[] = {
    {"C7602", 1,
     {"C7602",
      "ptxas needs more registers for one instruction than the register cap "
      "(maxnreg, or what num_warps leaves) allows, so it gave up: the kernel "
      "has no cubin. The instruction is on the PTX line it names; its .loc "
      "gives the source line (often a tl.dot whose accumulator is too big).",
      "Raise maxnreg to at least the target ptxas suggests, or lower it less; "
      "use a smaller tile (BLOCK_N/BLOCK_M) or more warps so each thread "
      "holds fewer accumulator values.",
      NULL, TK_STAGE_PTX}},
    {"C7511", 1,
     {"C7511",
      "wgmma serialized because there are not enough registers to keep "
      "several wgmma in flight (the wgmma pipeline needs its accumulators "
      "live at once); usually with spills.",
      "Raise maxnreg or drop it, use num_warps=8 (or a consumer warp group "
      "pair) for big tiles, or a smaller BLOCK_N.",
      NULL, TK_STAGE_PTX}},
    {"are serialized due to", 0,
     {"wgmma-serialized",
      "ptxas serializes the wgmma.mma_async instructions (C75xx codes: it "
      "waits for each wgmma before the next), for the reason it gives after "
      "\"due to\"; the tensor cores sit idle in between.",
      "Read the reason: for registers see C7511; for an accumulator used "
      "between wgmma's, keep acc untouched inside the dot loop; keep the "
      "loop in one function.",
      NULL, TK_STAGE_PTX}},
    {"bytes spill stores", 0,
     {"spill",
      "ptxas ran out of registers and keeps some values in local memory "
      "(spill stores and loads go through the L1 cache to DRAM): usually "
      "slow.",
      "Raise maxnreg (or remove it), use fewer values per thread (smaller "
      "tiles, more warps, fewer num_stages), or split the kernel.",
      NULL, TK_STAGE_PTX}},
    {"MMA version 3 acceleration not applied", 0,
     {"mma-v3-not-applied",
      "Triton could not use Hopper's wgmma (MMA v3) for this tl.dot: the "
      "shapes or types do not fit (a tile under 64 rows per warp group, a "
      "dimension not a multiple of 16 or 8, an unsupported type); it falls "
      "back to mma.sync (MMA v2), which is slower on Hopper.",
      "Use BLOCK_M >= 64 with num_warps=4 (16 rows per warp), BLOCK_N and "
      "BLOCK_K multiples of 16, and fp16/bf16/fp8/tf32 inputs.",
      "TritonGPUAccelerateMatmul", TK_STAGE_TTGIR}},
    {"pipelining", 0,
     {"pipelining-not-applied",
      "The software pipeliner did not pipeline this loop (its loads are "
      "not overlapped with the computation of earlier iterations).",
      "Use num_stages >= 2, a loop of the plain `for k in range(...)` or "
      "tl.range form with loads whose addresses advance by a fixed step, "
      "and no early exit.",
      NULL, TK_STAGE_TTGIR}},
};

size_t tk_diag_known_count(void)
{
    return sizeof rows / sizeof rows[0];
}

const tk_diag_known *tk_diag_known_get(size_t i)
{
    return i < tk_diag_known_count() ? &rows[i].row : NULL;
}

const tk_diag_known *tk_diag_entry_explain(const tk_diag_entry *e)
{
    if (!e)
        return NULL;
    for (size_t i = 0; i < tk_diag_known_count(); i++) {
        const known_row *r = &rows[i];
        if (r->by_code ? (e->code && strcmp(e->code, r->match) == 0)
                       : (e->message && strstr(e->message, r->match)))
            return &r->row;
    }
    return NULL;
}
