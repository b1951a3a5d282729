/* tkv_cost_text.h - what each line costs, in words: the numbers of the cost
 * column and the text of its tooltips, for the binding view's gutters and
 * the hot lines panel.  The numbers are libtkdump's (tk_cost.h); this only
 * writes them, as the HTML report's cost.js does. */
#ifndef TKV_COST_TEXT_H
#define TKV_COST_TEXT_H

#include <glib.h>

#include "document/tkv_document.h"
#include "tkdump/tk_cost.h"

G_BEGIN_DECLS

/* V in at most 5 characters into BUF: "829", "10.9k", "5.5M". */
void tkv_cost_short(double v, char buf[16]);

/* A source line's tooltip for metric M: its exact, inclusive and shared
 * values, the share of the total, and the SASS classes and stall reasons
 * of its exact values (EXACT) or inclusive ones.  Caller frees. */
char *tkv_cost_source_tip(const tk_cost *cost, size_t m, const tk_cost_line *line,
                          gboolean exact);

/* Line LINE of STAGE's tooltip for metric M, as the report's and `tkview
 * bind --ir` say it: "instructions: this PTX line: 0.55 (its share of the 8
 * bound to it); source line vector_add.py:12 total: 8" (tk_cost.h, "IR
 * lines"), then the SASS classes and stall reasons of its own share.
 * NULL when nothing is bound to it.  Caller frees. */
char *tkv_cost_ir_tip(TkvDocument *doc, const tk_cost *c, size_t m, tk_stage_kind stage,
                      guint line);

G_END_DECLS

#endif
