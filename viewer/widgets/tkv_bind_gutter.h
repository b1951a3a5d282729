/* tkv_bind_gutter.h - the gutter column that marks bound and unbound lines.
 *
 * A bar beside each line: in the scheme's tkview:gutter-bound color for a
 * line that carries a location (IR) or has IR bound to it (source), in
 * tkview:gutter-unbound for a non-blank line that has none, nothing for a
 * blank line.  Optionally a count next to the bar (how many IR lines of the
 * shown stage a source line became).  The renderer asks its owner per visible
 * line through a callback, so it never holds per-line state itself.
 */
#ifndef TKV_BIND_GUTTER_H
#define TKV_BIND_GUTTER_H

#include <gtksourceview/gtksource.h>

G_BEGIN_DECLS

typedef enum {
    TKV_LINE_BLANK,
    TKV_LINE_UNBOUND,
    TKV_LINE_BOUND
} TkvLineState;

/* LINE is 1-based.  *COUNT (0: none shown) may be set for the count column. */
typedef TkvLineState (*TkvLineStateFunc)(guint line, guint *count, gpointer data);

#define TKV_TYPE_BIND_GUTTER (tkv_bind_gutter_get_type())
G_DECLARE_FINAL_TYPE(TkvBindGutter, tkv_bind_gutter, TKV, BIND_GUTTER,
                     GtkSourceGutterRenderer)

GtkSourceGutterRenderer *tkv_bind_gutter_new(void);

/* FUNC NULL: every line blank. */
void tkv_bind_gutter_set_func(TkvBindGutter *self, TkvLineStateFunc func, gpointer data);

/* Whether to leave room for and draw counts. */
void tkv_bind_gutter_set_show_counts(TkvBindGutter *self, gboolean show);

G_END_DECLS

#endif
