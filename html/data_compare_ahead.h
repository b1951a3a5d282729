/* data_compare_ahead.h - a comparison's row diffs made ahead on every core
 * (data_compare_ahead.c), for data_compare.c.
 *
 * A pair's row diffs are nearly all of its work (autotuned_matmul: 300
 * diffs, 96% of its comparisons' instructions) and each stands alone:
 * worker threads make them ahead, in row order, while data_compare.c
 * takes them in that order and does what depends on the rows before (the
 * diffs' numbers, the budget), so the data are the bytes made one by one
 * would be.  A job is a diff data_compare.c asks for unless the budget
 * runs out first: a changed row's IR after it (and the first row's before
 * it), except where the row before lends its diff (its passes changed
 * nothing).  Every answer is the library's (tk_compare_diff_row()).
 */
#ifndef HTML_DATA_COMPARE_AHEAD_H
#define HTML_DATA_COMPARE_AHEAD_H

#include <glib.h>

#include "tkdump/tk_compare.h"

typedef struct html_compare_ahead html_compare_ahead;

/* Whether the passes of ROW changed nothing on every side that runs it:
 * then the IR after it is the IR after the row before. */
gboolean html_compare_row_unchanged(const tk_compare *cmp, const tk_compare_row *row);

/* Row I of CMP diffed at WHICH as the report's JSON (html_report_diff_json),
 * its texts taken from TEXTS (the report's, shared by its comparisons:
 * tk_compare_diff_row_kept()); NULL when a side has no text there.  Caller frees with g_string_free(). */
GString *html_compare_row_json(const tk_compare *cmp, tk_timeline_texts *texts, size_t i,
                               tk_timeline_point which);

/* Starts making CMP's row diffs from TEXTS (CMP read only, and kept until
 * html_compare_ahead_free()); NULL on one core or when no thread could be
 * made: then each diff is made when asked for. */
html_compare_ahead *html_compare_ahead_start(const tk_compare *cmp, tk_timeline_texts *texts);

/* Row I's diff at WHICH, as html_compare_row_json() gives it (caller
 * frees): the next job's, waited for, or made here when row I is not the
 * next job. */
GString *html_compare_ahead_take(html_compare_ahead *a, size_t i, tk_timeline_point which);

/* Stops the workers (the budget ran out, or the rows are written), and
 * frees what they made that was not taken.  A may be NULL. */
void html_compare_ahead_free(html_compare_ahead *a);

#endif
