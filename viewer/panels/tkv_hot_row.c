/* tkv_hot_row.c - one row of the hot lines table. */
#include "panels/tkv_hot_row.h"

G_DEFINE_FINAL_TYPE(TkvHotRow, tkv_hot_row, G_TYPE_OBJECT)

static void tkv_hot_row_finalize(GObject *o)
{
    TkvHotRow *r = TKV_HOT_ROW(o);
    g_free(r->where);
    g_free(r->code);
    G_OBJECT_CLASS(tkv_hot_row_parent_class)->finalize(o);
}

static void tkv_hot_row_class_init(TkvHotRowClass *k)
{
    G_OBJECT_CLASS(k)->finalize = tkv_hot_row_finalize;
}

static void tkv_hot_row_init(TkvHotRow *r)
{
    (void)r;
}

TkvHotRow *tkv_hot_row_new(int stage, tk_file_id file, guint line, double exact, double incl,
                           double shared)
{
    TkvHotRow *r = g_object_new(TKV_TYPE_HOT_ROW, NULL);
    r->stage = stage;
    r->file = file;
    r->line = line;
    r->exact = exact;
    r->inclusive = incl;
    r->shared = shared;
    return r;
}
