/* tkv_regs_strip.c - register pressure along a SASS pane (tkv_regs_strip.h):
 * a caption and a drawing area of one column per pixel. */
#include "widgets/tkv_regs_strip.h"

#include <string.h>

#define STRIP_HEIGHT 34

struct _TkvRegsStrip {
    GtkWidget parent_instance;
    GtkWidget *caption;
    GtkWidget *bars;
    guint32 *counts;
    guint n;
    guint peak, peak_line, ptxas, cursor;
    guint columns; /* the width last drawn */
    char *tooltip;
};

G_DEFINE_FINAL_TYPE(TkvRegsStrip, tkv_regs_strip, GTK_TYPE_WIDGET)

enum { SIG_LINE_ACTIVATED, N_SIGS };
static guint sigs[N_SIGS];

/* Lines [*A, *B] of column X of WIDTH; the line of their largest count
 * (0: none). */
static guint column(TkvRegsStrip *self, int x, int width, guint *a, guint *b)
{
    if (!self->n || width <= 0 || x < 0 || x >= width)
        return 0;
    *a = (guint)(((guint64)x * self->n) / (guint)width) + 1;
    *b = MAX(*a, (guint)(((guint64)(x + 1) * self->n) / (guint)width));
    guint best = 0;
    for (guint l = *a; l <= *b && l <= self->n; l++)
        if (self->counts[l - 1] > (best ? self->counts[best - 1] : 0))
            best = l;
    return best;
}

static int column_of(TkvRegsStrip *self, guint line, int width)
{
    if (!line || !self->n || line > self->n)
        return -1;
    return (int)(((guint64)(line - 1) * (guint)width) / self->n);
}

static void draw(GtkDrawingArea *area, cairo_t *cr, int w, int h, gpointer data)
{
    TkvRegsStrip *self = data;
    self->columns = (guint)w;
    if (!self->n)
        return;
    double top = MAX(1, MAX(self->peak, self->ptxas));
    GdkRGBA fg;
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS /* gtk_widget_get_color() is GTK 4.10 */
    gtk_style_context_get_color(gtk_widget_get_style_context(GTK_WIDGET(area)), &fg);
    G_GNUC_END_IGNORE_DEPRECATIONS
    for (int x = 0; x < w; x++) {
        guint a, b, l = column(self, x, w, &a, &b);
        guint v = l ? self->counts[l - 1] : 0;
        if (!v)
            continue;
        double bh = MAX(1, (v / top) * (h - 2));
        if (v * 10 >= self->peak * 9)
            cairo_set_source_rgb(cr, 0.85, 0.28, 0.06); /* 90% of the peak and up */
        else
            cairo_set_source_rgb(cr, 0.36, 0.55, 0.94);
        cairo_rectangle(cr, x, h - bh, 1, bh);
        cairo_fill(cr);
    }
    if (self->ptxas) {
        /* ptxas's allocation, the ceiling the live count stays under */
        double y = h - (self->ptxas / top) * (h - 2) - 0.5;
        cairo_set_source_rgba(cr, fg.red, fg.green, fg.blue, 0.5);
        double dash[] = {3, 3};
        cairo_set_dash(cr, dash, 2, 0);
        cairo_set_line_width(cr, 1);
        cairo_move_to(cr, 0, y);
        cairo_line_to(cr, w, y);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    int px = column_of(self, self->peak_line, w);
    if (px >= 0) {
        cairo_set_source_rgb(cr, 0.85, 0.28, 0.06);
        cairo_move_to(cr, px - 4, 0);
        cairo_line_to(cr, px + 4, 0);
        cairo_line_to(cr, px, 6);
        cairo_close_path(cr);
        cairo_fill(cr);
    }
    int cx = column_of(self, self->cursor, w);
    if (cx >= 0) {
        cairo_set_source_rgba(cr, fg.red, fg.green, fg.blue, 0.9);
        cairo_rectangle(cr, cx, 0, 1, h);
        cairo_fill(cr);
    }
}

static void on_click(GtkGestureClick *g, int n_press, double x, double y, TkvRegsStrip *self)
{
    guint line = tkv_regs_strip_line_at(self, (int)x);
    if (line)
        g_signal_emit(self, sigs[SIG_LINE_ACTIVATED], 0, line);
}

static gboolean on_bars_tooltip(GtkWidget *w, int x, int y, gboolean keyboard,
                                GtkTooltip *tip, TkvRegsStrip *self)
{
    guint a, b, l = column(self, x, gtk_widget_get_width(w), &a, &b);
    if (!l)
        return FALSE;
    char *text = g_strdup_printf("%u live registers at SASS line %u (the most of lines "
                                 "%u-%u); click to show it",
                                 self->counts[l - 1], l, a, b);
    gtk_tooltip_set_text(tip, text);
    g_free(text);
    return TRUE;
}

static gboolean on_caption_tooltip(GtkWidget *w, int x, int y, gboolean keyboard,
                                   GtkTooltip *tip, TkvRegsStrip *self)
{
    if (!self->tooltip)
        return FALSE;
    gtk_tooltip_set_text(tip, self->tooltip);
    return TRUE;
}

static void tkv_regs_strip_dispose(GObject *object)
{
    TkvRegsStrip *self = TKV_REGS_STRIP(object);
    g_clear_pointer(&self->caption, gtk_widget_unparent);
    g_clear_pointer(&self->bars, gtk_widget_unparent);
    G_OBJECT_CLASS(tkv_regs_strip_parent_class)->dispose(object);
}

static void tkv_regs_strip_finalize(GObject *object)
{
    TkvRegsStrip *self = TKV_REGS_STRIP(object);
    g_free(self->counts);
    g_free(self->tooltip);
    G_OBJECT_CLASS(tkv_regs_strip_parent_class)->finalize(object);
}

static void tkv_regs_strip_class_init(TkvRegsStripClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    oc->dispose = tkv_regs_strip_dispose;
    oc->finalize = tkv_regs_strip_finalize;
    sigs[SIG_LINE_ACTIVATED] = g_signal_new("line-activated", G_TYPE_FROM_CLASS(klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 1, G_TYPE_UINT);
    gtk_widget_class_set_layout_manager_type(wc, GTK_TYPE_BOX_LAYOUT);
    gtk_widget_class_set_css_name(wc, "tkvregsstrip");
}

static void tkv_regs_strip_init(TkvRegsStrip *self)
{
    GtkLayoutManager *lm = gtk_widget_get_layout_manager(GTK_WIDGET(self));
    gtk_orientable_set_orientation(GTK_ORIENTABLE(lm), GTK_ORIENTATION_VERTICAL);
    gtk_widget_add_css_class(GTK_WIDGET(self), "tkv-regs-strip");
    self->caption = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(self->caption), 0);
    gtk_label_set_ellipsize(GTK_LABEL(self->caption), PANGO_ELLIPSIZE_END);
    gtk_widget_add_css_class(self->caption, "dim-label");
    gtk_widget_add_css_class(self->caption, "caption");
    gtk_widget_set_has_tooltip(self->caption, TRUE);
    g_signal_connect(self->caption, "query-tooltip", G_CALLBACK(on_caption_tooltip), self);
    gtk_widget_set_parent(self->caption, GTK_WIDGET(self));
    self->bars = gtk_drawing_area_new();
    gtk_drawing_area_set_content_height(GTK_DRAWING_AREA(self->bars), STRIP_HEIGHT);
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(self->bars), draw, self, NULL);
    gtk_widget_set_hexpand(self->bars, TRUE);
    gtk_widget_set_has_tooltip(self->bars, TRUE);
    g_signal_connect(self->bars, "query-tooltip", G_CALLBACK(on_bars_tooltip), self);
    gtk_widget_set_cursor_from_name(self->bars, "pointer");
    GtkGesture *click = gtk_gesture_click_new();
    g_signal_connect(click, "pressed", G_CALLBACK(on_click), self);
    gtk_widget_add_controller(self->bars, GTK_EVENT_CONTROLLER(click));
    gtk_widget_set_parent(self->bars, GTK_WIDGET(self));
}

GtkWidget *tkv_regs_strip_new(void)
{
    return g_object_new(TKV_TYPE_REGS_STRIP, NULL);
}

void tkv_regs_strip_set_counts(TkvRegsStrip *self, const guint32 *counts, guint n, guint peak,
                               guint peak_line, guint ptxas, const char *caption,
                               const char *tooltip)
{
    g_free(self->counts);
    self->counts = n ? g_memdup2(counts, (gsize)n * sizeof *counts) : NULL;
    self->n = n;
    self->peak = peak;
    self->peak_line = peak_line;
    self->ptxas = ptxas;
    self->cursor = 0;
    g_free(self->tooltip);
    self->tooltip = g_strdup(tooltip);
    gtk_label_set_text(GTK_LABEL(self->caption), caption ? caption : "");
    gtk_widget_set_visible(self->bars, TRUE);
    gtk_widget_queue_draw(self->bars);
}

void tkv_regs_strip_clear(TkvRegsStrip *self, const char *why)
{
    g_clear_pointer(&self->counts, g_free);
    self->n = self->peak = self->peak_line = self->ptxas = self->cursor = 0;
    g_clear_pointer(&self->tooltip, g_free);
    gtk_label_set_text(GTK_LABEL(self->caption), why ? why : "");
    gtk_widget_set_visible(self->bars, FALSE);
}

void tkv_regs_strip_set_cursor(TkvRegsStrip *self, guint line)
{
    if (line == self->cursor)
        return;
    self->cursor = line;
    gtk_widget_queue_draw(self->bars);
}

guint tkv_regs_strip_get_cursor(TkvRegsStrip *self) { return self->cursor; }
guint tkv_regs_strip_get_peak_line(TkvRegsStrip *self) { return self->peak_line; }
guint tkv_regs_strip_get_peak(TkvRegsStrip *self) { return self->peak; }
guint tkv_regs_strip_get_columns(TkvRegsStrip *self) { return self->columns; }

const char *tkv_regs_strip_get_caption(TkvRegsStrip *self)
{
    return gtk_label_get_text(GTK_LABEL(self->caption));
}

guint tkv_regs_strip_line_at(TkvRegsStrip *self, int x)
{
    guint a, b;
    return column(self, x, gtk_widget_get_width(self->bars), &a, &b);
}

guint tkv_regs_strip_get_count(TkvRegsStrip *self, guint line)
{
    return line && line <= self->n ? self->counts[line - 1] : 0;
}
