/* tkv_test_code.c - the code panes as a person reads them (tkv_test_code.h).
 *
 * Each text view shown gets:
 *   "in"      the view it belongs to (TkvBindView, TkvPassView,
 *             TkvCompareView, ...), "" for none;
 *   "chars"   how many characters of a line it shows side by side (its
 *             text area's width over the font's character width);
 *   "font_pt" its font's size in points (at 96 dpi), "wrap" whether it
 *             wraps;
 *   "row"     the height of one row of text, in pixels;
 *   "numbers", "heat"  (code views) where the line numbers and the cost
 *             column drew their text in their last frame, beside where
 *             the line is: [line, text top, text height, line top, line
 *             height], the tops in the view's coordinates.  A number
 *             belongs on its line's first row.
 */
#include "testing/tkv_test_code.h"

#include "app/tkv_application.h"
#include "widgets/tkv_code_prefs.h"
#include "widgets/tkv_code_view.h"
#include "widgets/tkv_gutter_line.h"

#define DRAWN_MAX 80 /* lines listed per gutter */

static const char *owner_of(GtkWidget *w)
{
    for (GtkWidget *p = gtk_widget_get_parent(w); p; p = gtk_widget_get_parent(p)) {
        const char *t = G_OBJECT_TYPE_NAME(p);
        if (g_str_has_prefix(t, "Tkv") && g_str_has_suffix(t, "View") && !TKV_IS_CODE_VIEW(p))
            return t;
    }
    return "";
}

static void write_drawn(GtkTextView *tv, GArray *drawn, JsonBuilder *b)
{
    json_builder_begin_array(b);
    for (guint i = 0; drawn && i < drawn->len && i < DRAWN_MAX; i++) {
        TkvGutterDrawn *d = &g_array_index(drawn, TkvGutterDrawn, i);
        GtkTextIter it;
        if (!gtk_text_buffer_get_iter_at_line(gtk_text_view_get_buffer(tv), &it, (int)d->line - 1))
            continue;
        int y, h, wx, wy;
        gtk_text_view_get_line_yrange(tv, &it, &y, &h);
        gtk_text_view_buffer_to_window_coords(tv, GTK_TEXT_WINDOW_WIDGET, 0, y, &wx, &wy);
        json_builder_begin_array(b);
        json_builder_add_int_value(b, d->line);
        json_builder_add_int_value(b, d->y);
        json_builder_add_int_value(b, d->h);
        json_builder_add_int_value(b, wy);
        json_builder_add_int_value(b, h);
        json_builder_end_array(b);
    }
    json_builder_end_array(b);
}

static void write_view(GtkTextView *tv, JsonBuilder *b)
{
    GtkWidget *w = GTK_WIDGET(tv);
    PangoContext *pc = gtk_widget_get_pango_context(w);
    const PangoFontDescription *fd = pango_context_get_font_description(pc);
    PangoFontMetrics *m = pango_context_get_metrics(pc, fd, NULL);
    int cw = pango_font_metrics_get_approximate_char_width(m);
    int row = pango_font_metrics_get_height(m);
    pango_font_metrics_unref(m);
    GdkRectangle vis;
    gtk_text_view_get_visible_rect(tv, &vis);
    int text_w = vis.width - gtk_text_view_get_left_margin(tv);
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "in");
    json_builder_add_string_value(b, owner_of(w));
    json_builder_set_member_name(b, "chars");
    json_builder_add_int_value(b, cw > 0 ? (gint64)text_w * PANGO_SCALE / cw : 0);
    /* GTK gives the CSS size in pixels (an absolute size): 10pt is 13.3 px
     * at 96 dpi */
    double size = fd ? pango_font_description_get_size(fd) / (double)PANGO_SCALE : 0;
    if (fd && pango_font_description_get_size_is_absolute(fd))
        size *= 72.0 / 96.0;
    json_builder_set_member_name(b, "font_pt");
    json_builder_add_double_value(b, size);
    json_builder_set_member_name(b, "wrap");
    json_builder_add_boolean_value(b, gtk_text_view_get_wrap_mode(tv) != GTK_WRAP_NONE);
    json_builder_set_member_name(b, "row");
    json_builder_add_int_value(b, PANGO_PIXELS(row));
    if (TKV_IS_CODE_VIEW(tv)) {
        json_builder_set_member_name(b, "numbers");
        write_drawn(tv, tkv_code_view_get_gutter_drawn(TKV_CODE_VIEW(tv), FALSE), b);
        json_builder_set_member_name(b, "heat");
        write_drawn(tv, tkv_code_view_get_gutter_drawn(TKV_CODE_VIEW(tv), TRUE), b);
    }
    json_builder_end_object(b);
}

static void visit(GtkWidget *w, JsonBuilder *b)
{
    if (!gtk_widget_get_mapped(w))
        return;
    if (GTK_IS_TEXT_VIEW(w) && gtk_widget_has_css_class(w, "tkv-code")) {
        write_view(GTK_TEXT_VIEW(w), b);
        return;
    }
    for (GtkWidget *c = gtk_widget_get_first_child(w); c; c = gtk_widget_get_next_sibling(c))
        visit(c, b);
}

void tkv_test_code_write(GtkWindow *win, JsonBuilder *b)
{
    TkvCodePrefs *p = tkv_code_prefs_get_default();
    json_builder_set_member_name(b, "code");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "font_size");
    json_builder_add_int_value(b, tkv_code_prefs_get_font_size(p));
    json_builder_set_member_name(b, "wrap");
    json_builder_add_boolean_value(b, tkv_code_prefs_get_wrap(p));
    /* what the application's settings keep for the next run (-1: none) */
    GtkApplication *app = gtk_window_get_application(win);
    GSettings *s = TKV_IS_APPLICATION(app) ? tkv_application_get_settings(TKV_APPLICATION(app))
                                           : NULL;
    json_builder_set_member_name(b, "remembered_font_size");
    json_builder_add_int_value(b, s ? g_settings_get_int(s, "code-font-size") : -1);
    json_builder_set_member_name(b, "remembered_wrap");
    json_builder_add_int_value(b, s ? g_settings_get_boolean(s, "wrap-lines") : -1);
    json_builder_set_member_name(b, "views");
    json_builder_begin_array(b);
    visit(GTK_WIDGET(win), b);
    json_builder_end_array(b);
    json_builder_end_object(b);
}
