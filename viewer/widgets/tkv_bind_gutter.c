/* tkv_bind_gutter.c - bound/unbound marks in the gutter. */
#include "widgets/tkv_bind_gutter.h"

#include "widgets/tkv_style.h"

#define BAR_WIDTH 4

struct _TkvBindGutter {
    GtkSourceGutterRenderer parent_instance;
    TkvLineStateFunc func;
    gpointer data;
    gboolean show_counts;
    GdkRGBA bound, unbound, count_fg;
    PangoLayout *layout;
    int digit_width;
    /* count -> Count: each count laid out once (a source pane shows the same
     * few counts in every frame). */
    GHashTable *counts;
};

typedef struct {
    GskRenderNode *node; /* the count at (0, 0) */
    int width, height;
} Count;

static void count_free(gpointer p)
{
    Count *c = p;
    gsk_render_node_unref(c->node);
    g_free(c);
}

static const Count *count_of(TkvBindGutter *self, guint count)
{
    Count *c = g_hash_table_lookup(self->counts, GUINT_TO_POINTER(count));
    if (c)
        return c;
    char buf[16];
    g_snprintf(buf, sizeof buf, count > 999 ? "999+" : "%u", count);
    pango_layout_set_text(self->layout, buf, -1);
    c = g_new(Count, 1);
    pango_layout_get_pixel_size(self->layout, &c->width, &c->height);
    GtkSnapshot *s = gtk_snapshot_new();
    gtk_snapshot_append_layout(s, self->layout, &self->count_fg);
    c->node = gtk_snapshot_free_to_node(s);
    if (!c->node) {
        g_free(c);
        return NULL;
    }
    if (g_hash_table_size(self->counts) >= 1024)
        g_hash_table_remove_all(self->counts);
    g_hash_table_insert(self->counts, GUINT_TO_POINTER(count), c);
    return c;
}

G_DEFINE_FINAL_TYPE(TkvBindGutter, tkv_bind_gutter, GTK_SOURCE_TYPE_GUTTER_RENDERER)

static void load_colors(TkvBindGutter *self)
{
    TkvStyle *style = tkv_style_get_default();
    self->bound = tkv_style_color(style, "tkview:gutter-bound", TRUE, "#3584e4");
    self->unbound = tkv_style_color(style, "tkview:gutter-unbound", TRUE, "#c0c0c0");
    self->count_fg = tkv_style_color(style, "line-numbers", TRUE, "#8c959f");
    g_hash_table_remove_all(self->counts);
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

static void tkv_bind_gutter_snapshot_line(GtkSourceGutterRenderer *renderer,
                                          GtkSnapshot *snapshot,
                                          GtkSourceGutterLines *lines, guint line)
{
    TkvBindGutter *self = TKV_BIND_GUTTER(renderer);
    if (!self->func)
        return;
    guint count = 0;
    TkvLineState st = self->func(line + 1, &count, self->data);
    if (st == TKV_LINE_BLANK)
        return;
    int y, h;
    gtk_source_gutter_lines_get_line_yrange(lines, line,
                                            GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_CELL,
                                            &y, &h);
    int width = gtk_widget_get_width(GTK_WIDGET(self));
    float bar_x = (float)(width - BAR_WIDTH - 2);
    if (st == TKV_LINE_BOUND)
        gtk_snapshot_append_color(snapshot, &self->bound,
                                  &GRAPHENE_RECT_INIT(bar_x, (float)y, BAR_WIDTH, (float)h));
    else
        gtk_snapshot_append_color(snapshot, &self->unbound,
                                  &GRAPHENE_RECT_INIT(bar_x + 1, (float)y + 1, BAR_WIDTH - 2,
                                                      (float)(h > 2 ? h - 2 : h)));
    const Count *c;
    /* no count for a hidden (folded location) line: it has no row */
    if (self->show_counts && count && h > 1 && (c = count_of(self, count))) {
        /* on the line's first row (tkv_heat_gutter.c) */
        gtk_source_gutter_lines_get_line_yrange(lines, line,
                                                GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_FIRST,
                                                &y, &h);
        gtk_snapshot_save(snapshot);
        gtk_snapshot_translate(snapshot,
                               &GRAPHENE_POINT_INIT(bar_x - 3 - (float)c->width,
                                                    (float)y + (float)(h - c->height) / 2));
        gtk_snapshot_append_node(snapshot, c->node);
        gtk_snapshot_restore(snapshot);
    }
}

static void tkv_bind_gutter_measure(GtkWidget *widget, GtkOrientation orientation,
                                    int for_size, int *minimum, int *natural,
                                    int *min_baseline, int *nat_baseline)
{
    TkvBindGutter *self = TKV_BIND_GUTTER(widget);
    if (orientation == GTK_ORIENTATION_HORIZONTAL) {
        int w = BAR_WIDTH + 4;
        if (self->show_counts)
            w += 3 + 4 * self->digit_width;
        *minimum = *natural = w;
    } else {
        *minimum = *natural = 0;
    }
    *min_baseline = *nat_baseline = -1;
}

static void update_font(TkvBindGutter *self)
{
    g_clear_object(&self->layout);
    self->layout = gtk_widget_create_pango_layout(GTK_WIDGET(self), "0");
    PangoAttrList *attrs = pango_attr_list_new();
    pango_attr_list_insert(attrs, pango_attr_scale_new(0.8));
    pango_layout_set_attributes(self->layout, attrs);
    pango_attr_list_unref(attrs);
    int h;
    pango_layout_get_pixel_size(self->layout, &self->digit_width, &h);
    g_hash_table_remove_all(self->counts);
    gtk_widget_queue_resize(GTK_WIDGET(self));
}

static void tkv_bind_gutter_css_changed(GtkWidget *widget, GtkCssStyleChange *change)
{
    GTK_WIDGET_CLASS(tkv_bind_gutter_parent_class)->css_changed(widget, change);
    update_font(TKV_BIND_GUTTER(widget));
}

static void tkv_bind_gutter_dispose(GObject *object)
{
    TkvBindGutter *self = TKV_BIND_GUTTER(object);
    g_clear_object(&self->layout);
    g_signal_handlers_disconnect_by_data(tkv_style_get_default(), self);
    G_OBJECT_CLASS(tkv_bind_gutter_parent_class)->dispose(object);
}

static void tkv_bind_gutter_finalize(GObject *object)
{
    g_hash_table_unref(TKV_BIND_GUTTER(object)->counts);
    G_OBJECT_CLASS(tkv_bind_gutter_parent_class)->finalize(object);
}

static void tkv_bind_gutter_class_init(TkvBindGutterClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = tkv_bind_gutter_dispose;
    G_OBJECT_CLASS(klass)->finalize = tkv_bind_gutter_finalize;
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    wc->measure = tkv_bind_gutter_measure;
    wc->css_changed = tkv_bind_gutter_css_changed;
    GTK_SOURCE_GUTTER_RENDERER_CLASS(klass)->snapshot_line = tkv_bind_gutter_snapshot_line;
}

static void tkv_bind_gutter_init(TkvBindGutter *self)
{
    /* GtkSourceView measures a wrapped line's first row only for a gutter
     * with a renderer that asks for it: the text goes there (tkv_gutter_line.h) */
    gtk_source_gutter_renderer_set_alignment_mode(GTK_SOURCE_GUTTER_RENDERER(self),
                                                  GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_FIRST);
    self->counts = g_hash_table_new_full(NULL, NULL, NULL, count_free);
    gtk_widget_set_tooltip_text(GTK_WIDGET(self),
                                "Bar: the line has a source location (IR) or IR bound to "
                                "it (source). Thin grey bar: it has none.");
    update_font(self);
    load_colors(self);
    g_signal_connect_swapped(tkv_style_get_default(), "changed", G_CALLBACK(load_colors), self);
}

GtkSourceGutterRenderer *tkv_bind_gutter_new(void)
{
    return g_object_new(TKV_TYPE_BIND_GUTTER, NULL);
}

void tkv_bind_gutter_set_func(TkvBindGutter *self, TkvLineStateFunc func, gpointer data)
{
    self->func = func;
    self->data = data;
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

void tkv_bind_gutter_set_show_counts(TkvBindGutter *self, gboolean show)
{
    self->show_counts = show;
    gtk_widget_queue_resize(GTK_WIDGET(self));
}
