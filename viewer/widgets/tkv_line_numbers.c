/* tkv_line_numbers.c - line numbers drawn from a cache of render nodes. */
#include "widgets/tkv_line_numbers.h"

#include <string.h>

#include "widgets/tkv_gutter_line.h"
#include "widgets/tkv_style.h"

#define XPAD 3           /* GtkSourceView's */
#define MIN_DIGITS 4
#define CACHE_MAX 4096   /* numbers kept per weight; then the cache starts over */

typedef struct {
    GskRenderNode *node; /* the number at (0, 0) */
    int width, height;
} Number;

/* The digits as the font shapes them, in one weight: a number's glyphs are
 * put together from these instead of laying the number out.  A jump to
 * lines far away shows some fifty numbers never drawn before, and laying
 * each out (itemizing, shaping, measuring) was a tenth of the frame's
 * snapshot.  Digits of a monospace font (and the tabular digits of most
 * others) shape alone as they do in a number: one glyph each, no kerning. */
typedef struct {
    PangoFont *font; /* NULL: lay numbers out instead */
    PangoGlyphInfo glyph[10];
    int baseline;    /* Pango units, from the layout's top */
    int height;      /* pixels */
} Digits;

struct _TkvLineNumbers {
    GtkSourceGutterRenderer parent_instance;

    GdkRGBA fg, current_fg;
    gboolean current_bold;
    PangoLayout *layout;
    Digits digits_of[2]; /* plain, current */
    GHashTable *plain;   /* number -> Number */
    GHashTable *current; /* the same, in the current line's style */
    int digits;          /* the column is this many digits wide */
    int digit_width;     /* of a bold digit */
    GtkTextBuffer *buffer;
};

G_DEFINE_FINAL_TYPE(TkvLineNumbers, tkv_line_numbers, GTK_SOURCE_TYPE_GUTTER_RENDERER)

static void number_free(gpointer p)
{
    Number *n = p;
    gsk_render_node_unref(n->node);
    g_free(n);
}

static void forget_numbers(TkvLineNumbers *self)
{
    g_hash_table_remove_all(self->plain);
    g_hash_table_remove_all(self->current);
}

static void set_bold(PangoLayout *layout, gboolean bold)
{
    PangoAttrList *attrs = NULL;
    if (bold) {
        attrs = pango_attr_list_new();
        pango_attr_list_insert(attrs, pango_attr_weight_new(PANGO_WEIGHT_BOLD));
    }
    pango_layout_set_attributes(layout, attrs);
    if (attrs)
        pango_attr_list_unref(attrs);
}

static void digits_clear(Digits *d)
{
    g_clear_object(&d->font);
}

/* "0123456789" laid out in LAYOUT's font: D's glyphs, or D->font NULL when
 * the digits did not come out as one run of ten glyphs in one font. */
static void digits_load(Digits *d, PangoLayout *layout)
{
    digits_clear(d);
    pango_layout_set_text(layout, "0123456789", -1);
    if (pango_layout_get_line_count(layout) != 1)
        return;
    PangoLayoutLine *line = pango_layout_get_line_readonly(layout, 0);
    if (!line->runs || line->runs->next)
        return;
    PangoGlyphItem *run = line->runs->data;
    if (run->glyphs->num_glyphs != 10 || run->item->num_chars != 10)
        return;
    for (int i = 0; i < 10; i++) {
        PangoGlyphInfo *g = &run->glyphs->glyphs[i];
        /* In logical order, one glyph per digit. */
        if (run->glyphs->log_clusters[i] != i || (g->glyph & PANGO_GLYPH_UNKNOWN_FLAG))
            return;
        d->glyph[i] = *g;
    }
    int w;
    pango_layout_get_pixel_size(layout, &w, &d->height);
    d->baseline = pango_layout_get_baseline(layout);
    d->font = g_object_ref(run->item->analysis.font);
}

static GskRenderNode *number_node(const Digits *d, const char *text, const GdkRGBA *color,
                                  int *width)
{
    int n = (int)strlen(text);
    PangoGlyphString *gs = pango_glyph_string_new();
    pango_glyph_string_set_size(gs, n);
    int x = 0;
    for (int i = 0; i < n; i++) {
        gs->glyphs[i] = d->glyph[text[i] - '0'];
        gs->log_clusters[i] = i;
        x += gs->glyphs[i].geometry.width;
    }
    GskRenderNode *node = gsk_text_node_new(d->font, gs, color,
                                            &GRAPHENE_POINT_INIT(0, (float)d->baseline / PANGO_SCALE));
    pango_glyph_string_free(gs);
    /* As pango_layout_get_pixel_size() rounds a logical width. */
    *width = PANGO_PIXELS_CEIL(x);
    return node;
}

static const Number *number_of(TkvLineNumbers *self, guint line, gboolean current)
{
    GHashTable *table = current ? self->current : self->plain;
    gpointer key = GUINT_TO_POINTER(line);
    Number *n = g_hash_table_lookup(table, key);
    if (n)
        return n;
    if (g_hash_table_size(table) >= CACHE_MAX)
        g_hash_table_remove_all(table);
    char text[16];
    g_snprintf(text, sizeof text, "%u", line);
    const Digits *d = &self->digits_of[current ? 1 : 0];
    const GdkRGBA *color = current ? &self->current_fg : &self->fg;
    n = g_new(Number, 1);
    if (d->font) {
        n->node = number_node(d, text, color, &n->width);
        n->height = d->height;
    } else {
        pango_layout_set_text(self->layout, text, -1);
        set_bold(self->layout, current && self->current_bold);
        pango_layout_get_pixel_size(self->layout, &n->width, &n->height);
        GtkSnapshot *s = gtk_snapshot_new();
        gtk_snapshot_append_layout(s, self->layout, color);
        n->node = gtk_snapshot_free_to_node(s);
    }
    if (!n->node) {
        g_free(n);
        return NULL;
    }
    g_hash_table_insert(table, key, n);
    return n;
}

static void load_digits(TkvLineNumbers *self)
{
    set_bold(self->layout, FALSE);
    digits_load(&self->digits_of[0], self->layout);
    set_bold(self->layout, self->current_bold);
    digits_load(&self->digits_of[1], self->layout);
}

static void tkv_line_numbers_snapshot_line(GtkSourceGutterRenderer *renderer,
                                           GtkSnapshot *snapshot, GtkSourceGutterLines *lines,
                                           guint line)
{
    TkvLineNumbers *self = TKV_LINE_NUMBERS(renderer);
    const Number *n = number_of(self, line + 1, gtk_source_gutter_lines_is_cursor(lines, line));
    if (!n)
        return;
    int y, h;
    gtk_source_gutter_lines_get_line_yrange(lines, line,
                                            GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_CELL, &y,
                                            &h);
    /* A hidden line (a folded .loc, //## or #loc line) is a line of no
     * height at the next one's top: its number would be drawn over the
     * next line's.  (Its first row, below, is the next line's.) */
    if (h < n->height / 2)
        return;
    gtk_source_gutter_lines_get_line_yrange(lines, line,
                                            GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_FIRST, &y,
                                            &h);
    int width = gtk_widget_get_width(GTK_WIDGET(self));
    float top = (float)y + (float)(h - n->height) / 2;
    tkv_gutter_drawn_note(renderer, line, top, n->height);
    gtk_snapshot_save(snapshot);
    gtk_snapshot_translate(snapshot, &GRAPHENE_POINT_INIT((float)(width - XPAD - n->width), top));
    gtk_snapshot_append_node(snapshot, n->node);
    gtk_snapshot_restore(snapshot);
}

static int digits_for(GtkTextBuffer *b)
{
    int lines = b ? gtk_text_buffer_get_line_count(b) : 1, d = 1;
    while (lines >= 10) {
        lines /= 10;
        d++;
    }
    return MAX(d, MIN_DIGITS);
}

static void tkv_line_numbers_measure(GtkWidget *widget, GtkOrientation orientation, int for_size,
                                     int *minimum, int *natural, int *min_baseline,
                                     int *nat_baseline)
{
    TkvLineNumbers *self = TKV_LINE_NUMBERS(widget);
    *minimum = *natural =
        orientation == GTK_ORIENTATION_HORIZONTAL ? self->digits * self->digit_width + 2 * XPAD : 0;
    *min_baseline = *nat_baseline = -1;
}

static void update_font(TkvLineNumbers *self)
{
    g_clear_object(&self->layout);
    self->layout = gtk_widget_create_pango_layout(GTK_WIDGET(self), "0");
    set_bold(self->layout, TRUE);
    int h;
    pango_layout_get_pixel_size(self->layout, &self->digit_width, &h);
    load_digits(self);
    forget_numbers(self);
    gtk_widget_queue_resize(GTK_WIDGET(self));
}

static void load_colors(TkvLineNumbers *self)
{
    TkvStyle *style = tkv_style_get_default();
    self->fg = tkv_style_color(style, "line-numbers", TRUE, "#8c959f");
    GdkRGBA text = tkv_style_color(style, "text", TRUE, "#1f2328");
    char *spec = gdk_rgba_to_string(&text);
    self->current_fg = tkv_style_color(style, "current-line-number", TRUE, spec);
    g_free(spec);
    GtkSourceStyleScheme *scheme = tkv_style_get_scheme(style);
    GtkSourceStyle *st = scheme ? gtk_source_style_scheme_get_style(scheme, "current-line-number")
                                : NULL;
    gboolean bold = FALSE, bold_set = FALSE;
    if (st)
        g_object_get(st, "bold", &bold, "bold-set", &bold_set, NULL);
    self->current_bold = bold_set && bold;
    load_digits(self);
    forget_numbers(self);
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

static void on_cursor_moved(TkvLineNumbers *self)
{
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

static void tkv_line_numbers_change_buffer(GtkSourceGutterRenderer *renderer,
                                           GtkSourceBuffer *old_buffer)
{
    TkvLineNumbers *self = TKV_LINE_NUMBERS(renderer);
    if (self->buffer) {
        g_signal_handlers_disconnect_by_data(self->buffer, self);
        g_clear_object(&self->buffer);
    }
    GtkSourceBuffer *b = gtk_source_gutter_renderer_get_buffer(renderer);
    if (b) {
        self->buffer = g_object_ref(GTK_TEXT_BUFFER(b));
        g_signal_connect_swapped(b, "cursor-moved", G_CALLBACK(on_cursor_moved), self);
    }
    int digits = digits_for(self->buffer);
    if (digits != self->digits) {
        self->digits = digits;
        gtk_widget_queue_resize(GTK_WIDGET(self));
    }
    GtkSourceGutterRendererClass *parent = GTK_SOURCE_GUTTER_RENDERER_CLASS(tkv_line_numbers_parent_class);
    if (parent->change_buffer)
        parent->change_buffer(renderer, old_buffer);
}

static gboolean tkv_line_numbers_query_activatable(GtkSourceGutterRenderer *renderer,
                                                   GtkTextIter *iter, GdkRectangle *area)
{
    return gtk_source_gutter_renderer_get_buffer(renderer) != NULL;
}

/* As GtkSourceView's line numbers do. */
static void tkv_line_numbers_activate(GtkSourceGutterRenderer *renderer, GtkTextIter *iter,
                                      GdkRectangle *area, guint button, GdkModifierType state,
                                      gint n_presses)
{
    GtkTextBuffer *b = GTK_TEXT_BUFFER(gtk_source_gutter_renderer_get_buffer(renderer));
    if (button != 1 || !b)
        return;
    GtkTextIter start = *iter, end = *iter;
    gtk_text_iter_set_line_offset(&start, 0);
    if (!gtk_text_iter_ends_line(&end))
        gtk_text_iter_forward_to_line_end(&end);
    if (n_presses == 2 || (n_presses == 1 && (state & GDK_CONTROL_MASK))) {
        gtk_text_buffer_select_range(b, &end, &start);
    } else if (n_presses == 1 && (state & GDK_SHIFT_MASK)) {
        GtkTextIter s, e;
        gtk_text_buffer_get_selection_bounds(b, &s, &e);
        if (gtk_text_iter_compare(&s, &start) < 0)
            gtk_text_buffer_select_range(b, &s, &end);
        else if (gtk_text_iter_compare(&e, &end) < 0)
            gtk_text_buffer_select_range(b, &end, &start);
        else
            gtk_text_buffer_select_range(b, &e, &start);
    } else if (n_presses == 1) {
        gtk_text_buffer_place_cursor(b, &start);
    }
}

static void tkv_line_numbers_css_changed(GtkWidget *widget, GtkCssStyleChange *change)
{
    GTK_WIDGET_CLASS(tkv_line_numbers_parent_class)->css_changed(widget, change);
    update_font(TKV_LINE_NUMBERS(widget));
}

static void tkv_line_numbers_dispose(GObject *object)
{
    TkvLineNumbers *self = TKV_LINE_NUMBERS(object);
    if (self->buffer) {
        g_signal_handlers_disconnect_by_data(self->buffer, self);
        g_clear_object(&self->buffer);
    }
    g_signal_handlers_disconnect_by_data(tkv_style_get_default(), self);
    G_OBJECT_CLASS(tkv_line_numbers_parent_class)->dispose(object);
}

static void tkv_line_numbers_finalize(GObject *object)
{
    TkvLineNumbers *self = TKV_LINE_NUMBERS(object);
    g_clear_object(&self->layout);
    digits_clear(&self->digits_of[0]);
    digits_clear(&self->digits_of[1]);
    g_hash_table_unref(self->plain);
    g_hash_table_unref(self->current);
    G_OBJECT_CLASS(tkv_line_numbers_parent_class)->finalize(object);
}

static void tkv_line_numbers_class_init(TkvLineNumbersClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    oc->dispose = tkv_line_numbers_dispose;
    oc->finalize = tkv_line_numbers_finalize;
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    wc->measure = tkv_line_numbers_measure;
    wc->css_changed = tkv_line_numbers_css_changed;
    GtkSourceGutterRendererClass *rc = GTK_SOURCE_GUTTER_RENDERER_CLASS(klass);
    rc->snapshot_line = tkv_line_numbers_snapshot_line;
    rc->change_buffer = tkv_line_numbers_change_buffer;
    rc->query_activatable = tkv_line_numbers_query_activatable;
    rc->activate = tkv_line_numbers_activate;
}

static void tkv_line_numbers_init(TkvLineNumbers *self)
{
    /* GtkSourceView measures a wrapped line's first row only for a gutter
     * with a renderer that asks for it: the text goes there (tkv_gutter_line.h) */
    gtk_source_gutter_renderer_set_alignment_mode(GTK_SOURCE_GUTTER_RENDERER(self),
                                                  GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_FIRST);
    self->plain = g_hash_table_new_full(NULL, NULL, NULL, number_free);
    self->current = g_hash_table_new_full(NULL, NULL, NULL, number_free);
    self->digits = MIN_DIGITS;
    update_font(self);
    load_colors(self);
    g_signal_connect_swapped(tkv_style_get_default(), "changed", G_CALLBACK(load_colors), self);
}

GtkSourceGutterRenderer *tkv_line_numbers_new(void)
{
    return g_object_new(TKV_TYPE_LINE_NUMBERS, NULL);
}
