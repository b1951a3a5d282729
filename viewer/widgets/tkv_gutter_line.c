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
