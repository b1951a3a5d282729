/* tkv_linked_scroll.c - the two sides of a diff scrolled together. */
#include "widgets/tkv_linked_scroll.h"

struct _TkvLinkedScroll {
    GObject parent_instance;

    GtkTextView *view[2];
    GtkAdjustment *adj[2]; /* followed, once attached */
    /* The last value seen of each adjustment: only a real move drags the
     * other side along (on_scroll says why). */
    double last[2];
    gboolean has_last[2];

    gboolean linked;
    GArray *hunks; /* tk_hunk */
    int lead;      /* the side last scrolled: the other follows */
    gboolean syncing;
    /* A move of a side seen by its adjustment's signals is followed in the
     * frame clock's after-paint when it came during a frame (request_sync
     * says why). */
    GdkFrameClock *clock;
    gulong before_id, after_id;
    gboolean in_frame;
    gboolean pending;
};

G_DEFINE_FINAL_TYPE(TkvLinkedScroll, tkv_linked_scroll, G_TYPE_OBJECT)

static GtkAdjustment *adjustment(TkvLinkedScroll *self, int side)
{
    return gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(self->view[side]));
}

/* The row (1-based) of side 1 - FROM paired with ROW of side FROM: one to
 * one in an equal hunk, proportionally across a change. */
static guint map_row(TkvLinkedScroll *self, int from, guint row)
{
    size_t n = self->hunks->len;
    const tk_hunk *h = (const tk_hunk *)(void *)self->hunks->data;
    if (!n)
        return row;
    guint32 k = row ? row - 1 : 0;
    for (size_t i = 0; i < n; i++) {
        guint32 f0 = from ? h[i].b0 : h[i].a0, f1 = from ? h[i].b1 : h[i].a1;
        guint32 t0 = from ? h[i].a0 : h[i].b0, t1 = from ? h[i].a1 : h[i].b1;
        if (k < f1 || i + 1 == n) {
            if (k < f0)
                k = f0;
            if (f1 == f0)
                return t0 + 1;
            if (h[i].tag == TK_HUNK_EQUAL)
                return t0 + (k - f0) + 1;
            guint64 off = (guint64)(k - f0) * (t1 - t0) / (f1 - f0);
            guint32 r = t0 + (guint32)off;
            if (t1 > t0 && r >= t1)
                r = t1 - 1;
            return r + 1;
        }
    }
    return row;
}

/* The row at the vertical middle of a side, and how far below its top the
 * middle is. */
static guint center_row(TkvLinkedScroll *self, int side, int *offset)
{
    GtkTextView *tv = self->view[side];
    GtkAdjustment *adj = adjustment(self, side);
    if (!adj)
        return 1;
    int y = (int)(gtk_adjustment_get_value(adj) + gtk_adjustment_get_page_size(adj) / 2);
    GtkTextIter it;
    int top;
    gtk_text_view_get_line_at_y(tv, &it, y, &top);
    if (offset)
        *offset = y - top;
    return (guint)gtk_text_iter_get_line(&it) + 1;
}

guint tkv_linked_scroll_get_center_row(TkvLinkedScroll *self, int side)
{
    return center_row(self, side, NULL);
}

static void set_clamped(GtkAdjustment *adj, double v)
{
    double max = gtk_adjustment_get_upper(adj) - gtk_adjustment_get_page_size(adj);
    gtk_adjustment_set_value(adj, CLAMP(v, 0, max > 0 ? max : 0));
}

static void sync_from(TkvLinkedScroll *self, int from)
{
    if (self->syncing || !self->linked)
        return;
    GtkAdjustment *to_adj = adjustment(self, !from);
    if (!to_adj)
        return;
    self->syncing = TRUE;
    int offset = 0;
    guint row = center_row(self, from, &offset);
    guint other = map_row(self, from, row);
    GtkTextView *tv = self->view[!from];
    GtkTextIter it;
    gtk_text_buffer_get_iter_at_line(gtk_text_view_get_buffer(tv), &it, (int)other - 1);
    int y, h;
    gtk_text_view_get_line_yrange(tv, &it, &y, &h);
    set_clamped(to_adj, y + offset - gtk_adjustment_get_page_size(to_adj) / 2);
    if (self->has_last[!from])
        self->last[!from] = gtk_adjustment_get_value(to_adj);
    self->syncing = FALSE;
}

/* The adjustments' signals come during the window's layout too: a text
 * view's size allocation sets its extent ("changed"), re-clamps its value
 * and makes a pending scroll to a mark ("value-changed").  Moving the other
 * side then, inside the allocation of the box that holds both, made GTK
 * forget that the other side's scrollbar needed a new allocation (the box
 * clears its children's flag when it is done), and the frame snapshotted
 * that scrollbar's trough without one: "Trying to snapshot GtkGizmo without
 * a current allocation".  Moving it after the window's layout, in the same
 * layout phase, does not help: GTK 4.8 paints without laying out again.
 * So a move seen while a frame is being made (from its "before-paint" to
 * its "after-paint") is followed after it, and the follower moves in the
 * next frame; a move seen outside a frame (a scroll by the user, a program's
 * request) is followed at once. */
static void on_before_paint(GdkFrameClock *clock, TkvLinkedScroll *self)
{
    self->in_frame = TRUE;
}

static void on_after_paint(GdkFrameClock *clock, TkvLinkedScroll *self)
{
    self->in_frame = FALSE;
    if (!self->pending)
        return;
    self->pending = FALSE;
    sync_from(self, self->lead);
}

static void request_sync(TkvLinkedScroll *self)
{
    if (!self->clock || !self->in_frame) {
        sync_from(self, self->lead);
        return;
    }
    self->pending = TRUE;
}

/* Only a real move of a side drags the other along: GtkAdjustment also
 * reports "value-changed" when a relayout re-clamps an unchanged value, and
 * a side too short to scroll would then pull the other back to its middle.
 * The follower's own move (sync_from) leads nothing. */
static void on_scroll(TkvLinkedScroll *self, int side)
{
    double v = gtk_adjustment_get_value(self->adj[side]);
    if (self->has_last[side] && self->last[side] == v)
        return;
    self->has_last[side] = TRUE;
    self->last[side] = v;
    if (self->syncing)
        return;
    self->lead = side;
    request_sync(self);
}

static void on_scroll_a(GtkAdjustment *adj, TkvLinkedScroll *self) { on_scroll(self, 0); }
static void on_scroll_b(GtkAdjustment *adj, TkvLinkedScroll *self) { on_scroll(self, 1); }

/* Each time a side's extent changes, the follower is placed again from the
 * lead: until GtkTextView has measured a buffer's lines in idle time, their
 * positions are guesses. */
static void on_extent(GtkAdjustment *adj, TkvLinkedScroll *self)
{
    if (!self->syncing)
        request_sync(self);
}

static void drop_clock(TkvLinkedScroll *self)
{
    if (self->clock) {
        /* a clock disposed with its window has dropped them already */
        if (g_signal_handler_is_connected(self->clock, self->before_id))
            g_signal_handler_disconnect(self->clock, self->before_id);
        if (g_signal_handler_is_connected(self->clock, self->after_id))
            g_signal_handler_disconnect(self->clock, self->after_id);
        g_clear_object(&self->clock);
        self->before_id = self->after_id = 0;
    }
    self->pending = self->in_frame = FALSE;
}

/* The frame clock is the sides' window's: followed from when side A is
 * realized (the pass view's stack may show its spinner page at first, and
 * the sides are realized only when the diff is). */
static void on_realize(GtkWidget *view, TkvLinkedScroll *self)
{
    GdkFrameClock *clock = gtk_widget_get_frame_clock(view);
    if (clock == self->clock)
        return;
    drop_clock(self);
    if (!clock)
        return;
    self->clock = g_object_ref(clock);
    self->before_id = g_signal_connect(clock, "before-paint", G_CALLBACK(on_before_paint), self);
    self->after_id = g_signal_connect(clock, "after-paint", G_CALLBACK(on_after_paint), self);
}

static void on_unrealize(GtkWidget *view, TkvLinkedScroll *self) { drop_clock(self); }

void tkv_linked_scroll_attach(TkvLinkedScroll *self)
{
    for (int s = 0; s < 2; s++) {
        GtkAdjustment *adj = adjustment(self, s);
        if (!adj || adj == self->adj[s])
            continue;
        if (self->adj[s])
            g_signal_handlers_disconnect_by_data(self->adj[s], self);
        g_set_object(&self->adj[s], adj);
        self->has_last[s] = FALSE;
        g_signal_connect(adj, "value-changed", G_CALLBACK(s ? on_scroll_b : on_scroll_a), self);
        g_signal_connect(adj, "changed", G_CALLBACK(on_extent), self);
    }
}

void tkv_linked_scroll_link(TkvLinkedScroll *self, const tk_hunk *hunks, size_t n)
{
    g_array_set_size(self->hunks, 0);
    if (n)
        g_array_append_vals(self->hunks, hunks, (guint)n);
    self->linked = TRUE;
}

void tkv_linked_scroll_unlink(TkvLinkedScroll *self)
{
    g_array_set_size(self->hunks, 0);
    self->linked = FALSE;
}

void tkv_linked_scroll_to_row(TkvLinkedScroll *self, int side, guint row)
{
    GtkTextView *tv = self->view[side];
    GtkAdjustment *adj = adjustment(self, side);
    if (!adj)
        return;
    GtkTextIter it;
    gtk_text_buffer_get_iter_at_line(gtk_text_view_get_buffer(tv), &it, row ? (int)row - 1 : 0);
    int y, h;
    gtk_text_view_get_line_yrange(tv, &it, &y, &h);
    set_clamped(adj, y - gtk_adjustment_get_page_size(adj) / 4);
    self->lead = side;
    sync_from(self, side);
}

void tkv_linked_scroll_center_rows(TkvLinkedScroll *self, int side, guint first, guint last)
{
    GtkTextView *tv = self->view[side];
    GtkAdjustment *adj = adjustment(self, side);
    if (!adj)
        return;
    GtkTextBuffer *b = gtk_text_view_get_buffer(tv);
    GtkTextIter a, z;
    gtk_text_buffer_get_iter_at_line(b, &a, first ? (int)first - 1 : 0);
    gtk_text_buffer_get_iter_at_line(b, &z, last ? (int)last - 1 : 0);
    int ya, ha, yz, hz;
    gtk_text_view_get_line_yrange(tv, &a, &ya, &ha);
    gtk_text_view_get_line_yrange(tv, &z, &yz, &hz);
    double page = gtk_adjustment_get_page_size(adj), span = yz + hz - ya;
    set_clamped(adj, span <= page ? ya + span / 2 - page / 2 : ya - page / 4);
    self->lead = side;
    sync_from(self, side);
}

void tkv_linked_scroll_to_fraction(TkvLinkedScroll *self, int side, double fraction)
{
    GtkAdjustment *adj = adjustment(self, side);
    if (adj)
        set_clamped(adj, fraction * gtk_adjustment_get_upper(adj) -
                             gtk_adjustment_get_page_size(adj) / 2);
}

static void tkv_linked_scroll_dispose(GObject *object)
{
    TkvLinkedScroll *self = TKV_LINKED_SCROLL(object);
    drop_clock(self);
    if (self->view[0])
        g_signal_handlers_disconnect_by_data(self->view[0], self);
    for (int s = 0; s < 2; s++) {
        if (self->adj[s])
            g_signal_handlers_disconnect_by_data(self->adj[s], self);
        g_clear_object(&self->adj[s]);
        g_clear_object(&self->view[s]);
    }
    G_OBJECT_CLASS(tkv_linked_scroll_parent_class)->dispose(object);
}

static void tkv_linked_scroll_finalize(GObject *object)
{
    g_array_unref(TKV_LINKED_SCROLL(object)->hunks);
    G_OBJECT_CLASS(tkv_linked_scroll_parent_class)->finalize(object);
}

static void tkv_linked_scroll_class_init(TkvLinkedScrollClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = tkv_linked_scroll_dispose;
    G_OBJECT_CLASS(klass)->finalize = tkv_linked_scroll_finalize;
}

static void tkv_linked_scroll_init(TkvLinkedScroll *self)
{
    self->hunks = g_array_new(FALSE, FALSE, sizeof(tk_hunk));
}

TkvLinkedScroll *tkv_linked_scroll_new(GtkTextView *a, GtkTextView *b)
{
    TkvLinkedScroll *self = g_object_new(TKV_TYPE_LINKED_SCROLL, NULL);
    self->view[0] = g_object_ref(a);
    self->view[1] = g_object_ref(b);
    g_signal_connect(a, "realize", G_CALLBACK(on_realize), self);
    g_signal_connect(a, "unrealize", G_CALLBACK(on_unrealize), self);
    if (gtk_widget_get_realized(GTK_WIDGET(a)))
        on_realize(GTK_WIDGET(a), self);
    return self;
}
