/* tkv_width_first_layout.h - a box layout whose width does not depend on
 * its height.
 *
 * A GtkPaned lays its children out by asking each for its width at the
 * paned's height.  A vertical GtkBoxLayout answers that by sharing the height
 * out and asking every child its width for its share, and a wrapping GtkLabel
 * answers that by laying its text out at width after width (a bisection):
 * the binding view's notes bar was laid out ~40 times per click on a line
 * (a quarter of the main thread's time), because its text changes with
 * every answer.  A view laid out top to bottom whose width never depends on
 * its height (the panes' widths are their own) can say so: this layout asks
 * its children their widths for no height in particular, and is a
 * GtkBoxLayout in every other way.
 */
#ifndef TKV_WIDTH_FIRST_LAYOUT_H
#define TKV_WIDTH_FIRST_LAYOUT_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TKV_TYPE_WIDTH_FIRST_LAYOUT (tkv_width_first_layout_get_type())
G_DECLARE_FINAL_TYPE(TkvWidthFirstLayout, tkv_width_first_layout, TKV, WIDTH_FIRST_LAYOUT,
                     GtkLayoutManager)

/* A box layout of ORIENTATION, children SPACING pixels apart.  For
 * gtk_widget_set_layout_manager(), which takes the reference. */
GtkLayoutManager *tkv_width_first_layout_new(GtkOrientation orientation, int spacing);

G_END_DECLS

#endif
