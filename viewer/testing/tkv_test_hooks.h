/* tkv_test_hooks.h - what the tests need to see and drive the viewer as a
 * user does.
 *
 * Only in the test build, tkview-viewer-test (tkv_test_main.c), and there
 * only when TKVIEW_TEST_HOOKS=1.  Application actions, reached
 * like every other over the GApplication D-Bus interface
 * (org.gtk.Actions.Activate on /org/tkview/Viewer):
 *   app.test-state (s PATH)        writes every window's state as JSON to PATH
 *                                  (atomically: a temporary file renamed;
 *                                  tkv_test_state.h says what it holds);
 *   app.test-screenshot ((us) ID PATH)  after the next two frames of window ID
 *                                  (0: the active one), writes it to PATH as
 *                                  PNG (also renamed into place);
 *   app.test-activate ((usav) ID ACTION [PARAMETER])  activates a widget's
 *                                  action ("pass-view.select-pass") in window
 *                                  ID, on the widget that installed it;
 *   app.test-set-state ((usv) ID ACTION VALUE)  the same for a stateful
 *                                  widget action ("pass-view.changed-only"):
 *                                  activates it unless its state is VALUE;
 *   app.test-key ((us) ID KEYS)    a key press in window ID as GTK handles it,
 *                                  short of the X event: the shortcut whose
 *                                  trigger is KEYS ("n", "<Control>f") on a
 *                                  shown widget, activated as GTK would.
 * GTK exports the application's and the windows' actions (app.*, win.*) on
 * D-Bus but not the actions installed on widgets; the last two hooks reach
 * those.  The tests drive the viewer only through the actions the UI uses
 * and read back with app.test-state.
 */
#ifndef TKV_TEST_HOOKS_H
#define TKV_TEST_HOOKS_H

#include <gtk/gtk.h>

void tkv_test_hooks_install(GtkApplication *app);

/* Writes the state of every window of APP to PATH; FALSE on failure. */
gboolean tkv_test_hooks_write_state(GtkApplication *app, const char *path, GError **error);

#endif
