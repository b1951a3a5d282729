/* tkv_gutter_line.h - which text line a point of a gutter renderer is on,
 * for the gutters whose tooltips speak of a line (heat, diagnostics). */
#ifndef TKV_GUTTER_LINE_H
#define TKV_GUTTER_LINE_H

#include <gtksourceview/gtksource.h>

G_BEGIN_DECLS

/* The 1-based buffer line under (X, Y) in RENDERER's own coordinates, or 0
 * when the renderer is not in a view. */
guint tkv_gutter_line_at(GtkSourceGutterRenderer *renderer, double x, double y);

G_END_DECLS

#endif
