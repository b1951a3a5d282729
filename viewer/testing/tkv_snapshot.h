/* tkv_snapshot.h - a widget rendered to a PNG file, without a compositor or
 * screenshot tool: the widget's paintable is snapshotted and rendered with
 * the window's own GskRenderer (GL under a GPU, cairo under Xvfb). */
#ifndef TKV_SNAPSHOT_H
#define TKV_SNAPSHOT_H

#include <gtk/gtk.h>

/* Writes WIDGET as it looks now to PATH.  FALSE with ERROR when it has no
 * size yet or the file cannot be written. */
gboolean tkv_snapshot_to_png(GtkWidget *widget, const char *path, GError **error);

#endif
