/* tkv_code_view.c - read-only source view with line highlights: the widget,
 * its signals and highlights (tkv_code_view_private.h lists its other files). */
#include "widgets/tkv_code_view_private.h"

#include "widgets/tkv_code_prefs.h"
#include "widgets/tkv_gutter_line.h"

#include "widgets/tkv_line_numbers.h"
#include "widgets/tkv_style.h"

G_DEFINE_FINAL_TYPE(TkvCodeView, tkv_code_view, GTK_SOURCE_TYPE_VIEW)

enum { SIG_LINE_SELECTED, SIG_MATCHES_CHANGED, N_SIGS };
static guint sigs[N_SIGS];

void tkv_code_view_place_cursor(TkvCodeView *self, guint line)
{
    GtkTextBuffer *b = buffer_of(self);
    GtkTextIter it;
    gtk_text_buffer_get_iter_at_line(b, &it, (int)line - 1);
    self->programmatic = TRUE;
    gtk_text_buffer_place_cursor(b, &it);
    self->programmatic = FALSE;
}

gpointer tkv_code_view_get_parent_class(void)
{
    return tkv_code_view_parent_class;
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

static void untag_previous(TkvCodeView *self);

static void on_buffer_changed(TkvCodeView *self)
{
    GtkTextBuffer *buffer = gtk_text_view_get_buffer(GTK_TEXT_VIEW(self));
    if (self->watched == buffer)
        return;
    if (self->watched) {
        g_signal_handlers_disconnect_by_data(self->watched, self);
        /* The highlights go with the buffer let go of (a buffer shown
         * again is highlighted again by the next set_*()), and so does the
         * reference that kept it tagged: the view's last word on it, which
         * finalizes it in idle time (tkv_code_view_retire_buffer()). */
        if (self->tagged == self->watched) {
            untag_previous(self);
            g_clear_object(&self->tagged);
        }
        tkv_code_view_retire_buffer(g_steal_pointer(&self->watched));
    }
    self->watched = buffer ? g_object_ref(buffer) : NULL;
    if (buffer) {
        g_signal_connect(buffer, "mark-set", G_CALLBACK(on_mark_set), self);
        self->last_line = line_of_insert(buffer);
        show_selected_lines(buffer);
        if (GTK_SOURCE_IS_BUFFER(buffer))
            tkv_code_view_apply_scheme(GTK_SOURCE_BUFFER(buffer));
    }
}

static void on_style_changed(TkvCodeView *self)
{
    update_colors(self);
    GtkTextBuffer *buffer = gtk_text_view_get_buffer(GTK_TEXT_VIEW(self));
    if (GTK_SOURCE_IS_BUFFER(buffer))
        tkv_code_view_apply_scheme(GTK_SOURCE_BUFFER(buffer));
}

static void on_click_pressed(GtkGestureClick *gesture, int n, double x, double y,
                             TkvCodeView *self)
{
    self->clicked = TRUE;
}

/* GTK 4.8 aborts a running scroll animation when a GtkScrolledWindow is
 * unmapped (gtk_adjustment_enable_animation with no clock), and the value
 * it jumps to makes GtkTextView set the adjustment again from inside
 * "value-changed": that ends the animation a second time and GTK
 * disconnects its tick handler 0 ("g_signal_handler_disconnect: assertion
 * 'handler_id > 0' failed").  Seen when a stage is switched, or a window
 * closed, while scroll_to_mark still animates (easily under ASan).  Our
 * children are unmapped before the scrolled window ends its animations, so
 * stop them here, at their current value: a view that is not shown is
 * scrolled again when it is. */
static void stop_animation(GtkAdjustment *adj)
{
    if (adj)
        gtk_adjustment_set_value(adj, gtk_adjustment_get_value(adj));
}

static void tkv_code_view_unmap(GtkWidget *widget)
{
    stop_animation(gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(widget)));
    stop_animation(gtk_scrollable_get_hadjustment(GTK_SCROLLABLE(widget)));
    GTK_WIDGET_CLASS(tkv_code_view_parent_class)->unmap(widget);
}

/* ---- GObject -------------------------------------------------------------- */

static void tkv_code_view_dispose(GObject *object)
{
    TkvCodeView *self = TKV_CODE_VIEW(object);
    tkv_code_view_stop_scroll(self);
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
    GTK_WIDGET_CLASS(klass)->unmap = tkv_code_view_unmap;
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
    self->numbers = tkv_line_numbers_new();
    gtk_source_gutter_insert(gtk_source_view_get_gutter(sv, GTK_TEXT_WINDOW_LEFT),
                             self->numbers, GTK_SOURCE_VIEW_GUTTER_POSITION_LINES);
    gtk_source_view_set_highlight_current_line(sv, TRUE);
    gtk_source_view_set_tab_width(sv, 8);
    tkv_code_prefs_follow(tv); /* zoom and wrap */
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
        tkv_code_view_show_group(self, 0, 1);
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
    tkv_code_view_show_group(self, self->current, delta < 0 ? -1 : 1);
    g_signal_emit(self, sigs[SIG_MATCHES_CHANGED], 0);
    return TRUE;
}

void tkv_code_view_set_selected(TkvCodeView *self, guint line, gboolean move_cursor,
                                gboolean scroll)
{
    untag_previous(self);
    self->selected = line;
    retag(self);
    if (line && move_cursor)
        tkv_code_view_place_cursor(self, line);
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

guint tkv_code_view_get_cursor_line(TkvCodeView *self)
{
    return line_of_insert(buffer_of(self));
}

guint tkv_code_view_get_line_count(TkvCodeView *self)
{
    return (guint)gtk_text_buffer_get_line_count(buffer_of(self));
}

GArray *tkv_code_view_get_gutter_drawn(TkvCodeView *self, gboolean heat)
{
    gint64 fn, fh;
    GArray *numbers = tkv_gutter_drawn(self->numbers, &fn);
    if (!heat)
        return numbers;
    /* the numbers are drawn on every frame of the gutter, the cost only on
     * lines that have one: a list from an older frame is not on screen */
    GArray *cost = tkv_gutter_drawn(self->heat, &fh);
    return fh == fn ? cost : NULL;
}
