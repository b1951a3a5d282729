/* tkv_linked_scroll.h - the two sides of a diff scrolled together, as in Meld.
 *
 * Scrolling either text view scrolls the other so that the line the hunks
 * pair with the one in the middle of the scrolled view is in the middle of
 * the other: one to one in an equal hunk, proportionally across a change.
 * The side the user last scrolled leads; the other follows it again whenever
 * a side's extent changes (GtkTextView measures lines in idle time, so a
 * line's position is a guess until then).  A move seen while GTK makes a
 * frame (a side's size allocation re-clamps or scrolls it) is followed once
 * the frame is painted, never inside the layout (tkv_linked_scroll.c says
 * why).  Beside it, the chunk map
 * (tkv_chunk_map.h) draws the same hunks and asks for places to scroll to.
 *
 * Sides are 0 (A, before) and 1 (B, after); rows are 1-based lines of the
 * views' buffers.
 */
#ifndef TKV_LINKED_SCROLL_H
#define TKV_LINKED_SCROLL_H

#include <gtk/gtk.h>

#include "tkdump/tk_diff.h"

G_BEGIN_DECLS

#define TKV_TYPE_LINKED_SCROLL (tkv_linked_scroll_get_type())
G_DECLARE_FINAL_TYPE(TkvLinkedScroll, tkv_linked_scroll, TKV, LINKED_SCROLL, GObject)

/* Links views A and B (the object keeps a reference to each). */
TkvLinkedScroll *tkv_linked_scroll_new(GtkTextView *a, GtkTextView *b);

/* Follows the views' vertical adjustments, which exist once the views are
 * in their scrolled windows: call it when they are mapped (again: nothing
 * happens unless an adjustment changed). */
void tkv_linked_scroll_attach(TkvLinkedScroll *self);

/* Scrolls the sides together along HUNKS (N of them, copied; N may be 0 for
 * two empty sides).  tkv_linked_scroll_unlink(): they scroll alone. */
void tkv_linked_scroll_link(TkvLinkedScroll *self, const tk_hunk *hunks, size_t n);
void tkv_linked_scroll_unlink(TkvLinkedScroll *self);

/* Puts ROW of SIDE a quarter down its view; the other side follows. */
void tkv_linked_scroll_to_row(TkvLinkedScroll *self, int side, guint row);
/* Puts the middle of rows FIRST..LAST of SIDE in the middle of its view (FIRST
 * a quarter down when they are taller than it); the other side follows. */
void tkv_linked_scroll_center_rows(TkvLinkedScroll *self, int side, guint first, guint last);
/* Puts FRACTION (0..1) of SIDE's height in the middle of its view (a click in
 * the chunk map); the other side follows. */
void tkv_linked_scroll_to_fraction(TkvLinkedScroll *self, int side, double fraction);

/* The row at the vertical middle of SIDE's view. */
guint tkv_linked_scroll_get_center_row(TkvLinkedScroll *self, int side);

G_END_DECLS

#endif
