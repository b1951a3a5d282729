/* tkv_test_state_more.h - parts of a window's state written by
 * tkv_test_state.c, kept in a file of their own: the register strip and
 * the peak's source mark of the binding view, configs mode, the compare
 * view. */
#ifndef TKV_TEST_STATE_MORE_H
#define TKV_TEST_STATE_MORE_H

#include <json-glib/json-glib.h>

#include "app/tkv_window.h"
#include "compare/tkv_compare_view.h"
#include "passes/tkv_pass_view.h"

G_BEGIN_DECLS

/* "regs": {"shown": the strip is on screen (the primary pane shows SASS),
 * "caption", "peak", "peak_line", "cursor", "columns" (pixels drawn),
 * "counts": the count of every SASS line (0: no instruction),
 * "source_peak": {"file", "line"} or null, "source_marks": the lines of the
 * shown source buffer that carry the peak's mark}. */
void tkv_test_state_write_regs(TkvWindow *win, JsonBuilder *b);

/* "configs": {"message" (or null), "groups": [{"kernel", "winner" (row or
 * -1), "rows": [{"hash", "apart", "ms" (or null), "winner", "diverge"}],
 * "lines": [{"file", "line", "cells": [text as shown], "marked": [bool]}]}]}
 * once built, else "configs": {"built": false}. */
void tkv_test_state_write_configs(TkvWindow *win, JsonBuilder *b);

/* The compare view: "state", "message", "other", and once compared "rows",
 * "first", "first_text", "row", "which", "diff_pending", "title",
 * "has_diff", "a_del", "b_add", "facts". */
void tkv_test_state_write_compare(TkvCompareView *cv, JsonBuilder *b);

/* "dump_line": {"ROW": the line of SIDE's dump that ROW shows, as its
 * gutter numbers it (0: a note)} for ROWS (guint32, 1-based) of the pass
 * diff shown. */
void tkv_test_state_write_dump_lines(TkvPassView *pv, JsonBuilder *b, int side, GArray *rows);

G_END_DECLS

#endif
