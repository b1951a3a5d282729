/* data_sources.c - the source files the report shows, each stored once
 * (data/src/sNNN.js) however many kernels name it, and the table of every
 * file the report names (data/files.js). */
#include <string.h>

#include "report.h"
#include "tkdump/tk_input_file.h"
#include "tkdump/tk_lines.h"

const char *html_report_source(html_report *r, tk_file_id file)
{
    gpointer key = GUINT_TO_POINTER(file + 1);
    const char *have = g_hash_table_lookup(r->sources, key);
    if (have)
        return *have ? have : NULL;
    const char *path = tk_bundle_resolve_source(r->bundle, file, r->diags);
    size_t len = 0;
    /* A regular file of at most 16 MiB, opened without blocking
     * (tk_input_file.h); a bigger (generated) file is named, not shown. */
    char *text = path ? tk_input_file_read(path, TK_INPUT_FILE_SOURCE, &len, NULL)
                      : NULL;
    if (text && !memchr(text, '\0', len)) {
        char id[24], rel[48];
        g_snprintf(id, sizeof id, "s%u", file);
        g_snprintf(rel, sizeof rel, "data/src/%s.js", id);
        GString *g = g_string_sized_new(len + len / 16 + 64);
        jw w;
        jw_init(&w, g);
        jw_arr(&w);
        const char *p = text, *end = text + len;
        while (p < end) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            const char *e = nl ? nl : end;
            size_t l = (size_t)(e - p);
            l = tk_lines_trim(p, l);
            jw_strn(&w, p, l);
            p = nl ? nl + 1 : end;
        }
        jw_arr_end(&w);
        char *k = g_strdup_printf("src/%s", id);
        int rc = html_report_put(r, rel, k, g);
        g_free(k);
        g_string_free(g, TRUE);
        g_free(text);
        if (rc == 0) {
            g_hash_table_insert(r->sources, key, g_strdup(id));
            return g_hash_table_lookup(r->sources, key);
        }
    } else {
        g_free(text);
    }
    g_hash_table_insert(r->sources, key, g_strdup(""));
    return NULL;
}

int html_report_files(html_report *r)
{
    /* Indexed by file id: stacks name files by id. */
    tk_loctab *tab = tk_bundle_loctab(r->bundle);
    size_t n = tk_loctab_file_count(tab);
    GString *g = g_string_new(NULL);
    jw w;
    jw_init(&w, g);
    jw_arr(&w);
    for (size_t f = 0; f < n; f++) {
        const char *src = g_hash_table_lookup(r->sources, GUINT_TO_POINTER(f + 1));
        jw_arr(&w);
        jw_str(&w, tk_loctab_file_path(tab, (tk_file_id)f));
        if (src && *src)
            jw_str(&w, src);
        else
            jw_null(&w);
        jw_arr_end(&w);
    }
    jw_arr_end(&w);
    int rc = html_report_put(r, "data/files.js", "files", g);
    g_string_free(g, TRUE);
    return rc;
}
