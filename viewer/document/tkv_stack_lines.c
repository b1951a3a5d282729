/* tkv_stack_lines.c - the source lines an IR line's inline stacks name. */
#include "document/tkv_stack_lines.h"

static void add_lines_in(tk_loctab *tab, const tk_stack_id *ids, size_t n, tk_file_id file,
                         GArray *lines)
{
    for (size_t s = 0; s < n; s++) {
        size_t nf;
        const tk_frame *fr = tk_loctab_stack_frames(tab, ids[s], &nf);
        for (size_t i = 0; i < nf; i++)
            if (fr[i].file == file)
                g_array_append_val(lines, fr[i].line);
    }
}

/* The file of the outermost frame that is at hand, over the stacks in order. */
static tk_file_id outermost_at_hand(TkvDocument *doc, tk_loctab *tab, const tk_stack_id *ids,
                                    size_t n)
{
    for (size_t s = 0; s < n; s++) {
        size_t nf;
        const tk_frame *fr = tk_loctab_stack_frames(tab, ids[s], &nf);
        for (size_t i = nf; i-- > 0;)
            if (tkv_document_get_source_text(doc, fr[i].file, NULL))
                return fr[i].file;
    }
    return TKV_NO_FILE;
}

static gint cmp_u32(gconstpointer a, gconstpointer b)
{
    guint32 x = *(const guint32 *)a, y = *(const guint32 *)b;
    return x < y ? -1 : x > y;
}

static void sort_unique(GArray *a)
{
    g_array_sort(a, cmp_u32);
    guint j = 0;
    for (guint i = 0; i < a->len; i++)
        if (!j || g_array_index(a, guint32, i) != g_array_index(a, guint32, j - 1))
            g_array_index(a, guint32, j++) = g_array_index(a, guint32, i);
    g_array_set_size(a, j);
}

GArray *tkv_stack_lines_to_show(TkvDocument *doc, const tk_stack_id *ids, size_t n,
                                tk_file_id shown, tk_file_id *file)
{
    tk_loctab *tab = tk_bundle_loctab(tkv_document_get_bundle(doc));
    GArray *lines = g_array_new(FALSE, FALSE, sizeof(guint32));
    *file = shown;
    add_lines_in(tab, ids, n, shown, lines);
    if (!lines->len) {
        tk_file_id best = outermost_at_hand(doc, tab, ids, n);
        if (best != TKV_NO_FILE && best != shown) {
            *file = best;
            add_lines_in(tab, ids, n, best, lines);
        }
    }
    sort_unique(lines);
    return lines;
}

gboolean tkv_stack_lines_name(TkvDocument *doc, const tk_stack_id *ids, size_t n,
                              tk_file_id file, guint line)
{
    tk_loctab *tab = tk_bundle_loctab(tkv_document_get_bundle(doc));
    for (size_t s = 0; s < n; s++) {
        size_t nf;
        const tk_frame *fr = tk_loctab_stack_frames(tab, ids[s], &nf);
        for (size_t i = 0; i < nf; i++)
            if (fr[i].file == file && fr[i].line == line)
                return TRUE;
    }
    return FALSE;
}
