/* tkv_pass_rows.h - the rows of a pass diff's two sides (tkv_pass_rows.c),
 * made on any thread from the diff alone. */
#ifndef TKV_PASS_ROWS_H
#define TKV_PASS_ROWS_H

#include <glib.h>

#include "tkdump/tk_ir_diff.h"

G_BEGIN_DECLS

typedef struct {
    GString *text[2];   /* each side's rows, one line each, safe for a buffer */
    GArray *orig[2];    /* guint32 per row: the side's line number, 0 for a note */
    GArray *off[2];     /* gsize per row: where it starts in text[] (the view
                           fills its buffers by rows: tkv_pass_view_fill.c) */
    GArray *hunks;      /* tk_hunk over rows (0-based) */
    guint32 rows[2];    /* rows per side */
    tk_ir_diff_cut cut; /* what a diff too big to show whole left out (cut.cut 0: whole) */
} TkvPassRows;

/* The rows of D, whole or cut to the budget; reads D only (fills its
 * tk_ir_diff_aligned() cache): call it on the thread that holds D.  Caller
 * frees with tkv_pass_rows_free(). */
TkvPassRows *tkv_pass_rows_make(tk_ir_diff *d);
/* Frees R (may be NULL); a GDestroyNotify. */
void tkv_pass_rows_free(gpointer r);

G_END_DECLS

#endif
