/* tkv_action_error.c - a command that could not be done. */
#include "widgets/tkv_action_error.h"

#define LAST_ERROR_KEY "tkv-last-action-error"

void tkv_action_error(GtkWidget *widget, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    char *message = g_strdup_vprintf(format, ap);
    va_end(ap);
    GtkRoot *root = gtk_widget_get_root(widget);
    if (root)
        g_object_set_data_full(G_OBJECT(root), LAST_ERROR_KEY, message, g_free);
    else
        g_free(message);
    gtk_widget_error_bell(widget);
}

const char *tkv_action_error_get_last(GtkWindow *window)
{
    return g_object_get_data(G_OBJECT(window), LAST_ERROR_KEY);
}
