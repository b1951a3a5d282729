/* tkv_code_view_paint.c - what a TkvCodeView paints around its text: the
 * lines' highlights, the find bar's hits, the current block, fold marks, and
 * its nodes culled to the view.  Apart from the widget: drawing is one job,
 * called by GTK each frame, that needs none of the widget's state changes. */
#include "widgets/tkv_code_view_private.h"

#include "widgets/tkv_cull.h"

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
void tkv_code_view_snapshot_layer(GtkTextView *tv, GtkTextViewLayer layer,
                                  GtkSnapshot *snapshot)
{
    GTK_TEXT_VIEW_CLASS(tkv_code_view_get_parent_class())->snapshot_layer(tv, layer, snapshot);
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

/* NODE (transfer none) in two translations that cancel out, by a key that
 * changes when the view has scrolled since the last frame: to GSK's diff of
 * this frame against the last a scrolled view is then one change, its
 * bounds.  Scrolled, every line of the view moved: the diff found one
 * rectangle a line, gave up past 30 (MAX_RECTS_IN_DIFF in GTK 4.8) and
 * repainted the whole window, the panes that had not changed too; a line
 * selection that scrolls a pane cost a third more main-thread CPU than one
 * that did not.  The key is a small integer: the two translations cancel
 * exactly, what is drawn is the same.  Caller unrefs the node returned. */
static GskRenderNode *wrap_scrolled(TkvCodeView *self, GskRenderNode *node)
{
    GtkAdjustment *h = gtk_scrollable_get_hadjustment(GTK_SCROLLABLE(self));
    GtkAdjustment *v = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(self));
    double x = h ? gtk_adjustment_get_value(h) : 0, y = v ? gtk_adjustment_get_value(v) : 0;
    if (x != self->drawn_x || y != self->drawn_y) {
        self->drawn_x = x;
        self->drawn_y = y;
        self->scroll_key = self->scroll_key == 1 ? 2 : 1;
    }
    float k = (float)(self->scroll_key ? self->scroll_key : 1);
    GskTransform *back = gsk_transform_translate(NULL, &GRAPHENE_POINT_INIT(0, -k));
    GskRenderNode *inner = gsk_transform_node_new(node, back);
    GskTransform *there = gsk_transform_translate(NULL, &GRAPHENE_POINT_INIT(0, k));
    GskRenderNode *outer = gsk_transform_node_new(inner, there);
    gsk_transform_unref(back);
    gsk_transform_unref(there);
    gsk_render_node_unref(inner);
    return outer;
}

/* The view's nodes without the glyphs far outside it (tkv_cull.h says why):
 * a long line's runs left and right of the pane. */
void tkv_code_view_snapshot(GtkWidget *widget, GtkSnapshot *snapshot)
{
    GtkSnapshot *inner = gtk_snapshot_new();
    GTK_WIDGET_CLASS(tkv_code_view_get_parent_class())->snapshot(widget, inner);
    GskRenderNode *node = gtk_snapshot_free_to_node(inner);
    if (!node)
        return;
    graphene_rect_t r = GRAPHENE_RECT_INIT(0, 0, (float)gtk_widget_get_width(widget),
                                           (float)gtk_widget_get_height(widget));
    GskRenderNode *kept = tkv_cull_node(node, &r);
    if (kept) {
        GskRenderNode *shown = wrap_scrolled(TKV_CODE_VIEW(widget), kept);
        gtk_snapshot_append_node(snapshot, shown);
        gsk_render_node_unref(shown);
        gsk_render_node_unref(kept);
    }
    gsk_render_node_unref(node);
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
