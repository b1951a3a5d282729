/* pass_budget.h - how much of one pass's diff the report stores.
 *
 * A pass that rewrites a 2 GB module cannot put 2 GB into a report, and a
 * page cannot show it.  Each pass's diff is stored up to
 * TK_PASS_BUDGET_ROWS rows (changed lines with their context; a replaced
 * line and the line that replaced it are one row) or TK_PASS_BUDGET_BYTES
 * of line text, whichever comes first: the rows after that are counted,
 * not stored, and the page says how many were left out and how to see
 * them (`tkview diff PATH --kernel K --pass N`, the desktop viewer).  Two
 * limits, because Triton prints LLVM-dialect lines of 32 KB (struct types
 * of thousands of fields): 20 000 of those would be 640 MB.
 *
 * A chain (pass_chain.h) stores whole texts: its first text, and per pass
 * the lines it added or rewrote; each is held to the same budget.  A pass
 * over it is stored outside the chain, cut like any other diff, and cannot
 * be an end of a composed diff; the passes after it start a chain again
 * once their text fits.  The browser cuts the diffs it composes at the
 * same number of rows (passes.js "diffs").  docs/html.md documents the
 * numbers; the report's size stays proportional to what it shows.
 */
#ifndef TK_HTML_PASS_BUDGET_H
#define TK_HTML_PASS_BUDGET_H

#include <glib.h>
#include <stdint.h>

#define TK_PASS_BUDGET_ROWS 20000u
#define TK_PASS_BUDGET_BYTES ((uint64_t)8 << 20)

/* What one diff, one chain step or one chain's first text has used. */
typedef struct {
    uint32_t rows;
    uint64_t bytes;
    gboolean full; /* a row did not fit: no later row is taken either */
} tk_pass_budget;

/* Takes a row of BYTES bytes of text; FALSE (and full from now on) when it
 * does not fit, so that what is stored is always a first part. */
static inline gboolean tk_pass_budget_take(tk_pass_budget *b, uint64_t bytes)
{
    if (b->full || b->rows >= TK_PASS_BUDGET_ROWS || b->bytes + bytes > TK_PASS_BUDGET_BYTES) {
        b->full = TRUE;
        return FALSE;
    }
    b->rows++;
    b->bytes += bytes;
    return TRUE;
}

#endif
