/* tkv_cull.c - render nodes culled to a rectangle. */
#include "widgets/tkv_cull.h"

/* The glyphs of a text node that come within TKV_CULL_MARGIN of R
 * horizontally (a line's run goes left to right). */
static GskRenderNode *cull_text(GskRenderNode *node, const graphene_rect_t *r)
{
    /* The number first: gsk_text_node_get_glyphs() is declared pure, so
     * its out-parameter may be optimized away. */
    guint n = gsk_text_node_get_num_glyphs(node);
    const PangoGlyphInfo *g = gsk_text_node_get_glyphs(node, NULL);
    const graphene_point_t *offset = gsk_text_node_get_offset(node);
    float left = r->origin.x - TKV_CULL_MARGIN;
    float right = r->origin.x + r->size.width + TKV_CULL_MARGIN;
    float x = offset->x, first_x = 0;
    guint first = n, end = 0;
    for (guint i = 0; i < n; i++) {
        float w = (float)g[i].geometry.width / PANGO_SCALE;
        if (x + w >= left && x <= right) {
            if (first == n) {
                first = i;
                first_x = x;
            }
            end = i + 1;
        }
        x += w;
    }
    if (first == n)
        return NULL;
    if (first == 0 && end == n)
        return gsk_render_node_ref(node);
    PangoGlyphString glyphs = {0};
    glyphs.num_glyphs = (int)(end - first);
    glyphs.glyphs = (PangoGlyphInfo *)(g + first);
    glyphs.log_clusters = g_newa(int, glyphs.num_glyphs);
    for (int i = 0; i < glyphs.num_glyphs; i++)
        glyphs.log_clusters[i] = i;
    return gsk_text_node_new(gsk_text_node_get_font(node), &glyphs,
                             gsk_text_node_get_color(node),
                             &GRAPHENE_POINT_INIT(first_x, offset->y));
}

/* CHILD culled: NODE itself when CHILD is unchanged, a copy of NODE
 * around the culled child made by WRAP, or NULL. */
static GskRenderNode *rewrap(GskRenderNode *node, GskRenderNode *child, GskRenderNode *kept,
                             GskRenderNode *(*wrap)(GskRenderNode *node, GskRenderNode *kept))
{
    GskRenderNode *out = kept == child ? gsk_render_node_ref(node) : kept ? wrap(node, kept) : NULL;
    if (kept)
        gsk_render_node_unref(kept);
    return out;
}

static GskRenderNode *wrap_clip(GskRenderNode *node, GskRenderNode *kept)
{
    return gsk_clip_node_new(kept, gsk_clip_node_get_clip(node));
}

static GskRenderNode *wrap_transform(GskRenderNode *node, GskRenderNode *kept)
{
    return gsk_transform_node_new(kept, gsk_transform_node_get_transform(node));
}

GskRenderNode *tkv_cull_node(GskRenderNode *node, const graphene_rect_t *r)
{
    graphene_rect_t b;
    gsk_render_node_get_bounds(node, &b);
    if (!graphene_rect_intersection(&b, r, NULL))
        return NULL;
    switch (gsk_render_node_get_node_type(node)) {
    case GSK_TEXT_NODE:
        return graphene_rect_contains_rect(r, &b) ? gsk_render_node_ref(node)
                                                  : cull_text(node, r);
    case GSK_CONTAINER_NODE: {
        /* Descended even when inside R: a clip below may hold more. */
        guint n = gsk_container_node_get_n_children(node), kept = 0;
        gboolean same = TRUE;
        GskRenderNode **children = g_new(GskRenderNode *, n ? n : 1);
        for (guint i = 0; i < n; i++) {
            GskRenderNode *c = gsk_container_node_get_child(node, i);
            GskRenderNode *k = tkv_cull_node(c, r);
            same &= k == c;
            if (k)
                children[kept++] = k;
        }
        GskRenderNode *out = same   ? gsk_render_node_ref(node)
                             : kept ? gsk_container_node_new(children, kept)
                                    : NULL;
        for (guint i = 0; i < kept; i++)
            gsk_render_node_unref(children[i]);
        g_free(children);
        return out;
    }
    case GSK_CLIP_NODE: {
        graphene_rect_t in;
        if (!graphene_rect_intersection(r, gsk_clip_node_get_clip(node), &in))
            return NULL;
        GskRenderNode *c = gsk_clip_node_get_child(node);
        return rewrap(node, c, tkv_cull_node(c, &in), wrap_clip);
    }
    case GSK_TRANSFORM_NODE: {
        GskTransform *t = gsk_transform_node_get_transform(node);
        if (gsk_transform_get_category(t) < GSK_TRANSFORM_CATEGORY_2D_TRANSLATE)
            return gsk_render_node_ref(node);
        float dx, dy;
        gsk_transform_to_translate(t, &dx, &dy);
        graphene_rect_t in;
        graphene_rect_offset_r(r, -dx, -dy, &in);
        GskRenderNode *c = gsk_transform_node_get_child(node);
        return rewrap(node, c, tkv_cull_node(c, &in), wrap_transform);
    }
    default:
        return gsk_render_node_ref(node);
    }
}
