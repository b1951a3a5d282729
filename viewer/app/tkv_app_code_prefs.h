/* tkv_app_code_prefs.h - the application's actions on how code is shown
 * (widgets/tkv_code_prefs.h), remembered in its GSettings:
 *   app.zoom-in, app.zoom-out, app.zoom-reset   the code panes' font size
 *                                               (Ctrl+plus, Ctrl+minus, Ctrl+0)
 *   app.wrap-lines (state b)                    long lines wrapped (Alt+Z)
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Adds the actions to APP; SETTINGS (NULL: nothing remembered) keeps the
 * font size and the wrapping between runs. */
void tkv_app_code_prefs_init(GtkApplication *app, GSettings *settings);

G_END_DECLS
