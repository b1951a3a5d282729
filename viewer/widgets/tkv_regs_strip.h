/* tkv_regs_strip.h - a thin bar chart of register pressure along a SASS
 * pane: the live general registers at every line, in address order, one
 * column per pixel (its largest count), the peak marked, the selected line
 * as a cursor, a caption above.
 *
 * The widget draws numbers it is given (the owner reads them from
 * libtkdump: tk_cost.h's live_registers per SASS line and
 * tk_cost_register_peak()); it decides nothing but pixels.
 *
 * Signals: "line-activated" (guint line, 1-based) when a column is
 * clicked: the line of its largest count.
 */
#ifndef TKV_REGS_STRIP_H
#define TKV_REGS_STRIP_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TKV_TYPE_REGS_STRIP (tkv_regs_strip_get_type())
G_DECLARE_FINAL_TYPE(TkvRegsStrip, tkv_regs_strip, TKV, REGS_STRIP, GtkWidget)

GtkWidget *tkv_regs_strip_new(void);

/* COUNTS: N numbers, the count at line I + 1 (0 on a line that is no
 * instruction), copied.  PEAK is the largest, first at PEAK_LINE; PTXAS
 * the register count ptxas allocated (0 unknown: no line drawn).  CAPTION
 * is shown above the bars, TOOLTIP on the caption (both copied). */
void tkv_regs_strip_set_counts(TkvRegsStrip *self, const guint32 *counts, guint n, guint peak,
                               guint peak_line, guint ptxas, const char *caption,
                               const char *tooltip);
/* No counts: only WHY is shown (NULL: nothing). */
void tkv_regs_strip_clear(TkvRegsStrip *self, const char *why);

/* The line drawn as a cursor (0: none). */
void tkv_regs_strip_set_cursor(TkvRegsStrip *self, guint line);

/* For the tests: the cursor, the peak's line and value, the caption, the
 * number of columns last drawn (the bars' width in pixels), and the line a
 * click at column X activates (0: none). */
guint tkv_regs_strip_get_cursor(TkvRegsStrip *self);
guint tkv_regs_strip_get_peak_line(TkvRegsStrip *self);
guint tkv_regs_strip_get_peak(TkvRegsStrip *self);
const char *tkv_regs_strip_get_caption(TkvRegsStrip *self);
guint tkv_regs_strip_get_columns(TkvRegsStrip *self);
guint tkv_regs_strip_line_at(TkvRegsStrip *self, int x);
/* The count at LINE (0 out of range). */
guint tkv_regs_strip_get_count(TkvRegsStrip *self, guint line);

G_END_DECLS

#endif
