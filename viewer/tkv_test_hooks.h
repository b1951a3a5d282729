/* tkv_test_hooks.h - what the tests need to see the viewer as a user does.
 *
 * Installed only when TKVIEW_TEST_HOOKS=1.  Two application actions, reached
 * like every other action over the GApplication D-Bus interface
 * (org.gtk.Actions.Activate on /org/tkview/Viewer):
 *   app.test-state (s PATH)        writes every window's state as JSON to PATH
 *                                  (atomically: a temporary file renamed):
 *                                  which page it shows, the error it shows,
 *                                  the kernel, and per pane the lines that
 *                                  carry each highlight, read back from the
 *                                  text buffers' tags;
 *   app.test-screenshot ((us) ID PATH)  after the next two frames of window ID
 *                                  (0: the active one), writes it to PATH as
 *                                  PNG (also renamed into place).
 * The tests drive the viewer only through the actions the UI uses
 * (win.select-source-location, ...) and read back with these.
 */
#ifndef TKV_TEST_HOOKS_H
#define TKV_TEST_HOOKS_H

#include <gtk/gtk.h>

void tkv_test_hooks_install(GtkApplication *app);

/* Writes the state of every window of APP to PATH; FALSE on failure. */
gboolean tkv_test_hooks_write_state(GtkApplication *app, const char *path, GError **error);

#endif
