/* tkv_test_state.h - a window's state as JSON, for the tests (app.test-state).
 *
 * What a user sees, read back through the widgets' getters: which page the
 * window shows and the error it shows, the kernel, and per pane of each view
 * the lines that carry each highlight and the folded lines (as the views keep
 * them per line of their buffers and paint them), the pass list and the diff
 * shown, the stack panel's frames, the kernel panel's rows.  The members are
 * described where the tests read them (tests/viewer/).  Only the test hooks
 * (tkv_test_hooks.h) call this: the widgets write no JSON of their own.
 */
#ifndef TKV_TEST_STATE_H
#define TKV_TEST_STATE_H

#include <json-glib/json-glib.h>

#include "app/tkv_window.h"

G_BEGIN_DECLS

/* Writes WIN's state into B, inside an object B has begun. */
void tkv_test_state_write_window(TkvWindow *win, JsonBuilder *b);
/* Its "diag" member (tkv_test_diag.c): the compiler messages shown. */
void tkv_test_state_write_diag(TkvWindow *win, JsonBuilder *b);

G_END_DECLS

#endif
