/* tkv_document_load.c - loading a bundle and indexing its kernels on a
 * worker thread, with its progress for the loading page.  Apart from the
 * object: this is the one code that writes the document's loaded state. */
#include "document/tkv_document_private.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_statement.h"

#include <string.h>

static void set_phase(TkvDocument *self, int permille, char *phase /* taken */)
{
    g_mutex_lock(&self->phase_lock);
    g_free(self->phase);
    self->phase = phase;
    g_mutex_unlock(&self->phase_lock);
    g_atomic_int_set(&self->progress_permille, permille);
}

static gint compare_by_path(gconstpointer a, gconstpointer b, gpointer tab)
{
    return strcmp(tk_loctab_file_path(tab, *(const tk_file_id *)a),
                  tk_loctab_file_path(tab, *(const tk_file_id *)b));
}

/* The files a kernel's locations name, its own file first (the library's
 * tk_kernel_main_source()), the others by path. */
static GArray *kernel_files(const tk_kernel *kernel, const tk_bind *ix,
                            tk_loctab *tab)
{
    GHashTable *seen = g_hash_table_new(NULL, NULL);
    GArray *files = g_array_new(FALSE, FALSE, sizeof(tk_file_id));
    tk_file_id own = tk_kernel_main_source(kernel, tab);
    for (int k = 0; k < TK_STAGE_COUNT; k++) {
        const tk_source_ref *refs;
        size_t n = tk_bind_source_refs(ix, (tk_stage_kind)k, &refs);
        for (size_t i = 0; i < n; i++)
            if (refs[i].file != own &&
                g_hash_table_add(seen, GUINT_TO_POINTER(refs[i].file + 1)))
                g_array_append_val(files, refs[i].file);
    }
    g_hash_table_unref(seen);
    g_array_sort_with_data(files, compare_by_path, tab);
    if (own != TK_NO_FILE)
        g_array_prepend_val(files, own);
    return files;
}

static void load_thread(GTask *task, gpointer source, gpointer task_data,
                        GCancellable *cancellable)
{
    TkvDocument *self = source;
    tk_diags *diags = tk_diags_new();
    set_phase(self, -1, g_strdup("Reading dumps"));
    tk_load_options opts = {
        .source_dirs = (const char *const *)self->source_dirs,
        .n_source_dirs = self->source_dirs ? g_strv_length(self->source_dirs) : 0,
    };
    gint64 t0 = g_get_monotonic_time();
    tk_bundle *b = tk_bundle_load(self->path, &opts, diags);
    gint64 t1 = g_get_monotonic_time();
    self->diags = diags;
    self->load_seconds = (double)(t1 - t0) / 1e6;
    if (!b) {
        g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                                "Nothing could be loaded from %s", self->path);
        return;
    }
    /* Before any cost is made: a raw folder's kernels get their live
     * registers from nvdisasm (into tkview's cache). */
    set_phase(self, -1, g_strdup("Finding register life ranges"));
    tkv_document_make_life_ranges(b, diags);
    size_t n = tk_bundle_kernel_count(b);
    KernelData *kd = g_new0(KernelData, n ? n : 1);
    tk_loctab *tab = tk_bundle_loctab(b);
    for (size_t i = 0; i < n; i++) {
        if (g_cancellable_is_cancelled(cancellable))
            break;
        set_phase(self, (int)(1000 * i / n),
                  g_strdup_printf("Indexing kernel %zu of %zu", i + 1, n));
        kd[i].index = tk_bind_new(tk_bundle_kernel(b, i), tab);
        kd[i].files = kernel_files(tk_bundle_kernel(b, i), kd[i].index, tab);
    }
    /* Resolving writes the bundle's cache: done here, once for all files. */
    size_t nf = tk_loctab_file_count(tab);
    const char **resolved = g_new0(const char *, nf ? nf : 1);
    for (size_t f = 0; f < nf; f++) {
        resolved[f] = tk_bundle_resolve_source(b, (tk_file_id)f, diags);
        /* and its statements read (tk_bundle_statement() keeps them): the
         * main thread then only reads that cache */
        tk_statement st;
        tk_bundle_statement(b, (tk_file_id)f, 1, &st);
    }
    /* The first kernel's costs too: the window shows it first, and its
     * cost columns and hot lines would read the profile on the main thread
     * in the first view (~15 ms for attention_fwd's). */
    if (n && !g_cancellable_is_cancelled(cancellable))
        tkv_document_build_cost(&kd[0], tk_bundle_kernel(b, 0), tab);
    gint64 t2 = g_get_monotonic_time();
    if (g_cancellable_is_cancelled(cancellable)) {
        for (size_t i = 0; i < n; i++) {
            tk_bind_free(kd[i].index);
            if (kd[i].files)
                g_array_unref(kd[i].files);
            tk_cost_free(kd[i].cost);
            tk_profile_free(kd[i].profile);
            g_free(kd[i].cost_problem);
        }
        g_free(kd);
        g_free(resolved);
        tk_bundle_free(b);
        g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                "Loading %s was cancelled", self->path);
        return;
    }
    self->bundle = b;
    self->kernels = kd;
    self->n_kernels = n;
    self->resolved = resolved;
    self->n_files = nf;
    self->index_seconds = (double)(t2 - t1) / 1e6;
    set_phase(self, 1000, g_strdup("Done"));
    g_task_return_boolean(task, TRUE);
}

void tkv_document_load_async(TkvDocument *doc, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data)
{
    g_return_if_fail(TKV_IS_DOCUMENT(doc));
    tkv_document_job_run(tkv_document_job_new(doc, "tkview load", cancellable, callback,
                                              user_data),
                         load_thread, NULL, NULL);
}

gboolean tkv_document_load_finish(TkvDocument *doc, GAsyncResult *result,
                                  GError **error)
{
    g_return_val_if_fail(g_task_is_valid(result, doc), FALSE);
    gboolean ok = g_task_propagate_boolean(G_TASK(result), error);
    doc->loaded = ok;
    return ok;
}

double tkv_document_get_progress(TkvDocument *doc, char **phase)
{
    if (phase) {
        g_mutex_lock(&doc->phase_lock);
        *phase = g_strdup(doc->phase ? doc->phase : "");
        g_mutex_unlock(&doc->phase_lock);
    }
    int p = g_atomic_int_get(&doc->progress_permille);
    return p < 0 ? -1.0 : p / 1000.0;
}
