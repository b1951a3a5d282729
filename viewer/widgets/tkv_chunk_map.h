/* tkv_chunk_map.h - the overview strip of a side-by-side diff (as in Meld):
 * every change of the whole diff drawn to scale, the A side on the left half
 * and the B side on the right, with the region the B pane shows outlined.
 * A click or drag asks for that place ("scroll-to", a fraction of B). */
#ifndef TKV_CHUNK_MAP_H
#define TKV_CHUNK_MAP_H

#include <gtk/gtk.h>

#include "tkdump/tk_diff.h"

G_BEGIN_DECLS

#define TKV_TYPE_CHUNK_MAP (tkv_chunk_map_get_type())
G_DECLARE_FINAL_TYPE(TkvChunkMap, tkv_chunk_map, TKV, CHUNK_MAP, GtkWidget)

GtkWidget *tkv_chunk_map_new(void);

/* The hunks (copied) over NA and NB lines; N 0 clears. */
void tkv_chunk_map_set_hunks(TkvChunkMap *self, const tk_hunk *hunks, size_t n, guint32 na,
                             guint32 nb);
/* The B pane's vertical adjustment, for the outline (may be NULL). */
void tkv_chunk_map_set_adjustment(TkvChunkMap *self, GtkAdjustment *adj);

/* Number of changes drawn, for tests. */
guint tkv_chunk_map_get_change_count(TkvChunkMap *self);

/* Signal "scroll-to" (double fraction of B, 0..1). */

G_END_DECLS

#endif
