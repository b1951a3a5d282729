/* data_statements.c - what the report says about statements, line kinds
 * and partial answers, all asked of the library when the report is
 * written:
 *   meta.js      "stmts": the statements of more than one line in the
 *                kernel's files, [file, first, last] (tk_bundle_statement)
 *   STAGE.bind.js "kinds": one letter per line (i instruction, d directive,
 *                c comment, l label, m metadata, o other; upper case for a
 *                line that only states a location: folded away),
 *                "stmt": per statement of several lines, the lines of the
 *                stage any of its lines binds to (tk_bind_lines_to_stage),
 *                "shared": per query (a statement, or a source line alone),
 *                the lines of helper code shared by several call sites
 *                (tk_bind_shared_lines) and those call sites.
 * The page looks these up; it never decides what a statement, an
 * instruction or a shared line is. */
#include <stdlib.h>

#include "tkdump/tk_statement.h"

#include "report.h"

/* The files the stages of IX refer to (any frame). */
static GArray *named_files(const tk_bind *ix)
{
    GHashTable *seen = g_hash_table_new(NULL, NULL);
    GArray *files = g_array_new(FALSE, FALSE, sizeof(tk_file_id));
    for (int s = 0; s < TK_STAGE_COUNT; s++) {
        const tk_source_ref *refs;
        size_t n = tk_bind_source_refs(ix, (tk_stage_kind)s, &refs);
        for (size_t i = 0; i < n; i++)
            if (g_hash_table_add(seen, GUINT_TO_POINTER(refs[i].file + 1)))
                g_array_append_val(files, refs[i].file);
    }
    g_hash_table_destroy(seen);
    return files;
}

GArray *html_report_statements(html_report *r, const tk_bind *ix)
{
    GArray *out = g_array_new(FALSE, FALSE, sizeof(html_report_stmt));
    GArray *files = named_files(ix);
    for (guint i = 0; i < files->len; i++) {
        tk_file_id f = g_array_index(files, tk_file_id, i);
        tk_statement st;
        tk_bundle_statement(r->bundle, f, 1, &st);
        for (uint32_t l = 1; l <= st.n_lines; l++) {
            if (tk_bundle_statement(r->bundle, f, l, &st) == TK_STATEMENT_CODE &&
                st.first == l && st.last > st.first)
                g_array_append_val(out, ((html_report_stmt){f, st.first, st.last}));
        }
    }
    g_array_free(files, TRUE);
    return out;
}

GArray *html_report_query_extents(html_report *r, const tk_bind *ix)
{
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    GArray *out = g_array_new(FALSE, FALSE, sizeof(html_report_stmt));
    for (int s = 0; s < TK_STAGE_COUNT; s++) {
        const tk_source_ref *refs;
        size_t n = tk_bind_source_refs(ix, (tk_stage_kind)s, &refs);
        for (size_t i = 0; i < n; i++) {
            tk_statement st;
            tk_bundle_statement(r->bundle, refs[i].file, refs[i].line, &st);
            html_report_stmt e = {refs[i].file, st.first, st.last};
            char *key = g_strdup_printf("%u:%u:%u", e.file, e.first, e.last);
            if (g_hash_table_add(seen, key))
                g_array_append_val(out, e);
        }
    }
    g_hash_table_destroy(seen);
    return out;
}

void html_report_write_statements(jw *w, const GArray *stmts)
{
    jw_arr(w);
    for (guint i = 0; i < stmts->len; i++) {
        const html_report_stmt *s = &g_array_index(stmts, html_report_stmt, i);
        jw_arr(w);
        jw_int(w, s->file);
        jw_int(w, s->first);
        jw_int(w, s->last);
        jw_arr_end(w);
    }
    jw_arr_end(w);
}

void html_report_write_line_kinds(jw *w, const tk_stage *st)
{
    static const char letters[] = "idclmo";
    uint32_t n = tk_stage_line_count(st);
    GString *k = g_string_sized_new(n + 1);
    for (uint32_t l = 1; l <= n; l++) {
        tk_line_kind kind = tk_stage_line_kind(st, l);
        char c = kind < TK_LINE_KIND_COUNT ? letters[kind] : 'o';
        g_string_append_c(k, tk_stage_line_is_location(st, l) ? g_ascii_toupper(c) : c);
    }
    jw_strn(w, k->str, k->len);
    g_string_free(k, TRUE);
}

void html_report_write_statement_lines(jw *w, const tk_bind *ix, const tk_stage *st,
                                     tk_stage_kind kind, const GArray *stmts)
{
    jw_arr(w);
    for (guint i = 0; i < stmts->len; i++) {
        const html_report_stmt *s = &g_array_index(stmts, html_report_stmt, i);
        uint32_t *ex = NULL, *ca = NULL;
        size_t ne = tk_bind_lines_to_stage(ix, s->file, s->first, s->last, TK_MATCH_EXACT, kind,
                                           &ex);
        size_t nc = tk_bind_lines_to_stage(ix, s->file, s->first, s->last, TK_MATCH_CALLED, kind,
                                           &ca);
        if (nc) {
            /* [file, first, last, exact lines, called lines, and the number
             * of instructions among each] */
            jw_arr(w);
            jw_int(w, s->file);
            jw_int(w, s->first);
            jw_int(w, s->last);
            jw_lines(w, ex, ne);
            jw_lines(w, ca, nc);
            jw_int(w, (int64_t)tk_stage_count_instructions(st, ex, ne));
            jw_int(w, (int64_t)tk_stage_count_instructions(st, ca, nc));
            jw_arr_end(w);
        }
        free(ex);
        free(ca);
    }
    jw_arr_end(w);
}

void html_report_write_shared(jw *w, const tk_bind *ix, tk_stage_kind kind,
                            const GArray *extents)
{
    jw_arr(w);
    for (guint i = 0; i < extents->len; i++) {
        const html_report_stmt *s = &g_array_index(extents, html_report_stmt, i);
        tk_bind_shared sh;
        if (!tk_bind_shared_lines(ix, s->file, s->first, s->last, kind, &sh))
            continue;
        /* [file, first, last, shared lines, [site file, site line, ...]] */
        jw_arr(w);
        jw_int(w, s->file);
        jw_int(w, s->first);
        jw_int(w, s->last);
        jw_lines(w, sh.lines, sh.n_lines);
        jw_arr(w);
        for (size_t k = 0; k < sh.n_sites; k++) {
            jw_int(w, sh.sites[k].file);
            jw_int(w, sh.sites[k].line);
        }
        jw_arr_end(w);
        jw_arr_end(w);
        tk_bind_shared_clear(&sh);
    }
    jw_arr_end(w);
}
