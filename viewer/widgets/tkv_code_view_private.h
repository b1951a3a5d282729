/* tkv_code_view_private.h - what TkvCodeView's files share.
 *
 * TkvCodeView is one widget written in several files, each with one job:
 *   tkv_code_view.c         the widget: its signals, the cursor followed,
 *                           the match/context/selection highlights;
 *   tkv_code_view_buffer.c  the buffers it shows: made with the scheme,
 *                           highlighted in idle time, their text kept;
 *   tkv_code_view_paint.c   what it paints under and over the text: the
 *                           highlighted lines, find hits, the current
 *                           block, fold marks, culled nodes;
 *   tkv_code_view_scroll.c  scrolling a line to the top or the middle,
 *                           kept there by tick callbacks until it stays.
 * Nothing outside these files includes this header.
 */
#ifndef TKV_CODE_VIEW_PRIVATE_H
#define TKV_CODE_VIEW_PRIVATE_H

#include "widgets/tkv_buffer_lines.h"
#include "widgets/tkv_code_view.h"

G_BEGIN_DECLS

struct _TkvCodeView {
    GtkSourceView parent_instance;

    GtkSourceGutterRenderer *gutter;
    GtkSourceGutterRenderer *heat;
    GtkSourceGutterRenderer *numbers;

    GdkRGBA colors[TKV_HL_COUNT]; /* the highlights', from the style scheme */
    GdkRGBA fold_color;           /* "… N more" */
    GdkRGBA dim_color;            /* the background, half opaque: over lines
                                     that are not code */
    GdkRGBA find_color[2];        /* the find bar's hits, the current one */

    /* The find bar's hits in FIND_BUF (painted while it is the buffer
     * shown), ascending; FIND_CURRENT indexes them, -1: none. */
    GArray *find_hits;
    GtkTextBuffer *find_buf;
    int find_current;

    GArray *matches; /* guint32, ascending */
    GArray *context; /* guint32: highlighted, not stepped to */
    GArray *approx;  /* guint32: matches made on the innermost frame only */
    int current;     /* index into matches, -1 */
    guint selected;  /* 0: none */
    /* The buffer the match and selection highlights were put on (it may have
     * been swapped out since): they are removed from there. */
    GtkTextBuffer *tagged;

    GtkTextBuffer *watched; /* buffer whose mark-set we listen to */
    gboolean programmatic;  /* the program is moving the cursor */
    gboolean clicked;       /* a click is moving the cursor */
    guint last_line;

    /* scroll_to_top(): the line wanted at the top until the view has laid
     * out the lines above it, and the tick callback that keeps it there */
    guint top_line;
    guint top_tick;
    guint top_frames;
    guint top_stable; /* frames it has stayed there */
    /* center_lines(): the lines wanted in the middle, kept there the same
     * way until they stay */
    guint center_first, center_last;
    int center_index, center_dir; /* a group of matches (show_group); -1: none */
    guint center_tick;
    guint center_frames;
    guint center_stable;

    /* The block of lines marked current (a pass diff's current change):
     * lines [block_first, block_first + block_n), or a gap before
     * block_first when block_n is 0; block_first 0: none. */
    guint block_first, block_n;

    /* The scroll offsets the last frame was drawn at, and the key that
     * changes when they do (tkv_code_view_snapshot(): a scrolled view is
     * one damaged rectangle to the renderer, not one per line). */
    double drawn_x, drawn_y;
    int scroll_key;
};

/* The most frames an opening or centring scroll is kept up (top_tick,
 * center_tick). */
#define TOP_TICK_FRAMES 90

static inline GtkTextBuffer *buffer_of(TkvCodeView *self)
{
    return gtk_text_view_get_buffer(GTK_TEXT_VIEW(self));
}

/* Moves the cursor to LINE (1-based) without "line-selected": the program
 * moves it, not the user. */
void tkv_code_view_place_cursor(TkvCodeView *self, guint line);

/* GtkSourceView's class, which the paint methods chain up to. */
gpointer tkv_code_view_get_parent_class(void);

/* tkv_code_view_buffer.c: BUFFER in the current style scheme. */
void tkv_code_view_apply_scheme(GtkSourceBuffer *buffer);

/* tkv_code_view_paint.c: the GtkTextView and GtkWidget snapshot methods. */
void tkv_code_view_snapshot_layer(GtkTextView *tv, GtkTextViewLayer layer,
                                  GtkSnapshot *snapshot);
void tkv_code_view_snapshot(GtkWidget *widget, GtkSnapshot *snapshot);

/* tkv_code_view_scroll.c: stops the scrolls kept up by tick callbacks;
 * shows match INDEX with those after it (DIR 1) or before it (DIR -1)
 * that fit in half the view. */
void tkv_code_view_stop_scroll(TkvCodeView *self);
void tkv_code_view_show_group(TkvCodeView *self, int index, int dir);

G_END_DECLS

#endif
