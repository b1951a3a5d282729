/* tkv_hot_row.h - one row of the hot lines table (tkv_hot_panel.h): a line
 * and its cost, as the table shows and sorts it. */
#ifndef TKV_HOT_ROW_H
#define TKV_HOT_ROW_H

#include <glib-object.h>

#include "document/tkv_document.h"

G_BEGIN_DECLS

#define TKV_TYPE_HOT_ROW (tkv_hot_row_get_type())
G_DECLARE_FINAL_TYPE(TkvHotRow, tkv_hot_row, TKV, HOT_ROW, GObject)

struct _TkvHotRow {
    GObject parent_instance;
    int stage; /* -1: a source line */
    tk_file_id file;
    guint line;
    double exact, inclusive, shared;
    char *where; /* "file.py:54", "1078" (owned) */
    const char *shown; /* in the table: the line alone when every row has one file */
    char *code; /* owned */
};

/* A row with no text yet (the caller sets where and code, g_strdup'd);
 * caller unrefs. */
TkvHotRow *tkv_hot_row_new(int stage, tk_file_id file, guint line, double exact, double incl,
                           double shared);

G_END_DECLS

#endif
