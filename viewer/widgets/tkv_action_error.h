/* tkv_action_error.h - a command that could not be done.
 *
 * An action whose parameter names nothing (a stage the kernel lacks, a line
 * past the end, a file not of the kernel) changes nothing: the widget that
 * owns it rings the error bell, and the window keeps the message as its last
 * error, which the tests read back (app.test-state's "last_error").  Every
 * action, the window's and the views', says so through here.
 */
#ifndef TKV_ACTION_ERROR_H
#define TKV_ACTION_ERROR_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Rings WIDGET's error bell and keeps the message (printf-style) on
 * WIDGET's window. */
void tkv_action_error(GtkWidget *widget, const char *format, ...) G_GNUC_PRINTF(2, 3);

/* The message of the last command of WINDOW that could not be done, or NULL;
 * owned by the window. */
const char *tkv_action_error_get_last(GtkWindow *window);

G_END_DECLS

#endif
