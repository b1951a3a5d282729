/* tkv_chunk_map.c - the diff overview strip. */
#include "widgets/tkv_chunk_map.h"

#include "widgets/tkv_style.h"

struct _TkvChunkMap {
    GtkWidget parent_instance;
    tk_hunk *hunks;
    size_t n;
    guint32 na, nb;
    guint changes;
    GtkAdjustment *adj;
};

G_DEFINE_FINAL_TYPE(TkvChunkMap, tkv_chunk_map, GTK_TYPE_WIDGET)

enum { SIG_SCROLL_TO, N_SIGS };
static guint sigs[N_SIGS];

static void band(GtkSnapshot *s, const GdkRGBA *c, float x, float w, float h, guint32 from,
                 guint32 to, guint32 total)
{
    if (!total)
        return;
    float y0 = h * (float)from / (float)total, y1 = h * (float)to / (float)total;
    if (y1 - y0 < 2) /* an insertion point, or a change too small to see */
        y1 = y0 + 2;
    gtk_snapshot_append_color(s, c, &GRAPHENE_RECT_INIT(x, y0, w, y1 - y0));
}

static void tkv_chunk_map_snapshot(GtkWidget *widget, GtkSnapshot *s)
{
    TkvChunkMap *self = TKV_CHUNK_MAP(widget);
    float w = (float)gtk_widget_get_width(widget), h = (float)gtk_widget_get_height(widget);
    TkvStyle *style = tkv_style_get_default();
    GdkRGBA del = tkv_style_color(style, "tkview:diff-delete", TRUE, "#cf222e");
    GdkRGBA ins = tkv_style_color(style, "tkview:diff-insert", TRUE, "#1a7f37");
    GdkRGBA rep = tkv_style_color(style, "tkview:diff-replace", TRUE, "#3584e4");
    float half = (w - 3) / 2;
    for (size_t i = 0; i < self->n; i++) {
        const tk_hunk *k = &self->hunks[i];
        if (k->tag == TK_HUNK_EQUAL)
            continue;
        const GdkRGBA *ca = k->tag == TK_HUNK_REPLACE ? &rep : &del;
        const GdkRGBA *cb = k->tag == TK_HUNK_REPLACE ? &rep : &ins;
        /* An insertion shows as a thin mark where it goes on the A side,
         * a deletion on the B side. */
        band(s, k->tag == TK_HUNK_INSERT ? &ins : ca, 1, half, h, k->a0, k->a1, self->na);
        band(s, k->tag == TK_HUNK_DELETE ? &del : cb, half + 2, half, h, k->b0, k->b1, self->nb);
    }
    if (self->adj) {
        double upper = gtk_adjustment_get_upper(self->adj);
        if (upper > 0) {
            float y0 = h * (float)(gtk_adjustment_get_value(self->adj) / upper);
            float y1 = h * (float)((gtk_adjustment_get_value(self->adj) +
                                    gtk_adjustment_get_page_size(self->adj)) / upper);
            GdkRGBA fill = {0.5f, 0.5f, 0.5f, 0.18f}, line = {0.4f, 0.4f, 0.4f, 0.8f};
            gtk_snapshot_append_color(s, &fill, &GRAPHENE_RECT_INIT(0, y0, w, y1 - y0));
            gtk_snapshot_append_color(s, &line, &GRAPHENE_RECT_INIT(0, y0, w, 1));
            gtk_snapshot_append_color(s, &line, &GRAPHENE_RECT_INIT(0, y1 - 1, w, 1));
        }
    }
}

static void tkv_chunk_map_measure(GtkWidget *widget, GtkOrientation o, int for_size, int *min,
                                  int *nat, int *min_b, int *nat_b)
{
    *min = *nat = o == GTK_ORIENTATION_HORIZONTAL ? 18 : 40;
    *min_b = *nat_b = -1;
}

static void emit_at(TkvChunkMap *self, double y)
{
    double h = gtk_widget_get_height(GTK_WIDGET(self));
    if (h > 0)
        g_signal_emit(self, sigs[SIG_SCROLL_TO], 0, CLAMP(y / h, 0.0, 1.0));
}

static void on_pressed(GtkGestureClick *g, int n, double x, double y, TkvChunkMap *self)
{
    emit_at(self, y);
}

static void on_drag(GtkGestureDrag *g, double dx, double dy, TkvChunkMap *self)
{
    double sx, sy;
    gtk_gesture_drag_get_start_point(g, &sx, &sy);
    emit_at(self, sy + dy);
}

static void tkv_chunk_map_dispose(GObject *object)
{
    TkvChunkMap *self = TKV_CHUNK_MAP(object);
    tkv_chunk_map_set_adjustment(self, NULL);
    g_signal_handlers_disconnect_by_data(tkv_style_get_default(), self);
    G_OBJECT_CLASS(tkv_chunk_map_parent_class)->dispose(object);
}

static void tkv_chunk_map_finalize(GObject *object)
{
    g_free(TKV_CHUNK_MAP(object)->hunks);
    G_OBJECT_CLASS(tkv_chunk_map_parent_class)->finalize(object);
}

static void tkv_chunk_map_class_init(TkvChunkMapClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = tkv_chunk_map_dispose;
    G_OBJECT_CLASS(klass)->finalize = tkv_chunk_map_finalize;
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    wc->snapshot = tkv_chunk_map_snapshot;
    wc->measure = tkv_chunk_map_measure;
    gtk_widget_class_set_css_name(wc, "tkvchunkmap");
    sigs[SIG_SCROLL_TO] = g_signal_new("scroll-to", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_DOUBLE);
}

static void tkv_chunk_map_init(TkvChunkMap *self)
{
    gtk_widget_add_css_class(GTK_WIDGET(self), "tkv-chunk-map");
    gtk_widget_set_tooltip_text(GTK_WIDGET(self),
                                "Every change of this diff: removed (left half), added (right "
                                "half), replaced (both). Click to go there.");
    GtkGesture *click = gtk_gesture_click_new();
    g_signal_connect(click, "pressed", G_CALLBACK(on_pressed), self);
    gtk_widget_add_controller(GTK_WIDGET(self), GTK_EVENT_CONTROLLER(click));
    GtkGesture *drag = gtk_gesture_drag_new();
    g_signal_connect(drag, "drag-update", G_CALLBACK(on_drag), self);
    gtk_widget_add_controller(GTK_WIDGET(self), GTK_EVENT_CONTROLLER(drag));
    g_signal_connect_swapped(tkv_style_get_default(), "changed", G_CALLBACK(gtk_widget_queue_draw),
                             self);
}

GtkWidget *tkv_chunk_map_new(void)
{
    return g_object_new(TKV_TYPE_CHUNK_MAP, NULL);
}

void tkv_chunk_map_set_hunks(TkvChunkMap *self, const tk_hunk *hunks, size_t n, guint32 na,
                             guint32 nb)
{
    g_free(self->hunks);
    self->hunks = n ? g_memdup2(hunks, n * sizeof *hunks) : NULL;
    self->n = n;
    self->na = na;
    self->nb = nb;
    self->changes = 0;
    for (size_t i = 0; i < n; i++)
        self->changes += hunks[i].tag != TK_HUNK_EQUAL;
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

void tkv_chunk_map_set_adjustment(TkvChunkMap *self, GtkAdjustment *adj)
{
    if (self->adj) {
        g_signal_handlers_disconnect_by_data(self->adj, self);
        g_clear_object(&self->adj);
    }
    if (adj) {
        self->adj = g_object_ref(adj);
        g_signal_connect_swapped(adj, "value-changed", G_CALLBACK(gtk_widget_queue_draw), self);
        g_signal_connect_swapped(adj, "changed", G_CALLBACK(gtk_widget_queue_draw), self);
    }
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

guint tkv_chunk_map_get_change_count(TkvChunkMap *self) { return self->changes; }
