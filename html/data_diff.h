/* data_diff.h - one IR diff written into the report's data as JSON: its
 * change groups, cut to the budget for one pass (pass_budget.h), each row
 * with the source lines and layouts its sides name (data_diff.c).  Written
 * by the pass data (data_passes.c) and the comparisons. */
#ifndef HTML_DATA_DIFF_H
#define HTML_DATA_DIFF_H

#include <stdint.h>

#include <glib.h>

#include "data_layouts.h"
#include "data_locs.h"
#include "jsonw.h"
#include "tkdump/tk_ir_diff.h"

/* Equal lines shown around each change: the library's TK_DIFF_CONTEXT
 * (tk_diff.h).  It is written into passes.js with the budget
 * (pass_budget.h): the browser groups and cuts the diffs it composes with
 * them. */
#define HTML_DIFF_CONTEXT TK_DIFF_CONTEXT

/* Diff D as a JSON object on W, as much of it as the budget for one pass
 * takes (pass_budget.h: the library cuts it, and reads back only the
 * lines stored); LOCS and LAYS (may be NULL: not written) what its rows
 * name; TOUCHED (may be NULL) collects the source lines of its changed
 * lines (all of them, cut or not).  Returns the number of lines of its
 * unified diff left out. */
uint64_t html_diff_json(tk_loctab *tab, html_report_locs *locs, html_report_lays *lays,
                        tk_ir_diff *d, GHashTable *touched, jw *w);

/* TOUCHED collects the source lines of all D's changed lines (stored or
 * not: no text is read). */
void html_diff_touch_changed(tk_loctab *tab, tk_ir_diff *d, GHashTable *touched);

/* Whether D's diff is over the budget for one pass: told from its lines'
 * lengths, nothing read. */
gboolean html_diff_over_budget(const tk_ir_diff *d);

#endif
