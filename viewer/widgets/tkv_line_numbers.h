/* tkv_line_numbers.h - the line-number column of a code view.
 *
 * What GtkSourceView's own line numbers show (right-aligned, the cursor's
 * line in the scheme's current-line-number style, "line-numbers" color;
 * click: cursor to the line, Ctrl+click or double click: select it,
 * Shift+click: extend the selection), drawn from a cache: each number is laid
 * out once and kept as a render node.  GtkSourceView's renderer lays out
 * every number on screen again in every frame of its view (2-3 ms of a
 * selection's frame with three panes; 5 ms of a stage switch).
 *
 * The column is as wide as the buffer's line count needs, four digits at
 * least, so that switching between stages of fewer than 10 000 lines does
 * not resize it (and the window).
 */
#ifndef TKV_LINE_NUMBERS_H
#define TKV_LINE_NUMBERS_H

#include <gtksourceview/gtksource.h>

G_BEGIN_DECLS

#define TKV_TYPE_LINE_NUMBERS (tkv_line_numbers_get_type())
G_DECLARE_FINAL_TYPE(TkvLineNumbers, tkv_line_numbers, TKV, LINE_NUMBERS,
                     GtkSourceGutterRenderer)

GtkSourceGutterRenderer *tkv_line_numbers_new(void);

G_END_DECLS

#endif
