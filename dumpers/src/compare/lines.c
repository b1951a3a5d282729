/* lines.c - the SASS of each source line, both kernels side by side:
 * each kernel's binding index counts its SASS instructions per source line
 * (tk_bind_source_refs()), and the two lists are joined on the located path
 * and line (two bundles have two location tables). */
#include <string.h>

#include "compare/internal.h"
#include "tkdump/tk_bind.h"

static int by_file_line(const void *x, const void *y)
{
    const tk_compare_line *a = x, *b = y;
    int c = strcmp(a->file, b->file);
    if (c)
        return c;
    return (a->line > b->line) - (a->line < b->line);
}

static void add_side(tk_compare *cmp, int s, GHashTable *at)
{
    cmp_side *side = &cmp->side[s];
    if (!tk_kernel_stage(side->kernel, TK_STAGE_SASS))
        return;
    tk_loctab *tab = tk_bundle_loctab(side->bundle);
    tk_bind *idx = tk_bind_new(side->kernel, tab);
    const tk_source_ref *refs;
    size_t n = tk_bind_source_refs(idx, TK_STAGE_SASS, &refs);
    for (size_t i = 0; i < n; i++) {
        const char *path = tk_loctab_file_path(tab, refs[i].file);
        char *key = g_strdup_printf("%u:%s", refs[i].line, path);
        gpointer v;
        size_t row;
        if (g_hash_table_lookup_extended(at, key, NULL, &v)) {
            row = GPOINTER_TO_SIZE(v);
            g_free(key);
        } else {
            tk_compare_line l = {0};
            l.file = g_string_chunk_insert_const(cmp->strings, path);
            l.line = refs[i].line;
            row = cmp->lines->len;
            g_array_append_val(cmp->lines, l);
            g_hash_table_insert(at, key, GSIZE_TO_POINTER(row));
        }
        tk_compare_line *l = &g_array_index(cmp->lines, tk_compare_line, row);
        l->sass[s] += refs[i].n_exact;
        l->sass_called[s] += refs[i].n_called;
    }
    tk_bind_free(idx);
}

const tk_compare_line *tk_compare_lines(tk_compare *cmp, size_t *n)
{
    if (!cmp->lines) {
        cmp->lines = g_array_new(FALSE, FALSE, sizeof(tk_compare_line));
        GHashTable *at = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        add_side(cmp, 0, at);
        add_side(cmp, 1, at);
        g_hash_table_destroy(at);
        g_array_sort(cmp->lines, by_file_line);
    }
    *n = cmp->lines->len;
    return (const tk_compare_line *)cmp->lines->data;
}
