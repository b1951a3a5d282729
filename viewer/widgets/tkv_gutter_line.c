/* tkv_gutter_line.c - the text line under a point of a gutter renderer
 * (tkv_gutter_line.h). */
#include "widgets/tkv_gutter_line.h"

guint tkv_gutter_line_at(GtkSourceGutterRenderer *renderer, double x, double y)
{
    GtkSourceView *view = gtk_source_gutter_renderer_get_view(renderer);
    double vx, vy;
    if (!view || !gtk_widget_translate_coordinates(GTK_WIDGET(renderer), GTK_WIDGET(view), x, y,
                                                   &vx, &vy))
        return 0;
    int bx, by;
    gtk_text_view_window_to_buffer_coords(GTK_TEXT_VIEW(view), GTK_TEXT_WINDOW_WIDGET, (int)vx,
                                          (int)vy, &bx, &by);
    GtkTextIter it;
    gtk_text_view_get_line_at_y(GTK_TEXT_VIEW(view), &it, by, NULL);
    return (guint)gtk_text_iter_get_line(&it) + 1;
}

#define DRAWN_MAX 512 /* more lines than a screen shows */

void tkv_gutter_drawn_note(GtkSourceGutterRenderer *renderer, guint line, float y, int h)
{
    GArray *a = g_object_get_data(G_OBJECT(renderer), "tkv-drawn");
    if (!a) {
        a = g_array_new(FALSE, FALSE, sizeof(TkvGutterDrawn));
        g_object_set_data_full(G_OBJECT(renderer), "tkv-drawn", a,
                               (GDestroyNotify)g_array_unref);
    }
    /* a new frame starts a new list: a frame drawing no line of this
     * gutter (no cost in view) must not leave the last one's */
    GdkFrameClock *clock = gtk_widget_get_frame_clock(GTK_WIDGET(renderer));
    gint64 frame = clock ? gdk_frame_clock_get_frame_counter(clock) : 0;
    gint64 *last = g_object_get_data(G_OBJECT(renderer), "tkv-drawn-frame");
    if (!last) {
        last = g_new0(gint64, 1);
        g_object_set_data_full(G_OBJECT(renderer), "tkv-drawn-frame", last, g_free);
    }
    if (*last != frame ||
        (a->len && g_array_index(a, TkvGutterDrawn, a->len - 1).line >= line + 1))
        g_array_set_size(a, 0);
    *last = frame;
    if (a->len >= DRAWN_MAX)
        return;
    /* the view's coordinates: the text's lines are measured there */
    GtkSourceView *view = gtk_source_gutter_renderer_get_view(renderer);
    double vx = 0, vy = y;
    if (view)
        gtk_widget_translate_coordinates(GTK_WIDGET(renderer), GTK_WIDGET(view), 0, y, &vx, &vy);
    TkvGutterDrawn d = {line + 1, (int)vy, h};
    g_array_append_val(a, d);
}

GArray *tkv_gutter_drawn(GtkSourceGutterRenderer *renderer, gint64 *frame)
{
    gint64 *last = g_object_get_data(G_OBJECT(renderer), "tkv-drawn-frame");
    *frame = last ? *last : -1;
    return g_object_get_data(G_OBJECT(renderer), "tkv-drawn");
}
