/* tkv_code_view.c - read-only source view with line highlights. */
#include "widgets/tkv_code_view.h"

#include <math.h>
#include <string.h>

#include "widgets/tkv_buffer_lines.h"
#include "widgets/tkv_cull.h"
#include "widgets/tkv_line_numbers.h"
#include "widgets/tkv_style.h"

struct _TkvCodeView {
    GtkSourceView parent_instance;

    GtkSourceGutterRenderer *gutter;
    GtkSourceGutterRenderer *heat;

    GdkRGBA colors[TKV_HL_COUNT]; /* the highlights', from the style scheme */
    GdkRGBA fold_color;           /* "… N more" */
    GdkRGBA dim_color;            /* the background, half opaque: over lines
                                     that are not code */
    GdkRGBA find_color[2];        /* the find bar's hits, the current one */

    /* The find bar's hits in FIND_BUF (painted while it is the buffer
     * shown), ascending; FIND_CURRENT indexes them, -1: none. */
    GArray *find_hits;
    GtkTextBuffer *find_buf;
    int find_current;

    GArray *matches; /* guint32, ascending */
    GArray *context; /* guint32: highlighted, not stepped to */
    GArray *approx;  /* guint32: matches made on the innermost frame only */
    int current;     /* index into matches, -1 */
    guint selected;  /* 0: none */
    /* The buffer the match and selection highlights were put on (it may have
     * been swapped out since): they are removed from there. */
    GtkTextBuffer *tagged;

    GtkTextBuffer *watched; /* buffer whose mark-set we listen to */
    gboolean programmatic;  /* the program is moving the cursor */
    gboolean clicked;       /* a click is moving the cursor */
    guint last_line;

    /* scroll_to_top(): the line wanted at the top until the view has laid
     * out the lines above it, and the tick callback that keeps it there */
    guint top_line;
    guint top_tick;
    guint top_frames;
    guint top_stable; /* frames it has stayed there */
    /* center_lines(): the lines wanted in the middle, kept there the same
     * way until they stay */
    guint center_first, center_last;
    int center_index, center_dir; /* a group of matches (show_group); -1: none */
    guint center_tick;
    guint center_frames;
    guint center_stable;

    /* The block of lines marked current (a pass diff's current change):
     * lines [block_first, block_first + block_n), or a gap before
     * block_first when block_n is 0; block_first 0: none. */
    guint block_first, block_n;
};

G_DEFINE_FINAL_TYPE(TkvCodeView, tkv_code_view, GTK_SOURCE_TYPE_VIEW)

/* The most frames an opening or centring scroll is kept up (top_tick,
 * center_tick). */
#define TOP_TICK_FRAMES 90

enum { SIG_LINE_SELECTED, SIG_MATCHES_CHANGED, N_SIGS };
static guint sigs[N_SIGS];

static GtkTextBuffer *buffer_of(TkvCodeView *self)
{
    return gtk_text_view_get_buffer(GTK_TEXT_VIEW(self));
}

static void update_colors(TkvCodeView *self)
{
    TkvStyle *style = tkv_style_get_default();
    for (int i = 0; i < TKV_HL_COUNT; i++)
        self->colors[i] = tkv_style_color(style, tkv_highlight_style((TkvHighlight)i), FALSE,
                                          tkv_highlight_fallback((TkvHighlight)i));
    self->fold_color = tkv_style_color(style, "def:comment", TRUE, "#8c959f");
    self->dim_color = tkv_style_color(style, "text", FALSE, "#ffffff");
    self->find_color[0] = tkv_style_color(style, "tkview:find", FALSE, "#ffd08a");
    self->find_color[1] = tkv_style_color(style, "tkview:find-current", FALSE, "#ff9f1a");
    self->dim_color.alpha = 0.5f;
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

static void apply_scheme(GtkSourceBuffer *buffer)
{
    GtkSourceStyleScheme *scheme = tkv_style_get_scheme(tkv_style_get_default());
    if (gtk_source_buffer_get_style_scheme(buffer) != scheme)
        gtk_source_buffer_set_style_scheme(buffer, scheme);
}

/* Syntax highlighting in the background.  GtkSourceView highlights a region
 * when it is first drawn; jumping to IR far away (the lines a selection is
 * bound to) would pay for it inside the frame that shows the selection.  So
 * once a buffer exists, idle slices of HIGHLIGHT_SLICE lines highlight it all,
 * and selections only pay for layout and paint. */
#define HIGHLIGHT_SLICE 80

typedef struct {
    GWeakRef buffer;
    int next; /* first line not yet highlighted */
} Highlighter;

static gboolean highlight_slice(gpointer data)
{
    Highlighter *h = data;
    GtkSourceBuffer *b = g_weak_ref_get(&h->buffer);
    if (!b)
        return G_SOURCE_REMOVE;
    GtkTextBuffer *tb = GTK_TEXT_BUFFER(b);
    int lines = gtk_text_buffer_get_line_count(tb);
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_line(tb, &s, h->next);
    if (!gtk_text_buffer_get_iter_at_line(tb, &e, h->next + HIGHLIGHT_SLICE))
        gtk_text_buffer_get_end_iter(tb, &e);
    gtk_source_buffer_ensure_highlight(b, &s, &e);
    h->next += HIGHLIGHT_SLICE;
    g_object_unref(b);
    return h->next < lines ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static void highlighter_free(gpointer data)
{
    Highlighter *h = data;
    g_weak_ref_clear(&h->buffer);
    g_free(h);
}

static void highlight_in_background(GtkSourceBuffer *b)
{
    Highlighter *h = g_new0(Highlighter, 1);
    g_weak_ref_init(&h->buffer, b);
    g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, highlight_slice, h, highlighter_free);
}

/* A buffer's text, kept with it (buffers are never edited): what the find
 * bar searches.  Read back from the buffer, 2 MB of a diff side took 40-80 ms
 * (GtkTextBuffer walks its tree of segments); the copy made with the
 * buffer, a millisecond. */
typedef struct {
    char *text;
    gsize len;
} BufferText;

static void buffer_text_free(gpointer p)
{
    BufferText *t = p;
    g_free(t->text);
    g_free(t);
}

static void keep_text(GtkTextBuffer *b, const char *text, gsize len)
{
    BufferText *t = g_new0(BufferText, 1);
    t->text = g_strndup(text, len);
    t->len = len;
    g_object_set_data_full(G_OBJECT(b), "tkv-text", t, buffer_text_free);
}

const char *tkv_code_view_buffer_text(GtkTextBuffer *b, gsize *len)
{
    BufferText *t = g_object_get_data(G_OBJECT(b), "tkv-text");
    if (!t) {
        /* a buffer not made here: read it once */
        GtkTextIter s, e;
        gtk_text_buffer_get_bounds(b, &s, &e);
        char *text = gtk_text_buffer_get_text(b, &s, &e, TRUE);
        keep_text(b, text, strlen(text));
        g_free(text);
        t = g_object_get_data(G_OBJECT(b), "tkv-text");
    }
    *len = t->len;
    return t->text;
}

GtkSourceBuffer *tkv_code_view_new_buffer(const char *text, gssize len,
                                          const char *language_id)
{
    GtkSourceBuffer *b = gtk_source_buffer_new(NULL);
    GtkTextBuffer *tb = GTK_TEXT_BUFFER(b);
    gtk_text_buffer_set_enable_undo(tb, FALSE);
    gtk_source_buffer_set_highlight_matching_brackets(b, FALSE);
    if (language_id) {
        GtkSourceLanguage *lang = gtk_source_language_manager_get_language(
            gtk_source_language_manager_get_default(), language_id);
        if (lang)
            gtk_source_buffer_set_language(b, lang);
    }
    gtk_text_buffer_set_text(tb, text ? text : "", text ? len : 0);
    keep_text(tb, text ? text : "", text ? (len < 0 ? strlen(text) : (gsize)len) : 0);
    if (text)
        tkv_buffer_lines_fold(tb, text, len < 0 ? strlen(text) : (gsize)len);
    GtkTextIter start;
    gtk_text_buffer_get_start_iter(tb, &start);
    gtk_text_buffer_place_cursor(tb, &start);
    apply_scheme(b);
    if (language_id && gtk_source_buffer_get_language(b))
        highlight_in_background(b);
    return b;
}

static guint line_of_insert(GtkTextBuffer *buffer)
{
    GtkTextIter it;
    gtk_text_buffer_get_iter_at_mark(buffer, &it, gtk_text_buffer_get_insert(buffer));
    return (guint)gtk_text_iter_get_line(&it) + 1;
}

/* The lines the selection (or the cursor) is on are shown whole: clicking a
 * folded line shows it, and what is selected is what gets copied (GTK copies
 * the visible text). */
static void show_selected_lines(GtkTextBuffer *buffer)
{
    GtkTextIter s, e;
    gtk_text_buffer_get_selection_bounds(buffer, &s, &e);
    tkv_buffer_lines_show(buffer, gtk_text_iter_get_line(&s), gtk_text_iter_get_line(&e));
}

static void on_mark_set(GtkTextBuffer *buffer, const GtkTextIter *location,
                        GtkTextMark *mark, TkvCodeView *self)
{
    if (mark == gtk_text_buffer_get_selection_bound(buffer))
        show_selected_lines(buffer);
    if (mark != gtk_text_buffer_get_insert(buffer))
        return;
    show_selected_lines(buffer);
    guint line = (guint)gtk_text_iter_get_line(location) + 1;
    gboolean clicked = self->clicked;
    self->clicked = FALSE;
    if (self->programmatic) {
        self->last_line = line;
        return;
    }
    if (line == self->last_line && !clicked)
        return;
    self->last_line = line;
    g_signal_emit(self, sigs[SIG_LINE_SELECTED], 0, line);
}

static void on_buffer_changed(TkvCodeView *self)
{
    GtkTextBuffer *buffer = gtk_text_view_get_buffer(GTK_TEXT_VIEW(self));
    if (self->watched == buffer)
        return;
    if (self->watched) {
        g_signal_handlers_disconnect_by_data(self->watched, self);
        g_object_unref(self->watched);
    }
    self->watched = buffer ? g_object_ref(buffer) : NULL;
    if (buffer) {
        g_signal_connect(buffer, "mark-set", G_CALLBACK(on_mark_set), self);
        self->last_line = line_of_insert(buffer);
        show_selected_lines(buffer);
        if (GTK_SOURCE_IS_BUFFER(buffer))
            apply_scheme(GTK_SOURCE_BUFFER(buffer));
    }
}

static void on_style_changed(TkvCodeView *self)
{
    update_colors(self);
    GtkTextBuffer *buffer = gtk_text_view_get_buffer(GTK_TEXT_VIEW(self));
    if (GTK_SOURCE_IS_BUFFER(buffer))
        apply_scheme(GTK_SOURCE_BUFFER(buffer));
}

static void on_click_pressed(GtkGestureClick *gesture, int n, double x, double y,
                             TkvCodeView *self)
{
    self->clicked = TRUE;
}

/* ---- painting ------------------------------------------------------------- */

/* The current block (a diff's current change): a frame around its lines in
 * the current-match color, or a bar where lines would be for a side that has
 * none (a deletion seen from B). */
static void snapshot_block(TkvCodeView *self, GtkSnapshot *snapshot)
{
    GtkTextView *tv = GTK_TEXT_VIEW(self);
    GtkTextBuffer *b = buffer_of(self);
    guint lc = (guint)gtk_text_buffer_get_line_count(b);
    GtkTextIter it;
    int y0, h0, y1, h1;
    GdkRectangle vis;
    gtk_text_view_get_visible_rect(tv, &vis);
    gboolean past_end = self->block_first > lc;
    gtk_text_buffer_get_iter_at_line(b, &it, (int)MIN(self->block_first, lc) - 1);
    gtk_text_view_get_line_yrange(tv, &it, &y0, &h0);
    if (past_end)
        y0 += h0;
    GdkRGBA c = self->colors[TKV_HL_MATCH_CURRENT];
    c.alpha = 1.0f;
    float x = (float)vis.x, w = (float)vis.width;
    if (self->block_n == 0) {
        gtk_snapshot_append_color(snapshot, &c, &GRAPHENE_RECT_INIT(x, (float)y0 - 1.5f, w, 3));
        return;
    }
    guint last = MIN(self->block_first + self->block_n - 1, lc);
    gtk_text_buffer_get_iter_at_line(b, &it, (int)last - 1);
    gtk_text_view_get_line_yrange(tv, &it, &y1, &h1);
    float top = (float)y0, bottom = (float)(y1 + h1);
    gtk_snapshot_append_color(snapshot, &c, &GRAPHENE_RECT_INIT(x, top, w, 2));
    gtk_snapshot_append_color(snapshot, &c, &GRAPHENE_RECT_INIT(x, bottom - 2, w, 2));
    gtk_snapshot_append_color(snapshot, &c, &GRAPHENE_RECT_INIT(x, top, 4, bottom - top));
}

/* The find bar's hits on screen, under the text and over the lines'
 * highlights: the first at or after the top line is found by bisection, so
 * a pane with thousands of hits paints only those in view. */
static void snapshot_find_hits(TkvCodeView *self, GtkSnapshot *snapshot)
{
    GtkTextView *tv = GTK_TEXT_VIEW(self);
    GtkTextBuffer *b = buffer_of(self);
    GdkRectangle vis;
    gtk_text_view_get_visible_rect(tv, &vis);
    GtkTextIter top, bottom;
    gtk_text_view_get_line_at_y(tv, &top, vis.y, NULL);
    gtk_text_view_get_line_at_y(tv, &bottom, vis.y + vis.height, NULL);
    guint32 first = (guint32)gtk_text_iter_get_line(&top) + 1;
    guint32 last = (guint32)gtk_text_iter_get_line(&bottom) + 1;
    const TkvFindHit *h = (const TkvFindHit *)(void *)self->find_hits->data;
    guint n = self->find_hits->len, lo = 0, hi = n;
    while (lo < hi) {
        guint mid = lo + (hi - lo) / 2;
        if (h[mid].line < first)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (guint i = lo; i < n && h[i].line <= last; i++) {
        GtkTextIter s0, e0;
        gtk_text_buffer_get_iter_at_line(b, &s0, (int)h[i].line - 1);
        int bytes = gtk_text_iter_get_bytes_in_line(&s0);
        if ((int)h[i].start >= bytes)
            continue;
        gtk_text_buffer_get_iter_at_line_index(b, &s0, (int)h[i].line - 1, (int)h[i].start);
        gtk_text_buffer_get_iter_at_line_index(b, &e0, (int)h[i].line - 1,
                                               MIN((int)h[i].end, bytes));
        /* a hit in the hidden tail of a folded line shows once the line is
         * shown whole (the find bar does that for the current one) */
        if (tkv_buffer_lines_hidden(b, h[i].line - 1) &&
            gtk_text_iter_get_line_offset(&s0) >= TKV_FOLD_COLUMN)
            continue;
        GdkRectangle rs, re;
        gtk_text_view_get_iter_location(tv, &s0, &rs);
        gtk_text_view_get_iter_location(tv, &e0, &re);
        if (re.y != rs.y)
            re.x = vis.x + vis.width; /* wrapped: to the edge */
        int x0 = rs.x, x1 = MAX(re.x, rs.x + 2);
        gtk_snapshot_append_color(snapshot, &self->find_color[(int)i == self->find_current],
                                  &GRAPHENE_RECT_INIT((float)x0, (float)rs.y, (float)(x1 - x0),
                                                      (float)rs.height));
    }
}

/* Below the text: the highlighted lines on screen, the full width (above
 * GtkSourceView's current-line color, as paragraph backgrounds were).
 * Above it: "… N more" after each folded line on screen.  Coordinates are
 * the buffer's. */
static void tkv_code_view_snapshot_layer(GtkTextView *tv, GtkTextViewLayer layer,
                                         GtkSnapshot *snapshot)
{
    GTK_TEXT_VIEW_CLASS(tkv_code_view_parent_class)->snapshot_layer(tv, layer, snapshot);
    TkvCodeView *self = TKV_CODE_VIEW(tv);
    GtkTextBuffer *b = gtk_text_view_get_buffer(tv);
    if (layer == GTK_TEXT_VIEW_LAYER_ABOVE_TEXT && self->block_first)
        snapshot_block(self, snapshot);
    if (layer == GTK_TEXT_VIEW_LAYER_BELOW_TEXT && self->find_hits->len && self->find_buf == b)
        snapshot_find_hits(self, snapshot);
    gboolean below = layer == GTK_TEXT_VIEW_LAYER_BELOW_TEXT;
    gboolean dim = !below && tkv_buffer_lines_any_dim(b);
    if (below ? !tkv_buffer_lines_any(b) : !tkv_buffer_lines_any_folded(b) && !dim)
        return;
    GdkRectangle vis;
    gtk_text_view_get_visible_rect(tv, &vis);
    PangoLayout *marker = NULL;
    GtkTextIter it;
    gtk_text_view_get_line_at_y(tv, &it, vis.y, NULL);
    for (;;) {
        int y, h;
        gtk_text_view_get_line_yrange(tv, &it, &y, &h);
        if (y >= vis.y + vis.height)
            break;
        guint line0 = (guint)gtk_text_iter_get_line(&it);
        int kind;
        guint hidden;
        if (dim && h > 0 && tkv_buffer_lines_is_dim(b, line0))
            /* not code (a .loc, a //## comment): the text shows through */
            gtk_snapshot_append_color(snapshot, &self->dim_color,
                                      &GRAPHENE_RECT_INIT((float)vis.x, (float)y,
                                                          (float)vis.width, (float)h));
        if (below && h > 0 && (kind = tkv_buffer_lines_top(b, line0)) >= 0) {
            gtk_snapshot_append_color(snapshot, &self->colors[kind],
                                      &GRAPHENE_RECT_INIT((float)vis.x, (float)y,
                                                          (float)vis.width, (float)h));
        } else if (!below && (hidden = tkv_buffer_lines_hidden(b, line0))) {
            GtkTextIter last = it;
            GdkRectangle r;
            gtk_text_iter_set_line_offset(&last, TKV_FOLD_COLUMN - 1);
            gtk_text_view_get_iter_location(tv, &last, &r);
            if (!marker)
                marker = gtk_widget_create_pango_layout(GTK_WIDGET(tv), NULL);
            char text[64];
            g_snprintf(text, sizeof text, " \xe2\x80\xa6 %u more", hidden); /* U+2026 */
            pango_layout_set_text(marker, text, -1);
            gtk_snapshot_save(snapshot);
            gtk_snapshot_translate(snapshot, &GRAPHENE_POINT_INIT((float)(r.x + r.width), (float)y));
            gtk_snapshot_append_layout(snapshot, marker, &self->fold_color);
            gtk_snapshot_restore(snapshot);
        }
        if (!gtk_text_iter_forward_line(&it))
            break;
    }
    g_clear_object(&marker);
}



/* The view's nodes without the glyphs far outside it (tkv_cull.h says why):
 * a long line's runs left and right of the pane. */
static void tkv_code_view_snapshot(GtkWidget *widget, GtkSnapshot *snapshot)
{
    GtkSnapshot *inner = gtk_snapshot_new();
    GTK_WIDGET_CLASS(tkv_code_view_parent_class)->snapshot(widget, inner);
    GskRenderNode *node = gtk_snapshot_free_to_node(inner);
    if (!node)
        return;
    graphene_rect_t r = GRAPHENE_RECT_INIT(0, 0, (float)gtk_widget_get_width(widget),
                                           (float)gtk_widget_get_height(widget));
    GskRenderNode *kept = tkv_cull_node(node, &r);
    if (kept) {
        gtk_snapshot_append_node(snapshot, kept);
        gsk_render_node_unref(kept);
    }
    gsk_render_node_unref(node);
}

/* ---- GObject -------------------------------------------------------------- */

static void stop_top_tick(TkvCodeView *self)
{
    if (self->top_tick)
        gtk_widget_remove_tick_callback(GTK_WIDGET(self), self->top_tick);
    self->top_tick = 0;
    self->top_line = 0;
    if (self->center_tick)
        gtk_widget_remove_tick_callback(GTK_WIDGET(self), self->center_tick);
    self->center_tick = 0;
}

static void tkv_code_view_dispose(GObject *object)
{
    TkvCodeView *self = TKV_CODE_VIEW(object);
    stop_top_tick(self);
    if (self->watched) {
        g_signal_handlers_disconnect_by_data(self->watched, self);
        g_clear_object(&self->watched);
    }
    g_clear_object(&self->tagged);
    g_clear_object(&self->find_buf);
    g_signal_handlers_disconnect_by_data(tkv_style_get_default(), self);
    G_OBJECT_CLASS(tkv_code_view_parent_class)->dispose(object);
}

static void tkv_code_view_finalize(GObject *object)
{
    TkvCodeView *self = TKV_CODE_VIEW(object);
    g_array_unref(self->matches);
    g_array_unref(self->find_hits);
    g_array_unref(self->context);
    g_array_unref(self->approx);
    G_OBJECT_CLASS(tkv_code_view_parent_class)->finalize(object);
}

static void tkv_code_view_class_init(TkvCodeViewClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    oc->dispose = tkv_code_view_dispose;
    oc->finalize = tkv_code_view_finalize;
    GTK_TEXT_VIEW_CLASS(klass)->snapshot_layer = tkv_code_view_snapshot_layer;
    GTK_WIDGET_CLASS(klass)->snapshot = tkv_code_view_snapshot;
    sigs[SIG_LINE_SELECTED] = g_signal_new("line-selected", G_TYPE_FROM_CLASS(klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 1, G_TYPE_UINT);
    sigs[SIG_MATCHES_CHANGED] = g_signal_new("matches-changed", G_TYPE_FROM_CLASS(klass),
                                             G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                             G_TYPE_NONE, 0);
}

static void tkv_code_view_init(TkvCodeView *self)
{
    self->matches = g_array_new(FALSE, FALSE, sizeof(guint32));
    self->center_index = -1;
    self->find_hits = g_array_new(FALSE, FALSE, sizeof(TkvFindHit));
    self->find_current = -1;
    self->context = g_array_new(FALSE, FALSE, sizeof(guint32));
    self->approx = g_array_new(FALSE, FALSE, sizeof(guint32));
    self->current = -1;
    GtkTextView *tv = GTK_TEXT_VIEW(self);
    GtkSourceView *sv = GTK_SOURCE_VIEW(self);
    gtk_text_view_set_editable(tv, FALSE);
    gtk_text_view_set_monospace(tv, TRUE);
    gtk_text_view_set_cursor_visible(tv, TRUE);
    gtk_text_view_set_left_margin(tv, 4);
    /* Room for "… N more" after the longest folded line. */
    gtk_text_view_set_right_margin(tv, 120);
    /* Line numbers of our own (tkv_line_numbers.h says why), where
     * GtkSourceView puts its own. */
    gtk_source_view_set_show_line_numbers(sv, FALSE);
    gtk_source_gutter_insert(gtk_source_view_get_gutter(sv, GTK_TEXT_WINDOW_LEFT),
                             tkv_line_numbers_new(), GTK_SOURCE_VIEW_GUTTER_POSITION_LINES);
    gtk_source_view_set_highlight_current_line(sv, TRUE);
    gtk_source_view_set_tab_width(sv, 8);
    gtk_widget_add_css_class(GTK_WIDGET(self), "tkv-code");
    self->gutter = tkv_bind_gutter_new();
    gtk_source_gutter_insert(gtk_source_view_get_gutter(sv, GTK_TEXT_WINDOW_LEFT),
                             self->gutter, 0);
    /* the cost column, right of the bar (no room taken until asked for) */
    self->heat = tkv_heat_gutter_new();
    gtk_source_gutter_insert(gtk_source_view_get_gutter(sv, GTK_TEXT_WINDOW_LEFT),
                             self->heat, 1);
    GtkGesture *click = gtk_gesture_click_new();
    gtk_event_controller_set_propagation_phase(GTK_EVENT_CONTROLLER(click), GTK_PHASE_CAPTURE);
    g_signal_connect(click, "pressed", G_CALLBACK(on_click_pressed), self);
    gtk_widget_add_controller(GTK_WIDGET(self), GTK_EVENT_CONTROLLER(click));
    g_signal_connect(self, "notify::buffer", G_CALLBACK(on_buffer_changed), NULL);
    g_signal_connect_swapped(tkv_style_get_default(), "changed", G_CALLBACK(on_style_changed),
                             self);
    on_buffer_changed(self);
    update_colors(self);
}

GtkWidget *tkv_code_view_new(void)
{
    return g_object_new(TKV_TYPE_CODE_VIEW, NULL);
}

void tkv_code_view_set_line_state_func(TkvCodeView *self, TkvLineStateFunc func,
                                       gpointer data, gboolean show_counts)
{
    tkv_bind_gutter_set_func(TKV_BIND_GUTTER(self->gutter), func, data);
    tkv_bind_gutter_set_show_counts(TKV_BIND_GUTTER(self->gutter), show_counts);
}

void tkv_code_view_refresh_gutter(TkvCodeView *self)
{
    gtk_widget_queue_draw(GTK_WIDGET(self->gutter));
    gtk_widget_queue_draw(GTK_WIDGET(self->heat));
}

void tkv_code_view_set_heat_func(TkvCodeView *self, TkvHeatFunc func, TkvHeatTipFunc tip,
                                 gpointer data)
{
    tkv_heat_gutter_set_func(TKV_HEAT_GUTTER(self->heat), func, tip, data);
}


/* ---- scrolling to a line or a group of lines ---------------------------------- */

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
    stop_top_tick(self);
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

static void show_group(TkvCodeView *self, int index, int dir)
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

void tkv_code_view_set_find_hits(TkvCodeView *self, const TkvFindHit *hits, gsize n,
                                 int current)
{
    g_array_set_size(self->find_hits, 0);
    if (n)
        g_array_append_vals(self->find_hits, hits, (guint)n);
    GtkTextBuffer *b = n ? buffer_of(self) : NULL;
    if (b)
        g_object_ref(b);
    g_clear_object(&self->find_buf);
    self->find_buf = b;
    self->find_current = current;
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

void tkv_code_view_set_find_current(TkvCodeView *self, int current)
{
    if (self->find_current == current)
        return;
    self->find_current = current;
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

void tkv_code_view_set_current_block(TkvCodeView *self, guint first, guint n)
{
    self->block_first = first;
    self->block_n = n;
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

guint tkv_code_view_get_current_block(TkvCodeView *self, guint *n)
{
    if (n)
        *n = self->block_n;
    return self->block_first;
}

/* ---- highlights ------------------------------------------------------------ */

static void mark_array(GtkTextBuffer *b, TkvHighlight kind, GArray *lines, gboolean on)
{
    tkv_buffer_lines_mark_list(b, kind, (const guint32 *)(void *)lines->data, lines->len, on);
}

static void untag_previous(TkvCodeView *self)
{
    GtkTextBuffer *b = self->tagged;
    if (!b)
        return;
    mark_array(b, TKV_HL_CONTEXT, self->context, FALSE);
    mark_array(b, TKV_HL_APPROX, self->approx, FALSE);
    tkv_buffer_lines_mark_list(b, TKV_HL_MATCH, (const guint32 *)(void *)self->matches->data,
                               self->matches->len, FALSE);
    if (self->current >= 0)
        tkv_buffer_lines_mark(b, TKV_HL_MATCH_CURRENT,
                              g_array_index(self->matches, guint32, self->current), 1, FALSE);
    if (self->selected)
        tkv_buffer_lines_mark(b, TKV_HL_SELECTED, self->selected, 1, FALSE);
}

static void retag(TkvCodeView *self)
{
    GtkTextBuffer *b = buffer_of(self);
    g_set_object(&self->tagged, b);
    mark_array(b, TKV_HL_CONTEXT, self->context, TRUE);
    mark_array(b, TKV_HL_APPROX, self->approx, TRUE);
    tkv_buffer_lines_mark_list(b, TKV_HL_MATCH, (const guint32 *)(void *)self->matches->data,
                               self->matches->len, TRUE);
    if (self->current >= 0)
        tkv_buffer_lines_mark(b, TKV_HL_MATCH_CURRENT,
                              g_array_index(self->matches, guint32, self->current), 1, TRUE);
    if (self->selected)
        tkv_buffer_lines_mark(b, TKV_HL_SELECTED, self->selected, 1, TRUE);
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

void tkv_code_view_set_matches(TkvCodeView *self, const guint32 *lines, gsize n,
                               gboolean scroll)
{
    untag_previous(self);
    g_array_set_size(self->matches, 0);
    g_array_append_vals(self->matches, lines, (guint)n);
    g_array_set_size(self->context, 0);
    g_array_set_size(self->approx, 0);
    self->current = n ? 0 : -1;
    self->center_index = -1; /* the group kept centred was of the old ones */
    retag(self);
    if (scroll && n)
        show_group(self, 0, 1);
    g_signal_emit(self, sigs[SIG_MATCHES_CHANGED], 0);
}

void tkv_code_view_set_context(TkvCodeView *self, const guint32 *lines, gsize n)
{
    untag_previous(self);
    g_array_set_size(self->context, 0);
    g_array_append_vals(self->context, lines, (guint)n);
    retag(self);
}

void tkv_code_view_set_approx(TkvCodeView *self, const guint32 *lines, gsize n)
{
    untag_previous(self);
    g_array_set_size(self->approx, 0);
    g_array_append_vals(self->approx, lines, (guint)n);
    retag(self);
}

gsize tkv_code_view_get_matches(TkvCodeView *self, const guint32 **lines)
{
    *lines = (const guint32 *)(void *)self->matches->data;
    return self->matches->len;
}

int tkv_code_view_get_match_index(TkvCodeView *self) { return self->current; }

gboolean tkv_code_view_step_match(TkvCodeView *self, int delta)
{
    int n = (int)self->matches->len;
    if (!n)
        return FALSE;
    untag_previous(self);
    self->current = ((self->current + delta) % n + n) % n;
    retag(self);
    show_group(self, self->current, delta < 0 ? -1 : 1);
    g_signal_emit(self, sigs[SIG_MATCHES_CHANGED], 0);
    return TRUE;
}

void tkv_code_view_set_selected(TkvCodeView *self, guint line, gboolean move_cursor,
                                gboolean scroll)
{
    untag_previous(self);
    self->selected = line;
    retag(self);
    if (line && move_cursor) {
        GtkTextBuffer *b = buffer_of(self);
        GtkTextIter it;
        gtk_text_buffer_get_iter_at_line(b, &it, (int)line - 1);
        self->programmatic = TRUE;
        gtk_text_buffer_place_cursor(b, &it);
        self->programmatic = FALSE;
    }
    if (line && scroll)
        tkv_code_view_scroll_to_line(self, line);
}

guint tkv_code_view_get_selected(TkvCodeView *self) { return self->selected; }

void tkv_code_view_tag_lines(TkvCodeView *self, const char *tag, guint first, guint n)
{
    int kind = tkv_highlight_from_name(tag);
    if (kind < 0)
        return;
    tkv_buffer_lines_mark(buffer_of(self), (TkvHighlight)kind, first, n, TRUE);
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

void tkv_code_view_clear_tag(TkvCodeView *self, const char *tag)
{
    int kind = tkv_highlight_from_name(tag);
    if (kind < 0)
        return;
    tkv_buffer_lines_clear(buffer_of(self), (TkvHighlight)kind);
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

GArray *tkv_code_view_get_tagged_lines(TkvCodeView *self, const char *name)
{
    int kind = tkv_highlight_from_name(name);
    if (kind < 0)
        return g_array_new(FALSE, FALSE, sizeof(guint32));
    return tkv_buffer_lines_list(buffer_of(self), (TkvHighlight)kind);
}

GArray *tkv_code_view_get_folded_lines(TkvCodeView *self)
{
    return tkv_buffer_lines_folded(buffer_of(self));
}

void tkv_code_view_scroll_to_line(TkvCodeView *self, guint line)
{
    stop_top_tick(self); /* a line asked for: no longer the opening scroll */
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
    GtkTextBuffer *b = buffer_of(self);
    GtkTextIter it;
    gtk_text_buffer_get_iter_at_line(b, &it, (int)line - 1);
    /* The cursor there too (no "line-selected": the program moves it), or
     * the first layout of a buffer just shown brings its first line back
     * into view. */
    self->programmatic = TRUE;
    gtk_text_buffer_place_cursor(b, &it);
    self->programmatic = FALSE;
    stop_top_tick(self);
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

guint tkv_code_view_get_cursor_line(TkvCodeView *self)
{
    return line_of_insert(buffer_of(self));
}

guint tkv_code_view_get_line_count(TkvCodeView *self)
{
    return (guint)gtk_text_buffer_get_line_count(buffer_of(self));
}
