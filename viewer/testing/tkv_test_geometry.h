/* tkv_test_geometry.h - a window's widgets drawn outside it and its labels
 * cut short, for the screenshot tests (test-state's "geometry"). */
#ifndef TKV_TEST_GEOMETRY_H
#define TKV_TEST_GEOMETRY_H

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

/* Writes "geometry": {width, height, off_window: ["GtkType css \"text\" at
 * x,y wxh", ...], cut_labels: [{text, tooltip}, ...]} of WIN on B. */
void tkv_test_geometry_write(GtkWindow *win, JsonBuilder *b);

#endif
