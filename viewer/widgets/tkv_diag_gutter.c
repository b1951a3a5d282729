/* tkv_diag_gutter.c - the compiler-message column: a dot per line, in the
 * colour of the worst severity there. */
#include "widgets/tkv_diag_gutter.h"
#include "widgets/tkv_gutter_line.h"

#include "widgets/tkv_style.h"

#define DATA_KEY "tkv-diag-gutter"
#define WIDTH 12

struct _TkvDiagGutter {
    GtkSourceGutterRenderer parent_instance;
    TkvDiagLevelFunc func;
    TkvDiagTipFunc tip;
    gpointer data;
    GdkRGBA color[3]; /* remark, warning, error */
};

G_DEFINE_FINAL_TYPE(TkvDiagGutter, tkv_diag_gutter, GTK_SOURCE_TYPE_GUTTER_RENDERER)

static void load_colors(TkvDiagGutter *self)
{
    TkvStyle *style = tkv_style_get_default();
    self->color[0] = tkv_style_color(style, "tkview:diag-remark", FALSE, "#3584e4");
    self->color[1] = tkv_style_color(style, "tkview:diag-warning", FALSE, "#e5a50a");
    self->color[2] = tkv_style_color(style, "tkview:diag-error", FALSE, "#e01b24");
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

static void snapshot_line(GtkSourceGutterRenderer *renderer, GtkSnapshot *snapshot,
                          GtkSourceGutterLines *lines, guint line)
{
    TkvDiagGutter *self = TKV_DIAG_GUTTER(renderer);
    int level = self->func ? self->func(line + 1, self->data) : -1;
    if (level < 0 || level > 2)
        return;
    int y, h;
    gtk_source_gutter_lines_get_line_yrange(lines, line,
                                            GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_CELL,
                                            &y, &h);
    if (h <= 1) /* a hidden (folded location) line: its first row is the next line's */
        return;
    gtk_source_gutter_lines_get_line_yrange(lines, line,
                                            GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_FIRST,
                                            &y, &h);
    float d = (float)MIN(h, WIDTH) - 4;
    GskRoundedRect r;
    gsk_rounded_rect_init_from_rect(
        &r, &GRAPHENE_RECT_INIT(2, (float)y + ((float)h - d) / 2, d, d), d / 2);
    gtk_snapshot_push_rounded_clip(snapshot, &r);
    gtk_snapshot_append_color(snapshot, &self->color[level], &r.bounds);
    gtk_snapshot_pop(snapshot);
}

static void measure(GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                    int *natural, int *min_baseline, int *nat_baseline)
{
    TkvDiagGutter *self = TKV_DIAG_GUTTER(widget);
    *minimum = *natural = orientation == GTK_ORIENTATION_HORIZONTAL && self->func ? WIDTH : 0;
    *min_baseline = *nat_baseline = -1;
}

static gboolean on_query_tooltip(GtkWidget *widget, int x, int y, gboolean keyboard,
                                 GtkTooltip *tooltip)
{
    TkvDiagGutter *self = TKV_DIAG_GUTTER(widget);
    guint line = keyboard ? 0 : tkv_gutter_line_at(GTK_SOURCE_GUTTER_RENDERER(self), x, y);
    char *text = line && self->tip ? self->tip(line, self->data) : NULL;
    if (!text)
        return FALSE;
    gtk_tooltip_set_text(tooltip, text);
    g_free(text);
    return TRUE;
}

static void tkv_diag_gutter_dispose(GObject *object)
{
    g_signal_handlers_disconnect_by_data(tkv_style_get_default(), object);
    G_OBJECT_CLASS(tkv_diag_gutter_parent_class)->dispose(object);
}

static void tkv_diag_gutter_class_init(TkvDiagGutterClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = tkv_diag_gutter_dispose;
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    wc->measure = measure;
    wc->query_tooltip = on_query_tooltip;
    GTK_SOURCE_GUTTER_RENDERER_CLASS(klass)->snapshot_line = snapshot_line;
}

static void tkv_diag_gutter_init(TkvDiagGutter *self)
{
    /* GtkSourceView measures a wrapped line's first row only for a gutter
     * with a renderer that asks for it: the text goes there (tkv_gutter_line.h) */
    gtk_source_gutter_renderer_set_alignment_mode(GTK_SOURCE_GUTTER_RENDERER(self),
                                                  GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_FIRST);
    gtk_widget_set_has_tooltip(GTK_WIDGET(self), TRUE);
    load_colors(self);
    g_signal_connect_swapped(tkv_style_get_default(), "changed", G_CALLBACK(load_colors), self);
}

TkvDiagGutter *tkv_diag_gutter_attach(GtkSourceView *view)
{
    TkvDiagGutter *g = g_object_get_data(G_OBJECT(view), DATA_KEY);
    if (g)
        return g;
    g = g_object_new(TKV_TYPE_DIAG_GUTTER, NULL);
    gtk_source_gutter_insert(gtk_source_view_get_gutter(view, GTK_TEXT_WINDOW_LEFT),
                             GTK_SOURCE_GUTTER_RENDERER(g), -1);
    g_object_set_data(G_OBJECT(view), DATA_KEY, g);
    return g;
}

void tkv_diag_gutter_set_func(TkvDiagGutter *self, TkvDiagLevelFunc func, TkvDiagTipFunc tip,
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
