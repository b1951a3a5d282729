/* tkv_heat_gutter.c - the cost column: a shaded cell and a short number per
 * line. */
#include "widgets/tkv_heat_gutter.h"
#include "widgets/tkv_gutter_line.h"

#include "document/tkv_cost_text.h"
#include "widgets/tkv_style.h"

#define CHARS 5 /* "10.9k" */

struct _TkvHeatGutter {
    GtkSourceGutterRenderer parent_instance;
    TkvHeatFunc func;
    TkvHeatTipFunc tip;
    gpointer data;
    GdkRGBA hot, fg;
    PangoLayout *layout;
    int char_width;
};

G_DEFINE_FINAL_TYPE(TkvHeatGutter, tkv_heat_gutter, GTK_SOURCE_TYPE_GUTTER_RENDERER)

static void load_colors(TkvHeatGutter *self)
{
    TkvStyle *style = tkv_style_get_default();
    self->hot = tkv_style_color(style, "tkview:heat", FALSE, "#e06028");
    self->fg = tkv_style_color(style, "line-numbers", TRUE, "#57606a");
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
    pango_layout_set_text(self->layout, buf, -1);
    int tw, th;
    pango_layout_get_pixel_size(self->layout, &tw, &th);
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
    gtk_snapshot_append_layout(snapshot, self->layout, &self->fg);
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
