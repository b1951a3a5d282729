/* tkv_snapshot.c - render a widget to PNG. */
#include "testing/tkv_snapshot.h"

gboolean tkv_snapshot_to_png(GtkWidget *widget, const char *path, GError **error)
{
    int w = gtk_widget_get_width(widget), h = gtk_widget_get_height(widget);
    GtkNative *native = gtk_widget_get_native(widget);
    GskRenderer *renderer = native ? gtk_native_get_renderer(native) : NULL;
    if (w <= 0 || h <= 0 || !renderer) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "the window is not shown yet");
        return FALSE;
    }
    GdkPaintable *paintable = gtk_widget_paintable_new(widget);
    GtkSnapshot *snapshot = gtk_snapshot_new();
    /* An opaque background: the window's own may be transparent at the
     * rounded corners of client-side decorations. */
    GdkRGBA white = {1, 1, 1, 1};
    gtk_snapshot_append_color(snapshot, &white, &GRAPHENE_RECT_INIT(0, 0, (float)w, (float)h));
    gdk_paintable_snapshot(paintable, snapshot, w, h);
    GskRenderNode *node = gtk_snapshot_free_to_node(snapshot);
    gboolean ok = FALSE;
    if (node) {
        GdkTexture *tex = gsk_renderer_render_texture(renderer, node,
                                                      &GRAPHENE_RECT_INIT(0, 0, (float)w, (float)h));
        ok = gdk_texture_save_to_png(tex, path);
        g_object_unref(tex);
        gsk_render_node_unref(node);
    }
    g_object_unref(paintable);
    if (!ok)
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "could not write %s", path);
    return ok;
}
