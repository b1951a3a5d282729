/* tkv_renderer.h - how GTK draws the viewer's windows.
 *
 * GTK 4 draws with OpenGL when it can.  On an X server without direct
 * rendering (no DRI2/DRI3: Xvfb, a remote X display) OpenGL is Mesa's
 * software rasterizer, which draws a window of text several times slower
 * than GTK's cairo renderer: a selection that costs 5 ms with cairo takes
 * 60-100 ms there.  So on such a display the cairo renderer is chosen,
 * unless GSK_RENDERER says otherwise. */
#ifndef TKV_RENDERER_H
#define TKV_RENDERER_H

/* Call after gtk_init(), before the first window is shown.  Returns the
 * renderer chosen ("cairo"), or NULL when GTK's default stands. */
const char *tkv_renderer_choose(void);

#endif
