/* statement.c - the statement a source line belongs to (tk_bundle_statement):
 * the file resolved, read and tokenized once (source/pysource.c), kept per
 * file id. */
#include <glib.h>
#include <string.h>

#include "statement/statement.h"
#include "tkdump/tk_pysource.h"
#include "tkdump/tk_statement.h"

/* Stored for a file that could not be read as Python. */
static char not_python;

static gboolean is_python(const char *path)
{
    return path && g_str_has_suffix(path, ".py");
}

tk_statement_status tk_bundle_statement(tk_bundle *b, tk_file_id file,
                                        uint32_t line, tk_statement *out)
{
    *out = (tk_statement){TK_STATEMENT_UNKNOWN, line, line, 0};
    if (file >= tk_loctab_file_count(b->tab))
        return out->status;
    if (!b->statements)
        b->statements = g_hash_table_new_full(NULL, NULL, NULL, NULL);
    gpointer key = GUINT_TO_POINTER(file + 1);
    gpointer v = g_hash_table_lookup(b->statements, key);
    if (!v) {
        const char *local = tk_bundle_resolve_source(b, file, NULL);
        tk_pysource *src = NULL;
        if (local && (is_python(tk_loctab_file_path(b->tab, file)) || is_python(local)))
            src = tk_pysource_read(local, NULL);
        v = src ? (gpointer)src : (gpointer)&not_python;
        g_hash_table_insert(b->statements, key, v);
    }
    if (v == &not_python)
        return out->status;
    const tk_pysource *src = v;
    out->n_lines = tk_pysource_line_count(src);
    switch (tk_pysource_statement(src, line, &out->first, &out->last)) {
    case TK_PYLINE_CODE:
        out->status = TK_STATEMENT_CODE;
        break;
    case TK_PYLINE_NO_CODE:
        out->status = TK_STATEMENT_NO_CODE;
        break;
    case TK_PYLINE_PAST_END:
        out->status = TK_STATEMENT_PAST_END;
        break;
    }
    return out->status;
}

void bundle_statements_clear(tk_bundle *b)
{
    if (!b->statements)
        return;
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, b->statements);
    while (g_hash_table_iter_next(&it, &k, &v))
        if (v != &not_python)
            tk_pysource_free(v);
    g_hash_table_destroy(b->statements);
    b->statements = NULL;
}
