/* data_locs.c - the table of what a pass diff's lines name in the source
 * (data_locs.h). */
#include "data_locs.h"

#include <string.h>

struct html_report_locs {
    html_report *r;
    const tk_loctab *tab;
    GHashTable *index; /* the stack ids of a line (bytes) -> entry */
    GHashTable *text;  /* an entry as written -> entry (stacks that differ
                          only in columns name the same lines) */
    GString *entry;    /* scratch */
    GString *json;     /* entries written so far, "[]" first */
    uint32_t n;        /* entries */
    GArray *files;     /* tk_file_id of TAB -> global id + 1, 0: not asked */
};

tk_file_id html_report_global_file(html_report *r, const tk_loctab *tab, tk_file_id f)
{
    const char *path = tk_loctab_file_path(tab, f);
    g_mutex_lock(&r->lock);
    tk_file_id g = tk_loctab_file(tk_bundle_loctab(r->bundle), path, strlen(path));
    g_mutex_unlock(&r->lock);
    return g;
}

html_report_locs *html_report_locs_new(html_report *r, const tk_loctab *tab)
{
    html_report_locs *l = g_new0(html_report_locs, 1);
    l->r = r;
    l->tab = tab;
    l->index = g_hash_table_new_full(g_bytes_hash, g_bytes_equal, (GDestroyNotify)g_bytes_unref, NULL);
    l->text = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    l->entry = g_string_new(NULL);
    l->json = g_string_new(NULL);
    l->files = g_array_new(FALSE, TRUE, sizeof(tk_file_id));
    html_report_locs_clear(l);
    return l;
}

void html_report_locs_free(html_report_locs *l)
{
    if (!l)
        return;
    g_hash_table_destroy(l->index);
    g_hash_table_destroy(l->text);
    g_string_free(l->entry, TRUE);
    g_string_free(l->json, TRUE);
    g_array_free(l->files, TRUE);
    g_free(l);
}

void html_report_locs_clear(html_report_locs *l)
{
    g_hash_table_remove_all(l->index);
    g_hash_table_remove_all(l->text);
    g_string_assign(l->json, "[[]");
    l->n = 1;
}

/* File F of TAB in the bundle's table (asked once per file). */
static tk_file_id file_of(html_report_locs *l, tk_file_id f)
{
    if (f >= l->files->len)
        g_array_set_size(l->files, f + 1);
    tk_file_id *g = &g_array_index(l->files, tk_file_id, f);
    if (!*g)
        *g = html_report_global_file(l->r, l->tab, f) + 1;
    return *g - 1;
}

static size_t kept_stacks(const tk_ir_diff *d, int side, uint32_t k, const tk_stack_id **ids)
{
    uint32_t line = tk_ir_diff_kept_number(d, side, k); /* nothing read */
    *ids = NULL;
    return line ? tk_ir_diff_line_stacks(d, side, line, ids) : 0;
}

uint32_t html_report_locs_kept(html_report_locs *l, const tk_ir_diff *d, int side, uint32_t k)
{
    const tk_stack_id *ids;
    size_t n = kept_stacks(d, side, k, &ids);
    if (!n)
        return 0;
    GBytes *key = g_bytes_new(ids, n * sizeof *ids);
    gpointer v = g_hash_table_lookup(l->index, key);
    if (v) {
        g_bytes_unref(key);
        return GPOINTER_TO_UINT(v);
    }
    GString *t = l->entry;
    g_string_assign(t, "[");
    for (size_t i = 0; i < n; i++) {
        size_t nf;
        const tk_frame *fr = tk_loctab_stack_frames(l->tab, ids[i], &nf);
        g_string_append(t, i ? ",[" : "[");
        for (size_t j = 0; j < nf; j++)
            g_string_append_printf(t, "%s%u,%u", j ? "," : "", (unsigned)file_of(l, fr[j].file),
                                   (unsigned)fr[j].line);
        g_string_append_c(t, ']');
    }
    g_string_append_c(t, ']');
    gpointer same = g_hash_table_lookup(l->text, t->str);
    uint32_t e = same ? GPOINTER_TO_UINT(same) : l->n++;
    if (!same) {
        g_hash_table_insert(l->text, g_strdup(t->str), GUINT_TO_POINTER(e));
        g_string_append_c(l->json, ',');
        g_string_append_len(l->json, t->str, (gssize)t->len);
    }
    g_hash_table_insert(l->index, key, GUINT_TO_POINTER(e));
    return e;
}

gboolean html_report_locs_same(const tk_ir_diff *d, uint32_t ka, uint32_t kb)
{
    const tk_stack_id *a, *b;
    size_t na = kept_stacks(d, TK_IR_A, ka, &a), nb = kept_stacks(d, TK_IR_B, kb, &b);
    return na == nb && (na == 0 || memcmp(a, b, na * sizeof *a) == 0);
}

void html_report_locs_write(html_report_locs *l, jw *w)
{
    GString *s = g_string_new_len(l->json->str, (gssize)l->json->len);
    g_string_append_c(s, ']');
    jw_raw(w, s);
    g_string_free(s, TRUE);
}
