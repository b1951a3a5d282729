/* tkv_diag_gutter.h - the compiler-message column of a code view's gutter:
 * a dot on every line a compiler message is about, coloured by the worst
 * severity there (remark, warning, error: the style scheme's
 * tkview:diag-remark, -warning, -error), the messages as tooltip.
 *
 * Like the cost column (tkv_heat_gutter.h) it holds no per-line state: its
 * owner answers per visible line through a callback.  Without a callback
 * the column takes no room.  It is added to a view's gutter by
 * tkv_diag_gutter_attach(), once per view.
 */
#ifndef TKV_DIAG_GUTTER_H
#define TKV_DIAG_GUTTER_H

#include <gtksourceview/gtksource.h>

G_BEGIN_DECLS

/* LINE is 1-based.  Returns the worst severity (tk_diag_level: 0 remark,
 * 1 warning, 2 error) of the messages about LINE, or -1 for none. */
typedef int (*TkvDiagLevelFunc)(guint line, gpointer data);
/* The tooltip of LINE (caller frees), or NULL. */
typedef char *(*TkvDiagTipFunc)(guint line, gpointer data);

#define TKV_TYPE_DIAG_GUTTER (tkv_diag_gutter_get_type())
G_DECLARE_FINAL_TYPE(TkvDiagGutter, tkv_diag_gutter, TKV, DIAG_GUTTER,
                     GtkSourceGutterRenderer)

/* VIEW's column, added left of its other columns on the first call. */
TkvDiagGutter *tkv_diag_gutter_attach(GtkSourceView *view);

/* FUNC NULL: no column. */
void tkv_diag_gutter_set_func(TkvDiagGutter *self, TkvDiagLevelFunc func, TkvDiagTipFunc tip,
                              gpointer data);

G_END_DECLS

#endif
