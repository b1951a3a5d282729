/* internal.h - a comparison's insides (internal): what it keeps of each
 * pass of both timelines (digests, not texts), and the rows the alignment
 * makes from them.
 */
#ifndef TKDUMP_COMPARE_INTERNAL_H
#define TKDUMP_COMPARE_INTERNAL_H

#include <glib.h>

#include "tkdump/tk_compare.h"

/* The effect digest of a pass that changed nothing. */
#define CMP_NO_CHANGE ((uint64_t)1)

/* What a comparison keeps of one pass: digests of its texts (0: unknown). */
typedef struct {
    uint64_t before; /* the IR before it */
    uint64_t after;  /* its output */
    uint64_t effect; /* what it removed and added; CMP_NO_CHANGE */
    int loop;        /* a loop pass: its texts are a loop's */
} cmp_pass;

typedef struct {
    tk_bundle *bundle;
    const tk_kernel *kernel;
    tk_timeline *tl;      /* NULL: no pass dumps */
    int borrowed;         /* TL is the caller's (tk_compare_build_from()) */
    cmp_pass *passes;     /* one per pass of TL */
    size_t n_passes;
    tk_config *config;
} cmp_side;

struct tk_compare {
    cmp_side side[2];
    tk_diff_opts diff;
    GArray *rows;         /* tk_compare_row */
    size_t first, unknown_before;
    tk_compare_stage stages[TK_STAGE_COUNT];
    GArray *lines;        /* tk_compare_line, made by tk_compare_lines() */
    GStringChunk *strings;
};

/* Fills CMP->rows from both sides' passes: the alignment, each row's IR
 * compared, the first divergence (align.c). */
void cmp_align(tk_compare *cmp);

/* The key a pass is aligned by, appended to OUT: level, name, argument and
 * (LLVM passes run per function) the function, the kernel's own name as
 * "<kernel>". */
void cmp_pass_key(GString *out, const tk_timeline_entry *e,
                  const char *kernel_name);

#endif
