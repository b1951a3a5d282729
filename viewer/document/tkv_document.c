/* tkv_document.c - one loaded bundle as the viewer sees it: the object, and
 * what the views read of it (tkv_document_private.h lists its other files:
 * the worker jobs that load it and make its timelines and diffs). */
#include "document/tkv_document_private.h"

#include <stdlib.h>
#include <string.h>

#include "document/tkv_text.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_file_query.h"
#include "tkdump/tk_statement.h"

G_DEFINE_FINAL_TYPE(TkvDocument, tkv_document, G_TYPE_OBJECT)

static void source_text_free(gpointer p)
{
    SourceText *st = p;
    if (st->text)
        g_string_free(st->text, TRUE);
    if (st->starts)
        g_array_unref(st->starts);
    g_free(st);
}

static void tkv_document_finalize(GObject *object)
{
    TkvDocument *self = TKV_DOCUMENT(object);
    for (size_t i = 0; i < self->n_kernels; i++) {
        tk_timeline_free(self->kernels[i].timeline);
        tk_cost_free(self->kernels[i].cost);
        tk_profile_free(self->kernels[i].profile);
        g_free(self->kernels[i].cost_problem);
        tk_bind_free(self->kernels[i].index);
        if (self->kernels[i].files)
            g_array_unref(self->kernels[i].files);
    }
    g_free(self->kernels);
    g_free(self->resolved);
    g_hash_table_unref(self->sources);
    tk_bundle_free(self->bundle);
    tk_diags_free(self->diags);
    g_free(self->path);
    tk_input_budget_free(self->budget);
    g_free(self->canonical);
    g_strfreev(self->source_dirs);
    g_mutex_clear(&self->phase_lock);
    g_mutex_clear(&self->pass_lock);
    tk_diags_free(self->pass_diags);
    g_free(self->phase);
    G_OBJECT_CLASS(tkv_document_parent_class)->finalize(object);
}

static void tkv_document_class_init(TkvDocumentClass *klass)
{
    G_OBJECT_CLASS(klass)->finalize = tkv_document_finalize;
}

static void tkv_document_init(TkvDocument *self)
{
    g_mutex_init(&self->phase_lock);
    g_mutex_init(&self->pass_lock);
    self->pass_diags = tk_diags_new();
    self->budget = tk_input_budget_new();
    self->progress_permille = -1;
    self->sources = g_hash_table_new_full(NULL, NULL, NULL, source_text_free);
}

TkvDocument *tkv_document_new(const char *path, const char *const *source_dirs)
{
    TkvDocument *self = g_object_new(TKV_TYPE_DOCUMENT, NULL);
    self->path = g_strdup(path);
    char *real = realpath(path, NULL);
    self->canonical = g_strdup(real ? real : path);
    free(real);
    self->source_dirs = g_strdupv((char **)source_dirs);
    return self;
}

/* ---- reading ------------------------------------------------------------ */

const char *tkv_document_get_path(TkvDocument *doc) { return doc->path; }
const char *tkv_document_get_canonical_path(TkvDocument *doc) { return doc->canonical; }
gboolean tkv_document_is_loaded(TkvDocument *doc) { return doc->loaded; }
tk_bundle *tkv_document_get_bundle(TkvDocument *doc) { return doc->loaded ? doc->bundle : NULL; }
const tk_diags *tkv_document_get_diags(TkvDocument *doc) { return doc->diags; }
double tkv_document_get_load_seconds(TkvDocument *doc) { return doc->load_seconds; }
double tkv_document_get_index_seconds(TkvDocument *doc) { return doc->index_seconds; }

size_t tkv_document_get_kernel_count(TkvDocument *doc)
{
    return doc->loaded ? doc->n_kernels : 0;
}

const tk_kernel *tkv_document_get_kernel(TkvDocument *doc, size_t i)
{
    return doc->loaded && i < doc->n_kernels ? tk_bundle_kernel(doc->bundle, i) : NULL;
}

const tk_bind *tkv_document_get_index(TkvDocument *doc, size_t i)
{
    return doc->loaded && i < doc->n_kernels ? doc->kernels[i].index : NULL;
}

void tkv_document_build_cost(KernelData *kd, const tk_kernel *k, tk_loctab *tab)
{
    if (!kd->cost_built && tk_kernel_stage(k, TK_STAGE_SASS)) {
        /* Reading the profile (a few hundred KB of JSON at most) and making
         * the tables take milliseconds. */
        tk_diags *d = tk_diags_new();
        kd->profile = tk_profile_load(k, d);
        if (tk_diags_count(d))
            kd->cost_problem = g_strdup(tk_diags_get(d, 0)->message);
        tk_diags_free(d);
        kd->cost = tk_cost_new(kd->index, k, tab, kd->profile);
    }
    kd->cost_built = TRUE;
}

const tk_cost *tkv_document_get_cost(TkvDocument *doc, size_t i)
{
    if (!doc->loaded || i >= doc->n_kernels)
        return NULL;
    /* the first kernel's was made by the loading worker; others when shown */
    tkv_document_build_cost(&doc->kernels[i], tk_bundle_kernel(doc->bundle, i),
                            tk_bundle_loctab(doc->bundle));
    return doc->kernels[i].cost;
}

const char *tkv_document_get_cost_problem(TkvDocument *doc, size_t i)
{
    return doc->loaded && i < doc->n_kernels ? doc->kernels[i].cost_problem : NULL;
}

size_t tkv_document_get_files(TkvDocument *doc, size_t i, const tk_file_id **files)
{
    if (!doc->loaded || i >= doc->n_kernels || !doc->kernels[i].files) {
        *files = NULL;
        return 0;
    }
    *files = (const tk_file_id *)(void *)doc->kernels[i].files->data;
    return doc->kernels[i].files->len;
}

const char *tkv_document_get_file_path(TkvDocument *doc, tk_file_id file)
{
    if (!doc->loaded || file >= doc->n_files)
        return NULL;
    return tk_loctab_file_path(tk_bundle_loctab(doc->bundle), file);
}

const char *tkv_document_get_source_path(TkvDocument *doc, tk_file_id file)
{
    return doc->loaded && file < doc->n_files ? doc->resolved[file] : NULL;
}

tk_file_id tkv_document_find_file(TkvDocument *doc, size_t i, const char *path)
{
    const tk_file_id *files;
    size_t n = tkv_document_get_files(doc, i, &files);
    if (n == 0)
        return TKV_NO_FILE;
    /* The library's rule (tk_file_query.h), as tkview bind. */
    tk_file_query *q = tk_file_query_new(doc->bundle, path);
    tk_file_id *found = NULL;
    size_t matches = tk_file_query_find(q, files, n, &found);
    tk_file_id f = matches == 1 ? found[0] : TKV_NO_FILE;
    g_free(found);
    tk_file_query_free(q);
    return f;
}

static SourceText *source_text(TkvDocument *doc, tk_file_id file)
{
    if (!doc->loaded || file >= doc->n_files)
        return NULL;
    SourceText *st = g_hash_table_lookup(doc->sources, GUINT_TO_POINTER(file + 1));
    if (st)
        return st->text ? st : NULL;
    st = g_new0(SourceText, 1);
    g_hash_table_insert(doc->sources, GUINT_TO_POINTER(file + 1), st);
    const char *local = doc->resolved[file];
    size_t len = 0;
    /* A regular file of at most 16 MiB, opened without blocking
     * (tk_input_file.h), as the report reads it. */
    char *data = local ? tk_input_file_read(local, TK_INPUT_FILE_SOURCE, &len, NULL)
                       : NULL;
    if (!data)
        return NULL;
    st->text = tkv_text_from_bytes(data, len);
    g_free(data);
    st->starts = g_array_new(FALSE, FALSE, sizeof(gsize));
    gsize start = 0;
    g_array_append_val(st->starts, start);
    for (gsize i = 0; i < st->text->len; i++)
        if (st->text->str[i] == '\n') {
            start = i + 1;
            g_array_append_val(st->starts, start);
        }
    if (st->text->len == 0)
        g_array_set_size(st->starts, 0);
    return st;
}

const char *tkv_document_get_source_text(TkvDocument *doc, tk_file_id file,
                                         size_t *len)
{
    SourceText *st = source_text(doc, file);
    if (len)
        *len = st ? st->text->len : 0;
    return st ? st->text->str : NULL;
}

const char *tkv_document_get_source_line(TkvDocument *doc, tk_file_id file,
                                         uint32_t line, size_t *len)
{
    SourceText *st = source_text(doc, file);
    if (!st || line == 0 || line > st->starts->len)
        return NULL;
    gsize a = g_array_index(st->starts, gsize, line - 1);
    gsize b = line < st->starts->len ? g_array_index(st->starts, gsize, line) - 1
                                     : st->text->len;
    *len = b - a;
    return st->text->str + a;
}

static char *format_diags(const tk_diags *diags, tk_diag_severity at_least)
{
    GString *s = g_string_new(NULL);
    size_t n = diags ? tk_diags_count(diags) : 0;
    for (size_t i = 0; i < n; i++) {
        const tk_diag *d = tk_diags_get(diags, i);
        if (d->severity < at_least)
            continue;
        if (d->line)
            g_string_append_printf(s, "%s:%" G_GUINT64_FORMAT ": %s: %s\n", d->file,
                                   d->line, tk_diag_severity_name(d->severity),
                                   d->message);
        else
            g_string_append_printf(s, "%s: %s: %s\n", d->file,
                                   tk_diag_severity_name(d->severity), d->message);
    }
    char *out = g_utf8_make_valid(s->str, (gssize)s->len);
    g_string_free(s, TRUE);
    return out;
}

char *tkv_document_format_diags(TkvDocument *doc, tk_diag_severity at_least)
{
    return format_diags(doc->diags, at_least);
}

char *tkv_document_format_pass_diags(TkvDocument *doc)
{
    g_mutex_lock(&doc->pass_lock);
    char *s = format_diags(doc->pass_diags, TK_DIAG_NOTE);
    g_mutex_unlock(&doc->pass_lock);
    return s;
}

tk_statement_status tkv_document_get_statement(TkvDocument *doc, tk_file_id file, guint line,
                                               tk_statement *out)
{
    tk_bundle *b = tkv_document_get_bundle(doc);
    if (!b) {
        *out = (tk_statement){TK_STATEMENT_UNKNOWN, line, line, 0};
        return out->status;
    }
    return tk_bundle_statement(b, file, line, out);
}
