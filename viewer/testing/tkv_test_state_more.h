/* tkv_test_state_more.h - parts of a window's state written by
 * tkv_test_state.c, kept in a file of their own: the register strip and
 * the peak's source mark of the binding view, and configs mode. */
#ifndef TKV_TEST_STATE_MORE_H
#define TKV_TEST_STATE_MORE_H

#include <json-glib/json-glib.h>

#include "app/tkv_window.h"

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

G_END_DECLS

#endif
