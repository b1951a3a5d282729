/* tkv_test_geometry.c - what of a window a person would see as broken,
 * for the screenshot tests (tkv_test_geometry.h): widgets drawn outside
 * the window, and labels cut short.
 *
 * A widget is "off the window" when its bounds, in the window's
 * coordinates, pass the window's edge or the edge of a widget around it
 * that cuts what it holds without scrolling it (a GtkPaned giving a pane
 * less than the pane needs: its buttons are not drawn), unless a
 * scrolling widget (a scrolled window, a viewport) holds it: what those
 * hold may be larger, that is what they scroll.
 * A label is "cut" when it is drawn with an ellipsis (Pango says so):
 * the test decides which labels may be cut (a long file name in its
 * menu's button may, with a tooltip; a pane title may, in the middle).
 */
#include "testing/tkv_test_geometry.h"

#include "testing/tkv_test_code.h"

/* Whether W scrolls what it holds: that may be larger than W. */
static gboolean scrolls(GtkWidget *w)
{
    return GTK_IS_SCROLLED_WINDOW(w) || GTK_IS_VIEWPORT(w) || GTK_IS_SCROLLABLE(w);
}

/* "GtkLabel label \"text\"": its type, CSS name and text, if any. */
static char *describe(GtkWidget *w)
{
    const char *text = GTK_IS_LABEL(w) ? gtk_label_get_text(GTK_LABEL(w))
                       : GTK_IS_BUTTON(w) ? gtk_button_get_label(GTK_BUTTON(w))
                                          : NULL;
    char *t = text ? g_utf8_substring(text, 0, MIN(g_utf8_strlen(text, -1), 40)) : NULL;
    char *d = g_strdup_printf("%s %s%s%s%s", G_OBJECT_TYPE_NAME(w), gtk_widget_get_css_name(w),
                              t ? " \"" : "", t ? t : "", t ? "\"" : "");
    g_free(t);
    return d;
}

typedef struct {
    GtkWidget *win;
    int width, height;
    JsonBuilder *off, *cut;
    int reported;
} walk;

/* Visits W, which must lie inside CLIP (window coordinates: the window
 * and every widget around W that cuts what it holds without scrolling it,
 * a GtkPaned among them); NULL inside a scrolling widget. */
static void visit(walk *k, GtkWidget *w, const graphene_rect_t *clip)
{
    if (!gtk_widget_get_mapped(w))
        return;
    graphene_rect_t r, in;
    gboolean have = gtk_widget_compute_bounds(w, k->win, &r) && r.size.width > 0 &&
                    r.size.height > 0;
    if (clip && have && w != k->win && k->reported < 40 &&
        (r.origin.x < clip->origin.x - 1 || r.origin.y < clip->origin.y - 1 ||
         r.origin.x + r.size.width > clip->origin.x + clip->size.width + 1 ||
         r.origin.y + r.size.height > clip->origin.y + clip->size.height + 1)) {
        char *d = describe(w);
        char *s = g_strdup_printf("%s at %.0f,%.0f %.0fx%.0f (shown: %.0f,%.0f %.0fx%.0f)", d,
                                  r.origin.x, r.origin.y, r.size.width, r.size.height,
                                  clip->origin.x, clip->origin.y, clip->size.width,
                                  clip->size.height);
        json_builder_add_string_value(k->off, s);
        k->reported++;
        g_free(s);
        g_free(d);
        return; /* its children are cut with it: one line says it */
    }
    if (GTK_IS_LABEL(w) && gtk_label_get_ellipsize(GTK_LABEL(w)) != PANGO_ELLIPSIZE_NONE &&
        pango_layout_is_ellipsized(gtk_label_get_layout(GTK_LABEL(w)))) {
        json_builder_begin_object(k->cut);
        json_builder_set_member_name(k->cut, "text");
        json_builder_add_string_value(k->cut, gtk_label_get_text(GTK_LABEL(w)));
        json_builder_set_member_name(k->cut, "tooltip");
        /* a text set, or one asked for when shown (query-tooltip) */
        json_builder_add_boolean_value(k->cut, gtk_widget_get_has_tooltip(w));
        json_builder_end_object(k->cut);
    }
    const graphene_rect_t *inner = clip;
    if (!clip || (w != k->win && scrolls(w)))
        inner = NULL;
    else if (w != k->win && have && gtk_widget_get_overflow(w) == GTK_OVERFLOW_HIDDEN &&
             graphene_rect_intersection(clip, &r, &in))
        inner = &in;
    for (GtkWidget *ch = gtk_widget_get_first_child(w); ch; ch = gtk_widget_get_next_sibling(ch))
        visit(k, ch, inner);
}

void tkv_test_geometry_write(GtkWindow *win, JsonBuilder *b)
{
    GtkWidget *w = GTK_WIDGET(win);
    walk k = {w, gtk_widget_get_width(w), gtk_widget_get_height(w), json_builder_new(),
              json_builder_new(), 0};
    json_builder_begin_array(k.off);
    json_builder_begin_array(k.cut);
    graphene_rect_t all = GRAPHENE_RECT_INIT(0, 0, (float)k.width, (float)k.height);
    visit(&k, w, &all);
    json_builder_end_array(k.off);
    json_builder_end_array(k.cut);
    json_builder_set_member_name(b, "geometry");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "width");
    json_builder_add_int_value(b, k.width);
    json_builder_set_member_name(b, "height");
    json_builder_add_int_value(b, k.height);
    json_builder_set_member_name(b, "off_window");
    json_builder_add_value(b, json_builder_get_root(k.off));
    json_builder_set_member_name(b, "cut_labels");
    json_builder_add_value(b, json_builder_get_root(k.cut));
    tkv_test_code_write(win, b);
    json_builder_end_object(b);
    g_object_unref(k.off);
    g_object_unref(k.cut);
}
