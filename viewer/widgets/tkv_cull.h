/* tkv_cull.h - a render node without what lies outside a rectangle.
 *
 * GTK 4.8's cairo renderer (the one used where OpenGL would be software, as
 * under Xvfb: tkv_renderer.h) draws every node it is given, clipped, whether
 * or not any of it can be seen.  A GtkTextView draws each line whole: a line
 * of 256 characters in a pane 40 wide is six times the glyphs on screen, and
 * a selection's frame drew 14 000 glyphs for 6 000 visible.
 * tkv_cull_node() walks containers, clips and translations, leaves out the
 * nodes outside the rectangle and keeps of a text node the glyphs within
 * TKV_CULL_MARGIN pixels of it.  Other nodes are kept whole.
 */
#ifndef TKV_CULL_H
#define TKV_CULL_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TKV_CULL_MARGIN 64

/* NODE with what lies outside R (in NODE's coordinates) left out; NODE
 * itself when nothing is, NULL when all is.  Caller owns the returned
 * reference. */
GskRenderNode *tkv_cull_node(GskRenderNode *node, const graphene_rect_t *r);

G_END_DECLS

#endif
