/* pass_budget.h - how much of one pass's diff the report stores.
 *
 * A pass that rewrites a 2 GB module cannot put 2 GB into a report, and a
 * page cannot show it.  Each pass's diff is stored up to
 * HTML_PASS_BUDGET_LINES lines of its unified diff (each context, removed
 * and added line counts one, as `tkview diff` prints them) or
 * HTML_PASS_BUDGET_BYTES of line text, whichever comes first.  The library
 * cuts it (tk_ir_diff_group_budget(), tk_ir_diff.h): the lines after that
 * are counted from their records, never read, and the page says how many
 * were left out and how to see them (`tkview diff PATH --kernel K --pass
 * N`, the desktop viewer).  Two limits, because Triton prints
 * LLVM-dialect lines of 32 KB (struct types of thousands of fields):
 * 20 000 of those would be 640 MB.
 *
 * A chain (pass_chain.h) stores whole texts: its first text, and per pass
 * the lines it added or rewrote; each is held to the same budget, told
 * from the lines' lengths before anything is read (html_pass_budget below).
 * A pass over it is stored outside the chain, cut like any other diff,
 * and cannot be an end of a composed diff; the passes after it start a
 * chain again once their text fits.  A chain whose data passes
 * HTML_PASS_CHAIN_BYTES ends, and the next pass starts another.  The
 * browser cuts the diffs it composes at the same number of lines
 * (passes.js "diffs").  docs/html.md documents the numbers; the report's
 * size stays proportional to what it shows.
 */
#ifndef HTML_PASS_BUDGET_H
#define HTML_PASS_BUDGET_H

#include <glib.h>
#include <stdint.h>

#include "tkdump/tk_ir_diff.h"

#define HTML_PASS_BUDGET_LINES 20000u
#define HTML_PASS_BUDGET_BYTES ((uint64_t)8 << 20)
/* A chain's data file is closed past this (what a browser loads at once
 * to compose a diff). */
#define HTML_PASS_CHAIN_BYTES ((gsize)32 << 20)

/* The budget of one stored diff, with CONTEXT equal lines around each
 * change. */
static inline tk_ir_diff_budget html_pass_diff_budget(uint32_t context)
{
    tk_ir_diff_budget b = {
        .context = context,
        .max_lines = HTML_PASS_BUDGET_LINES,
        .max_bytes = HTML_PASS_BUDGET_BYTES,
    };
    return b;
}

/* What one chain step or one chain's first text has used, in lines and
 * bytes of text. */
typedef struct {
    uint32_t lines;
    uint64_t bytes;
    gboolean full; /* a line did not fit: no later line is taken either */
} html_pass_budget;

/* Takes a line of BYTES bytes; FALSE (and full from now on) when it does
 * not fit, so that what is stored is always a first part. */
static inline gboolean html_pass_budget_take(html_pass_budget *b, uint64_t bytes)
{
    if (b->full || b->lines >= HTML_PASS_BUDGET_LINES || b->bytes + bytes > HTML_PASS_BUDGET_BYTES) {
        b->full = TRUE;
        return FALSE;
    }
    b->lines++;
    b->bytes += bytes;
    return TRUE;
}

#endif
