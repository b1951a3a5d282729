/* tkv_heat_gutter.c - the cost column: a shaded cell and a short number per
 * line. */
#include "widgets/tkv_heat_gutter.h"
#include "widgets/tkv_gutter_line.h"

#include "document/tkv_cost_text.h"
#include "widgets/tkv_style.h"

#define CHARS 5 /* "10.9k" */
#define CACHE_MAX 1024 /* numbers kept; then the cache starts over */

/* A number as drawn: its text node at (0, 0) and its size in pixels. */
typedef struct {
    GskRenderNode *node;
    int width, height;
} Drawn;

struct _TkvHeatGutter {
    GtkSourceGutterRenderer parent_instance;
    TkvHeatFunc func;
    TkvHeatTipFunc tip;
    gpointer data;
    GdkRGBA hot, fg;
    PangoLayout *layout;
    int char_width;
    /* "3.25" -> Drawn: the numbers of a pane repeat, and each line in view
     * was laid out again at every frame (a pane's lines, shaped, were a
     * twentieth of a line selection's main-thread CPU); emptied when the
     * font or the colors change */
    GHashTable *drawn;
};

G_DEFINE_FINAL_TYPE(TkvHeatGutter, tkv_heat_gutter, GTK_SOURCE_TYPE_GUTTER_RENDERER)

static void drawn_free(gpointer p)
{
    Drawn *d = p;
    gsk_render_node_unref(d->node);
    g_free(d);
}

/* TEXT as the column draws it, laid out once. */
static const Drawn *drawn_number(TkvHeatGutter *self, const char *text)
{
    Drawn *d = g_hash_table_lookup(self->drawn, text);
    if (d)
        return d;
    if (g_hash_table_size(self->drawn) >= CACHE_MAX)
        g_hash_table_remove_all(self->drawn);
    d = g_new0(Drawn, 1);
    pango_layout_set_text(self->layout, text, -1);
    pango_layout_get_pixel_size(self->layout, &d->width, &d->height);
    GtkSnapshot *s = gtk_snapshot_new();
    gtk_snapshot_append_layout(s, self->layout, &self->fg);
    d->node = gtk_snapshot_free_to_node(s);
    g_hash_table_insert(self->drawn, g_strdup(text), d);
    return d;
}

static void load_colors(TkvHeatGutter *self)
{
    TkvStyle *style = tkv_style_get_default();
    self->hot = tkv_style_color(style, "tkview:heat", FALSE, "#e06028");
    self->fg = tkv_style_color(style, "line-numbers", TRUE, "#57606a");
    if (self->drawn)
        g_hash_table_remove_all(self->drawn);
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

static void tkv_heat_gutter_snapshot_line(GtkSourceGutterRenderer *renderer,
                                          GtkSnapshot *snapshot,
                                          GtkSourceGutterLines *lines, guint line)
{
    TkvHeatGutter *self = TKV_HEAT_GUTTER(renderer);
    double v, max;
    if (!self->func || !self->func(line + 1, &v, &max, self->data) || v == 0)
        return;
    int y, h;
    gtk_source_gutter_lines_get_line_yrange(lines, line,
                                            GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_CELL,
                                            &y, &h);
    if (h <= 1) /* a hidden (folded location) line: nothing to draw over the next */
        return;
    int width = gtk_widget_get_width(GTK_WIDGET(self));
    GdkRGBA c = self->hot;
    double frac = max > 0 ? v / max : 0;
    c.alpha = (float)(0.1 + 0.55 * (frac < 0 ? 0 : frac > 1 ? 1 : frac));
    gtk_snapshot_append_color(snapshot, &c,
                              &GRAPHENE_RECT_INIT(0, (float)y, (float)(width - 2), (float)h));
    char buf[16];
    tkv_cost_short(v, buf);
    const Drawn *d = drawn_number(self, buf);
    int tw = d->width, th = d->height;
    /* the number on the line's first row: a wrapped line's cell is taller,
     * and its middle is beside no line's text */
    int fy, fh;
    gtk_source_gutter_lines_get_line_yrange(lines, line,
                                            GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_FIRST,
                                            &fy, &fh);
    float top = (float)fy + (float)(fh - th) / 2;
    tkv_gutter_drawn_note(renderer, line, top, th);
    gtk_snapshot_save(snapshot);
    gtk_snapshot_translate(snapshot, &GRAPHENE_POINT_INIT((float)(width - 4 - tw), top));
    if (d->node)
        gtk_snapshot_append_node(snapshot, d->node);
    gtk_snapshot_restore(snapshot);
}

static void tkv_heat_gutter_measure(GtkWidget *widget, GtkOrientation orientation,
                                    int for_size, int *minimum, int *natural,
                                    int *min_baseline, int *nat_baseline)
{
    TkvHeatGutter *self = TKV_HEAT_GUTTER(widget);
    *minimum = *natural = orientation == GTK_ORIENTATION_HORIZONTAL && self->func
                              ? CHARS * self->char_width + 8
                              : 0;
    *min_baseline = *nat_baseline = -1;
}

static gboolean on_query_tooltip(GtkWidget *widget, int x, int y, gboolean keyboard,
                                 GtkTooltip *tooltip)
{
    TkvHeatGutter *self = TKV_HEAT_GUTTER(widget);
    guint line = keyboard ? 0 : tkv_gutter_line_at(GTK_SOURCE_GUTTER_RENDERER(self), x, y);
    char *text = line && self->tip ? self->tip(line, self->data) : NULL;
    if (!text)
        return FALSE;
    gtk_tooltip_set_text(tooltip, text);
    g_free(text);
    return TRUE;
}

static void update_font(TkvHeatGutter *self)
{
    g_clear_object(&self->layout);
    if (self->drawn)
        g_hash_table_remove_all(self->drawn);
    self->layout = gtk_widget_create_pango_layout(GTK_WIDGET(self), "0");
    PangoAttrList *attrs = pango_attr_list_new();
    pango_attr_list_insert(attrs, pango_attr_scale_new(0.8));
    pango_layout_set_attributes(self->layout, attrs);
    pango_attr_list_unref(attrs);
    int h;
    pango_layout_get_pixel_size(self->layout, &self->char_width, &h);
    gtk_widget_queue_resize(GTK_WIDGET(self));
}

static void tkv_heat_gutter_css_changed(GtkWidget *widget, GtkCssStyleChange *change)
{
    GTK_WIDGET_CLASS(tkv_heat_gutter_parent_class)->css_changed(widget, change);
    update_font(TKV_HEAT_GUTTER(widget));
}

static void tkv_heat_gutter_dispose(GObject *object)
{
    TkvHeatGutter *self = TKV_HEAT_GUTTER(object);
    g_clear_object(&self->layout);
    g_clear_pointer(&self->drawn, g_hash_table_unref);
    g_signal_handlers_disconnect_by_data(tkv_style_get_default(), self);
    G_OBJECT_CLASS(tkv_heat_gutter_parent_class)->dispose(object);
}

static void tkv_heat_gutter_class_init(TkvHeatGutterClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = tkv_heat_gutter_dispose;
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    wc->measure = tkv_heat_gutter_measure;
    wc->css_changed = tkv_heat_gutter_css_changed;
    wc->query_tooltip = on_query_tooltip;
    GTK_SOURCE_GUTTER_RENDERER_CLASS(klass)->snapshot_line = tkv_heat_gutter_snapshot_line;
}

static void tkv_heat_gutter_init(TkvHeatGutter *self)
{
    /* GtkSourceView measures a wrapped line's first row only for a gutter
     * with a renderer that asks for it: the text goes there (tkv_gutter_line.h) */
    gtk_source_gutter_renderer_set_alignment_mode(GTK_SOURCE_GUTTER_RENDERER(self),
                                                  GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_FIRST);
    gtk_widget_set_has_tooltip(GTK_WIDGET(self), TRUE);
    self->drawn = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, drawn_free);
    update_font(self);
    load_colors(self);
    g_signal_connect_swapped(tkv_style_get_default(), "changed", G_CALLBACK(load_colors), self);
}

GtkSourceGutterRenderer *tkv_heat_gutter_new(void)
{
    return g_object_new(TKV_TYPE_HEAT_GUTTER, NULL);
}

void tkv_heat_gutter_set_func(TkvHeatGutter *self, TkvHeatFunc func, TkvHeatTipFunc tip,
                              gpointer data)
{
    gboolean resize = !self->func != !func;
    self->func = func;
    self->tip = tip;
    self->data = data;
    if (resize)
        gtk_widget_queue_resize(GTK_WIDGET(self));
    gtk_widget_queue_draw(GTK_WIDGET(self));
}
