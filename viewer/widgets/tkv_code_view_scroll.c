/* tkv_code_view_scroll.c - scrolling a TkvCodeView to a line, a group of
 * matches or the top, and keeping it there while GTK lays out the lines
 * above (tick callbacks).  Apart from the widget: the only part that waits on
 * layout, frame after frame. */
#include "widgets/tkv_code_view_private.h"

#include <math.h>

void tkv_code_view_stop_scroll(TkvCodeView *self)
{
    if (self->top_tick)
        gtk_widget_remove_tick_callback(GTK_WIDGET(self), self->top_tick);
    self->top_tick = 0;
    self->top_line = 0;
    if (self->center_tick)
        gtk_widget_remove_tick_callback(GTK_WIDGET(self), self->center_tick);
    self->center_tick = 0;
}

/* ---- scrolling to a line or a group of lines ---------------------------------- */

/* GtkTextView (GTK 4.8) can keep a vertical offset its adjustment no
 * longer has: seen in a fresh Debian 12 under ASan, a 33-line source pane
 * shown from y 512 (its last line at the top) while its adjustment said 0
 * of 0 (the buffer fits the page).  Setting the adjustment to the value it
 * already has emits nothing, so no scroll could bring the view back.  The
 * view takes its adjustment's value again on "value-changed": emitted here
 * when the two disagree, before a scroll is worked out from either. */
static void sync_offset(TkvCodeView *self)
{
    GtkAdjustment *adj = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(self));
    if (!adj || !gtk_widget_get_mapped(GTK_WIDGET(self)))
        return;
    GdkRectangle vis;
    gtk_text_view_get_visible_rect(GTK_TEXT_VIEW(self), &vis);
    if (fabs(vis.y - gtk_adjustment_get_value(adj)) >= 1)
        g_signal_emit_by_name(adj, "value-changed");
}

/* Whether lines FIRST..LAST (1-based) are wholly in view; FALSE also while
 * the view cannot tell (not mapped, or the lines not measured yet). */
static gboolean lines_in_view(TkvCodeView *self, guint first, guint last)
{
    GtkTextView *tv = GTK_TEXT_VIEW(self);
    if (!gtk_widget_get_mapped(GTK_WIDGET(self)))
        return FALSE;
    GtkTextBuffer *b = buffer_of(self);
    GdkRectangle vis;
    GtkTextIter a, z;
    int ya, ha, yz, hz;
    gtk_text_view_get_visible_rect(tv, &vis);
    gtk_text_buffer_get_iter_at_line(b, &a, (int)first - 1);
    gtk_text_buffer_get_iter_at_line(b, &z, (int)last - 1);
    gtk_text_view_get_line_yrange(tv, &a, &ya, &ha);
    gtk_text_view_get_line_yrange(tv, &z, &yz, &hz);
    return vis.height > 0 && ha > 0 && hz > 0 && ya >= vis.y && yz + hz <= vis.y + vis.height;
}

/* Puts the middle of lines FIRST..LAST in the middle of the view (FIRST a
 * quarter down when they are taller than the view): at once when their
 * positions are known, and with a mark after the next layout in any case
 * (tkv_code_view_scroll_to_line() says why both). */
/* Where the adjustment puts the middle of lines FIRST..LAST in the middle
 * of the view (FIRST a quarter down when they are taller than it); FALSE
 * while the view cannot tell (not mapped, lines not measured). */
static gboolean center_value(TkvCodeView *self, guint first, guint last, double *value,
                             gboolean *tall)
{
    GtkTextView *tv = GTK_TEXT_VIEW(self);
    GtkTextBuffer *b = buffer_of(self);
    GtkAdjustment *adj = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(self));
    double page = adj ? gtk_adjustment_get_page_size(adj) : 0;
    GtkTextIter a, z;
    int ya, ha, yz, hz;
    gtk_text_buffer_get_iter_at_line(b, &a, (int)first - 1);
    gtk_text_buffer_get_iter_at_line(b, &z, (int)last - 1);
    gtk_text_view_get_line_yrange(tv, &a, &ya, &ha);
    gtk_text_view_get_line_yrange(tv, &z, &yz, &hz);
    if (!gtk_widget_get_mapped(GTK_WIDGET(self)) || page <= 0 || ha <= 0 || hz <= 0 ||
        yz + hz > gtk_adjustment_get_upper(adj))
        return FALSE;
    *tall = yz + hz - ya > page;
    double v = *tall ? ya - page / 4 : ya + (yz + hz - ya) / 2.0 - page / 2;
    double max = gtk_adjustment_get_upper(adj) - page;
    *value = CLAMP(v, 0, max > 0 ? max : 0);
    return TRUE;
}

static void group_of(TkvCodeView *self, int index, int dir, guint *first, guint *last);

/* A view just shown lays out its lines in idle time and estimates those not
 * measured yet, and its first layout may reset the scroll: as for the
 * opening scroll (top_tick), the middle is set again for a few frames until
 * the lines stay there. */
static gboolean center_tick(GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
    TkvCodeView *self = TKV_CODE_VIEW(widget);
    GtkAdjustment *adj = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(self));
    double v;
    gboolean tall;
    if (self->center_index >= 0 && self->center_index < (int)self->matches->len)
        group_of(self, self->center_index, self->center_dir, &self->center_first,
                 &self->center_last);
    /* stable only once the view can tell where the lines are (a slow
     * first layout, under a sanitizer, takes longer than a few frames) */
    if (adj && center_value(self, self->center_first, self->center_last, &v, &tall)) {
        if (fabs(gtk_adjustment_get_value(adj) - v) >= 1) {
            gtk_adjustment_set_value(adj, v);
            self->center_stable = 0;
        } else {
            self->center_stable++;
        }
    }
    if (++self->center_frames >= TOP_TICK_FRAMES || self->center_stable >= 3) {
        self->center_tick = 0;
        return G_SOURCE_REMOVE;
    }
    return G_SOURCE_CONTINUE;
}

/* Puts the middle of lines FIRST..LAST in the middle of the view (FIRST a
 * quarter down when they are taller than it): at once when their positions
 * are known, with a mark after the next layout otherwise, and again in the
 * next frames until they stay (center_tick). */
static void center_lines(TkvCodeView *self, guint first, guint last)
{
    tkv_code_view_stop_scroll(self);
    sync_offset(self);
    GtkTextBuffer *b = buffer_of(self);
    GtkAdjustment *adj = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(self));
    double v = 0;
    gboolean tall = FALSE;
    gboolean known = adj && center_value(self, first, last, &v, &tall);
    if (known)
        gtk_adjustment_set_value(adj, v);
    GtkTextIter target;
    gtk_text_buffer_get_iter_at_line(b, &target, tall ? (int)first - 1 : (int)((first + last) / 2) - 1);
    GtkTextMark *mark = gtk_text_buffer_get_mark(b, "tkv-scroll");
    if (!mark)
        mark = gtk_text_buffer_create_mark(b, "tkv-scroll", &target, TRUE);
    else
        gtk_text_buffer_move_mark(b, mark, &target);
    /* The scroll to a mark also replaces one still pending (the opening
     * scroll of a view just shown would otherwise come after this one):
     * when the positions were known, it only keeps the lines in view. */
    if (known)
        gtk_text_view_scroll_to_mark(GTK_TEXT_VIEW(self), mark, 0.0, FALSE, 0.0, 0.0);
    else
        gtk_text_view_scroll_to_mark(GTK_TEXT_VIEW(self), mark, 0.0, TRUE, 0.0, tall ? 0.25 : 0.5);
    self->center_first = first;
    self->center_last = last;
    self->center_index = -1;
    self->center_frames = self->center_stable = 0;
    self->center_tick = gtk_widget_add_tick_callback(GTK_WIDGET(self), center_tick, NULL, NULL);
}

/* Match INDEX and those after it (DIR 1) or before it (DIR -1) that fit in
 * half the view with it: a group of hits.  It is brought to the middle of
 * the view unless it is in view already (then only the current mark moved). */
static void group_of(TkvCodeView *self, int index, int dir, guint *first, guint *last)
{
    const guint32 *m = (const guint32 *)(void *)self->matches->data;
    int n = (int)self->matches->len;
    *first = *last = m[index];
    GtkAdjustment *adj = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(self));
    double half = adj ? gtk_adjustment_get_page_size(adj) / 2 : 0;
    /* lines of a code view are all one height (tkv_code_view_scroll_to_line):
     * the font's, before the view has measured any */
    int h = 0;
    PangoLayout *l = gtk_widget_create_pango_layout(GTK_WIDGET(self), "0");
    pango_layout_get_pixel_size(l, NULL, &h);
    g_object_unref(l);
    guint fit = h > 0 && half > 0 ? (guint)(half / h) : 1;
    for (int i = index + dir; i >= 0 && i < n; i += dir) {
        guint lo = MIN(*first, m[i]), hi = MAX(*last, m[i]);
        if (hi - lo + 1 > fit)
            break;
        *first = lo;
        *last = hi;
    }
}

void tkv_code_view_show_group(TkvCodeView *self, int index, int dir)
{
    if (index < 0 || index >= (int)self->matches->len)
        return;
    guint first, last, line = g_array_index(self->matches, guint32, index);
    group_of(self, index, dir, &first, &last);
    if (lines_in_view(self, line, line) && lines_in_view(self, first, last))
        return;
    center_lines(self, first, last);
    /* the view's height may not be known yet: the group is made again as
     * the lines are kept in the middle */
    self->center_index = index;
    self->center_dir = dir;
}

void tkv_code_view_center_line(TkvCodeView *self, guint line, guint index, guint end_index)
{
    center_lines(self, line, line);
    /* Sideways: the text from INDEX to END_INDEX into view, a third in
     * from the left when it was not (a hit far along a long line). */
    GtkAdjustment *hadj = gtk_scrollable_get_hadjustment(GTK_SCROLLABLE(self));
    if (!hadj || !gtk_widget_get_mapped(GTK_WIDGET(self)))
        return;
    GtkTextBuffer *b = buffer_of(self);
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_line_index(b, &s, (int)line - 1, (int)index);
    gtk_text_buffer_get_iter_at_line_index(b, &e, (int)line - 1, (int)end_index);
    GdkRectangle rs, re, vis;
    gtk_text_view_get_iter_location(GTK_TEXT_VIEW(self), &s, &rs);
    gtk_text_view_get_iter_location(GTK_TEXT_VIEW(self), &e, &re);
    gtk_text_view_get_visible_rect(GTK_TEXT_VIEW(self), &vis);
    if (vis.width <= 0 || (rs.x >= vis.x && re.x + re.width <= vis.x + vis.width))
        return;
    double page = gtk_adjustment_get_page_size(hadj);
    double max = gtk_adjustment_get_upper(hadj) - page;
    double v = rs.x < page * 2 / 3 ? 0 : rs.x - page / 3;
    gtk_adjustment_set_value(hadj, CLAMP(v, 0, max > 0 ? max : 0));
}

void tkv_code_view_scroll_to_line(TkvCodeView *self, guint line)
{
    tkv_code_view_stop_scroll(self); /* a line asked for: no longer the opening scroll */
    sync_offset(self);
    GtkTextView *tv = GTK_TEXT_VIEW(self);
    GtkTextBuffer *b = buffer_of(self);
    GtkTextIter it;
    gtk_text_buffer_get_iter_at_line(b, &it, (int)line - 1);
    GtkAdjustment *adj = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(self));
    if (gtk_widget_get_mapped(GTK_WIDGET(self)) && adj &&
        gtk_adjustment_get_page_size(adj) > 0) {
        GdkRectangle vis;
        int y, h;
        gtk_text_view_get_visible_rect(tv, &vis);
        gtk_text_view_get_line_yrange(tv, &it, &y, &h);
        if (vis.height > 0 && y >= vis.y && y + h <= vis.y + vis.height)
            return;
        /* Set the adjustment at once: a scroll to a mark waits for the
         * next layout and lays out the old place first.  Lines of a code
         * view all have the same height, so the line's position is known
         * before it is laid out, once the adjustment spans the buffer (not
         * yet in a view just shown: then the mark does it). */
        double upper = gtk_adjustment_get_upper(adj);
        /* A line GtkTextView has not measured yet (a buffer just swapped in
         * is measured in idle time, top down) has no height, and the lines
         * above it may have none either: then only the mark can tell. */
        if (h > 0 && y + h <= upper) {
            double max = upper - gtk_adjustment_get_page_size(adj);
            double v = y - gtk_adjustment_get_page_size(adj) / 4;
            gtk_adjustment_set_value(adj, CLAMP(v, 0, max > 0 ? max : 0));
        }
    }
    /* And a scroll to a mark, which GTK does after its next layout: it
     * costs nothing when the line is in view by then, and brings it there
     * when the view was not ready (a buffer just swapped in resets the
     * scroll position at its first layout). */
    GtkTextMark *mark = gtk_text_buffer_get_mark(b, "tkv-scroll");
    if (!mark)
        mark = gtk_text_buffer_create_mark(b, "tkv-scroll", &it, TRUE);
    else
        gtk_text_buffer_move_mark(b, mark, &it);
    gtk_text_view_scroll_to_mark(tv, mark, 0.0, TRUE, 0.0, 0.25);
}

/* Puts line SELF->top_line at the top with a mark: GTK scrolls after its
 * next layout. */
static void scroll_top_mark(TkvCodeView *self)
{
    GtkTextBuffer *b = buffer_of(self);
    GtkTextIter it;
    gtk_text_buffer_get_iter_at_line(b, &it, (int)self->top_line - 1);
    GtkTextMark *mark = gtk_text_buffer_get_mark(b, "tkv-scroll");
    if (!mark)
        mark = gtk_text_buffer_create_mark(b, "tkv-scroll", &it, TRUE);
    else
        gtk_text_buffer_move_mark(b, mark, &it);
    gtk_text_view_scroll_to_mark(GTK_TEXT_VIEW(self), mark, 0.0, TRUE, 0.0, 0.0);
}

/* Lines above the one wanted are laid out in idle time, and hidden ones
 * (folded location lines) count at their estimated height until then: a
 * first scroll lands too high.  So for a few frames the scroll is made
 * again until the line stays at the top. */

static gboolean top_tick(GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
    TkvCodeView *self = TKV_CODE_VIEW(widget);
    GdkRectangle vis;
    gtk_text_view_get_visible_rect(GTK_TEXT_VIEW(self), &vis);
    GtkTextIter it;
    int y, h;
    gtk_text_buffer_get_iter_at_line(buffer_of(self), &it, (int)self->top_line - 1);
    gtk_text_view_get_line_yrange(GTK_TEXT_VIEW(self), &it, &y, &h);
    /* done once the line has stayed at the top for a few frames (the user
     * may scroll from then on), or after TOP_TICK_FRAMES anyway */
    if (vis.height > 0 && y == vis.y)
        self->top_stable++;
    else
        self->top_stable = 0;
    if (++self->top_frames >= TOP_TICK_FRAMES || self->top_stable >= 3) {
        self->top_tick = 0;
        self->top_line = 0;
        return G_SOURCE_REMOVE;
    }
    if (vis.height > 0 && y != vis.y)
        scroll_top_mark(self);
    return G_SOURCE_CONTINUE;
}

void tkv_code_view_scroll_to_top(TkvCodeView *self, guint line)
{
    /* The cursor there too (no "line-selected": the program moves it), or
     * the first layout of a buffer just shown brings its first line back
     * into view. */
    tkv_code_view_place_cursor(self, line);
    tkv_code_view_stop_scroll(self);
    self->top_line = line;
    self->top_frames = self->top_stable = 0;
    scroll_top_mark(self);
    self->top_tick = gtk_widget_add_tick_callback(GTK_WIDGET(self), top_tick, NULL, NULL);
}

void tkv_code_view_goto_line(TkvCodeView *self, guint line)
{
    GtkTextBuffer *b = buffer_of(self);
    guint lc = (guint)gtk_text_buffer_get_line_count(b);
    if (line < 1)
        line = 1;
    if (line > lc)
        line = lc;
    GtkTextIter it;
    gtk_text_buffer_get_iter_at_line(b, &it, (int)line - 1);
    self->clicked = TRUE; /* a user's request even on the same line */
    gtk_text_buffer_place_cursor(b, &it);
    self->clicked = FALSE;
    tkv_code_view_scroll_to_line(self, line);
}
