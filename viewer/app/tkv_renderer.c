/* tkv_renderer.c - cairo where OpenGL would be software. */
#include "app/tkv_renderer.h"

#include <gtk/gtk.h>

#if defined(GDK_WINDOWING_X11) && defined(TKV_HAVE_X11)
#include <gdk/x11/gdkx.h>
#endif

const char *tkv_renderer_choose(void)
{
    if (g_getenv("GSK_RENDERER"))
        return NULL;
#if defined(GDK_WINDOWING_X11) && defined(TKV_HAVE_X11)
    GdkDisplay *display = gdk_display_get_default();
    if (display && GDK_IS_X11_DISPLAY(display)) {
        Display *x = gdk_x11_display_get_xdisplay(display);
        int op, ev, err;
        if (!XQueryExtension(x, "DRI3", &op, &ev, &err) &&
            !XQueryExtension(x, "DRI2", &op, &ev, &err)) {
            g_setenv("GSK_RENDERER", "cairo", TRUE);
            return "cairo";
        }
    }
#endif
    return NULL;
}
