/* tkv_gutter_line.h - which text line a point of a gutter renderer is on,
 * for the gutters whose tooltips speak of a line (heat, diagnostics); and
 * where a gutter drew the text of its lines, for the tests (a number must
 * stand on its line's first row, wrapped or zoomed). */
#ifndef TKV_GUTTER_LINE_H
#define TKV_GUTTER_LINE_H

#include <gtksourceview/gtksource.h>

G_BEGIN_DECLS

/* The 1-based buffer line under (X, Y) in RENDERER's own coordinates, or 0
 * when the renderer is not in a view. */
guint tkv_gutter_line_at(GtkSourceGutterRenderer *renderer, double x, double y);

/* Where a renderer drew a line's text: its top and height, in its view's
 * coordinates. */
typedef struct {
    guint line; /* 1-based */
    int y, h;
} TkvGutterDrawn;

/* Notes that RENDERER drew the text of LINE (0-based, as snapshot_line
 * has it) at Y (its own coordinates), H high.  A frame draws its lines in
 * ascending order: a line at or before the last noted starts a new frame's
 * list.  Cheap: a store per line drawn. */
void tkv_gutter_drawn_note(GtkSourceGutterRenderer *renderer, guint line, float y, int h);
/* The lines RENDERER drew text for in the last frame it drew any
 * (TkvGutterDrawn), owned by RENDERER, NULL when none; that frame's
 * counter (the frame clock's) in *FRAME, -1 when none. */
GArray *tkv_gutter_drawn(GtkSourceGutterRenderer *renderer, gint64 *frame);

G_END_DECLS

#endif
