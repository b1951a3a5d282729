/* tkv_heat_gutter.h - the cost column of a code view's gutter: per line a
 * cell shaded by what the line cost against the costliest line of the
 * pane, with the value in short ("10.9k") and its breakdown as tooltip.
 *
 * Like the bound/unbound column (tkv_bind_gutter.h) it holds no per-line
 * state: its owner answers per visible line through a callback, and is
 * asked for a tooltip's text only when one is shown.  Without a callback
 * the column takes no room.
 */
#ifndef TKV_HEAT_GUTTER_H
#define TKV_HEAT_GUTTER_H

#include <gtksourceview/gtksource.h>

G_BEGIN_DECLS

/* LINE is 1-based.  Returns FALSE for a line with no value; else sets
 * *VALUE and *MAX (the largest value of the pane, for the shade). */
typedef gboolean (*TkvHeatFunc)(guint line, double *value, double *max, gpointer data);
/* The tooltip of LINE (caller frees), or NULL. */
typedef char *(*TkvHeatTipFunc)(guint line, gpointer data);

#define TKV_TYPE_HEAT_GUTTER (tkv_heat_gutter_get_type())
G_DECLARE_FINAL_TYPE(TkvHeatGutter, tkv_heat_gutter, TKV, HEAT_GUTTER,
                     GtkSourceGutterRenderer)

GtkSourceGutterRenderer *tkv_heat_gutter_new(void);

/* FUNC NULL: no column. */
void tkv_heat_gutter_set_func(TkvHeatGutter *self, TkvHeatFunc func, TkvHeatTipFunc tip,
                              gpointer data);

G_END_DECLS

#endif
