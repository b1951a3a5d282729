/* tk_config.h - what a kernel was compiled with, as name = value pairs a
 * front end can put side by side for two compilations (tk_compare.h) or
 * in one row per autotune configuration.
 *
 * The items come from, in this order:
 *   TK_CONFIG_META       Triton's metadata and the cubin (tk_kernel_meta):
 *                        num_warps, num_ctas, num_stages, shared_bytes,
 *                        registers, spill_bytes, target, triton_version;
 *                        unknown values are left out;
 *   TK_CONFIG_OPTION     every compile option NAME.json records
 *                        (tk_kernel_option(): enable_fp_fusion, maxnreg,
 *                        ptx_options, launch_pdl, ...; values as JSON
 *                        text), so that two compiles that differ only in
 *                        an option that acts after LLVM IR are told apart;
 *   TK_CONFIG_CONSTANT   the constants Triton's metadata records
 *                        (tk_kernel_constant(): older Triton wrote
 *                        "constants" into NAME.json; Triton 3.6 does not);
 *   TK_CONFIG_TILE       constexpr sizes read off the kernel's tl.arange
 *                        calls: a TTIR `tt.make_range {end = E, start = S}`
 *                        whose source line (innermost frame; at its column
 *                        when the line has several calls) calls
 *                        `tl.arange(A, B)` with B (or A) a plain name gives
 *                        B = E (A = S).  The TTIR before any pass
 *                        (tk_kernel_source_ttir()) is read first, then the
 *                        final one: CSE merges two ranges of one size
 *                        (BLOCK_M == BLOCK_N) in the final TTIR.  A name
 *                        given two values is left out, and so is one no
 *                        range shows: the items are what the IR shows, not
 *                        a guess;
 *   TK_CONFIG_SIGNATURE  the kernel's arguments as its TTIR function
 *                        signature declares them, locations left out
 *                        (`%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 :
 *                        i32}`, one item per argument, named by it):
 *                        Triton specializes arguments per call (an
 *                        argument equal to 1 disappears, divisibility by 16
 *                        is noted), and two compilations may differ there.
 *
 * Ownership: a configuration owns its items and their strings; it does not
 * keep the kernel or bundle it was read from.
 */
#ifndef TKDUMP_TK_CONFIG_H
#define TKDUMP_TK_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "tk_bundle.h"
#include "tk_diags.h"
#include "tk_export.h"
#include "tk_kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TK_CONFIG_META,
    TK_CONFIG_CONSTANT,
    TK_CONFIG_TILE,
    TK_CONFIG_SIGNATURE,
    TK_CONFIG_OPTION /* listed after TK_CONFIG_META */
} tk_config_origin;

/* "metadata", "constant", "tl.arange", "signature", "option". */
TK_API
const char *tk_config_origin_name(tk_config_origin origin);

typedef struct {
    const char *name;  /* "num_warps", "BLOCK_M", "%a_ptr" */
    const char *value; /* as text: "4", "128", "!tt.ptr<f16> {...}" */
    int is_number;     /* VALUE is an integer, NUMBER its value */
    int64_t number;
    tk_config_origin origin;
} tk_config_item;

typedef struct tk_config tk_config;

/* Reads KERNEL's configuration.  BUNDLE resolves the source files the
 * tl.arange rule reads (tk_bundle_resolve_source(); a file not found gives
 * no tile item and a note).  Returns a configuration, maybe with no item.
 * Free with tk_config_free(). */
TK_API
tk_config *tk_config_read(tk_bundle *bundle, const tk_kernel *kernel,
                          tk_diags *diags);
TK_API
void tk_config_free(tk_config *config);

TK_API
size_t tk_config_count(const tk_config *config);
/* Item I, in the order above; NULL when out of range. */
TK_API
const tk_config_item *tk_config_get(const tk_config *config, size_t i);
/* The item named NAME, or NULL. */
TK_API
const tk_config_item *tk_config_find(const tk_config *config,
                                     const char *name);

/* What sets MINE apart from its SIBLINGS (the configurations of the other
 * compiles of the same kernel, N of them): a new configuration holding
 * MINE's items whose value some sibling does not share (a sibling without
 * the item differs), in MINE's order.  What a compile produced rather than
 * was asked for (shared_bytes, registers, spill_bytes) is left out: it
 * follows from the rest.  No sibling gives no item.  Free with
 * tk_config_free(). */
TK_API
tk_config *tk_config_apart(const tk_config *mine,
                           const tk_config *const *siblings, size_t n);

/* The same for KERNEL among the kernels of BUNDLE with its name, reading
 * every configuration (for one kernel; a front end showing them all reads
 * each once and calls tk_config_apart()). */
TK_API
tk_config *tk_config_apart_in(tk_bundle *bundle, const tk_kernel *kernel,
                              tk_diags *diags);

/* tk_config_apart() of every kernel of BUNDLE, each configuration read
 * once: element I is kernel I's (no item when it has no sibling).  Caller
 * frees each with tk_config_free() and the array with g_free(). */
TK_API
tk_config **tk_config_apart_all(tk_bundle *bundle, tk_diags *diags);

/* CONFIG's items as one line for a title: "num_stages=3,
 * enable_fp_fusion=false" (signature items by their type); "" when it has
 * none.  Caller frees with g_free(). */
TK_API
char *tk_config_label(const tk_config *config);

#ifdef __cplusplus
}
#endif
#endif
