/* diag.c - the diagnostics list. */
#include "tkdump/tk_diags.h"

#include <glib.h>
#include <stdarg.h>
#include <string.h>

typedef struct {
    char *file;
    size_t shown;   /* diagnostics kept for this file */
    size_t dropped; /* past the cap; summarized by tk_diags_get() */
    tk_diag_severity worst_dropped;
} file_count;

struct tk_diags {
    GArray *items;      /* tk_diag, strings owned */
    GHashTable *counts; /* file -> file_count*, to cap floods */
    GArray *summaries;  /* tk_diag: "N more" per capped file, built lazily */
    gboolean summaries_valid;
};

tk_diags *tk_diags_new(void)
{
    tk_diags *d = g_new0(tk_diags, 1);
    d->items = g_array_new(FALSE, FALSE, sizeof(tk_diag));
    d->counts = g_hash_table_new(g_str_hash, g_str_equal);
    d->summaries = g_array_new(FALSE, FALSE, sizeof(tk_diag));
    return d;
}

static void clear_summaries(tk_diags *d)
{
    for (guint i = 0; i < d->summaries->len; i++)
        g_free((char *)g_array_index(d->summaries, tk_diag, i).message);
    g_array_set_size(d->summaries, 0);
    d->summaries_valid = FALSE;
}

void tk_diags_free(tk_diags *d)
{
    if (!d)
        return;
    for (guint i = 0; i < d->items->len; i++) {
        tk_diag *x = &g_array_index(d->items, tk_diag, i);
        g_free((char *)x->message);
    }
    clear_summaries(d);
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, d->counts);
    while (g_hash_table_iter_next(&it, &k, &v)) {
        g_free(((file_count *)v)->file);
        g_free(v);
    }
    g_hash_table_destroy(d->counts);
    g_array_free(d->items, TRUE);
    g_array_free(d->summaries, TRUE);
    g_free(d);
}

void tk_diags_add(tk_diags *d, tk_diag_severity sev, const char *file,
                  uint64_t line, const char *fmt, ...)
{
    if (!d)
        return;
    if (!file)
        file = "";
    file_count *fc = g_hash_table_lookup(d->counts, file);
    if (!fc) {
        fc = g_new0(file_count, 1);
        fc->file = g_strdup(file);
        g_hash_table_insert(d->counts, fc->file, fc);
    }
    clear_summaries(d);
    if (fc->shown >= TK_DIAGS_PER_FILE) {
        if (fc->dropped == 0 || sev > fc->worst_dropped)
            fc->worst_dropped = sev;
        fc->dropped++;
        return;
    }
    fc->shown++;
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    tk_diag x = {sev, fc->file, line, msg};
    g_array_append_val(d->items, x);
}

static void build_summaries(const tk_diags *cd)
{
    tk_diags *d = (tk_diags *)cd; /* the summaries are a cache */
    if (d->summaries_valid)
        return;
    /* Report capped files in the order their first diagnostic came. */
    for (guint i = 0; i < d->items->len; i++) {
        const tk_diag *x = &g_array_index(d->items, tk_diag, i);
        file_count *fc = g_hash_table_lookup(d->counts, x->file);
        if (fc->dropped == 0 || (i > 0 && fc->shown == 0))
            continue;
        gboolean seen = FALSE;
        for (guint j = 0; j < d->summaries->len; j++)
            if (g_array_index(d->summaries, tk_diag, j).file == fc->file)
                seen = TRUE;
        if (seen)
            continue;
        tk_diag s = {fc->worst_dropped, fc->file, 0,
                     g_strdup_printf("%zu more diagnostics like these not shown",
                                     fc->dropped)};
        g_array_append_val(d->summaries, s);
    }
    d->summaries_valid = TRUE;
}

size_t tk_diags_count(const tk_diags *d)
{
    if (!d)
        return 0;
    build_summaries(d);
    return d->items->len + d->summaries->len;
}

const tk_diag *tk_diags_get(const tk_diags *d, size_t i)
{
    build_summaries(d);
    if (i < d->items->len)
        return &g_array_index(d->items, tk_diag, i);
    i -= d->items->len;
    if (i < d->summaries->len)
        return &g_array_index(d->summaries, tk_diag, i);
    return NULL;
}

size_t tk_diags_count_at_least(const tk_diags *d, tk_diag_severity sev)
{
    size_t n = 0, total = tk_diags_count(d);
    for (size_t i = 0; i < total; i++)
        if (tk_diags_get(d, i)->severity >= sev)
            n++;
    return n;
}

const char *tk_diag_severity_name(tk_diag_severity sev)
{
    switch (sev) {
    case TK_DIAG_NOTE: return "note";
    case TK_DIAG_WARNING: return "warning";
    case TK_DIAG_ERROR: return "error";
    }
    return "?";
}
