/* data_locs.h - the source lines of a pass diff's lines, as the report's
 * pass data store them (data_locs.c), so that the page marks the rows of
 * a diff that come from the source line selected.
 *
 * The stacks are the library's: a diff's sides are bound once
 * (tk_ir_diff_bind(), the locations each dump states: MLIR `loc(#locN)`
 * and its `#locN = loc(...)` definitions, LLVM `!dbg` and its DILocation
 * chain), and each kept line's stacks are tk_ir_diff_line_stacks()'s; the
 * report never reads a location itself.  A data file (a chain, a stored
 * diff) holds one table of what its lines name:
 *
 *   "st": [[], E1, E2, ...]   entry 0: no location; entry E: the stacks
 *                             of a line, each its frames as a flat array
 *                             [file, line, file, line, ...] innermost
 *                             first (file: the files.js index)
 *
 * and per line the index of its entry (lines that name the same stacks
 * share one).  The page matches a selected source line against an entry
 * as the library's history does (tk_history.h): any frame ("and what it
 * called"), or each stack's innermost ("this line only").
 */
#ifndef HTML_DATA_LOCS_H
#define HTML_DATA_LOCS_H

#include "report.h"

typedef struct html_report_locs html_report_locs;

/* A table for lines bound in TAB (the kernel's own location table), their
 * files written as R's (the bundle's table, under R->lock). */
html_report_locs *html_report_locs_new(html_report *r, const tk_loctab *tab);
void html_report_locs_free(html_report_locs *l);

/* Empties the table, for the next data file (entry 0 stays). */
void html_report_locs_clear(html_report_locs *l);

/* The entry of kept line K of SIDE of D (D bound in the table's TAB; a
 * diff not bound, or a line without location: 0). */
uint32_t html_report_locs_kept(html_report_locs *l, const tk_ir_diff *d, int side, uint32_t k);

/* Whether kept line KA of A and kept line KB of B of D name the same
 * stacks (an equal line whose `#locN` now means another place: no). */
gboolean html_report_locs_same(const tk_ir_diff *d, uint32_t ka, uint32_t kb);

/* Writes the table as a JSON array. */
void html_report_locs_write(html_report_locs *l, jw *w);

/* The id of file F of TAB (a kernel's own table) in R's bundle's table,
 * which the report's file list (files.js) follows. */
tk_file_id html_report_global_file(html_report *r, const tk_loctab *tab, tk_file_id f);

#endif
