/* tkv_document.c - loading a bundle off the main thread, and what the views
 * ask of it. */
#include "document/tkv_document.h"

#include <stdlib.h>
#include <string.h>

#include "document/tkv_text.h"
#include "tkdump/tk_file_query.h"
#include "tkdump/tk_input_file.h"

typedef struct {
    tk_bind *index;
    GArray *files; /* tk_file_id, own file first */
    tk_timeline *timeline; /* written under pass_lock by a worker */
    gboolean timeline_built;
    /* Made on the main thread on first use (tkv_document_get_cost). */
    tk_profile *profile;
    tk_cost *cost;
    char *cost_problem;
    gboolean cost_built;
} KernelData;

typedef struct {
    GString *text;     /* safe text (tkv_text.h) */
    GArray *starts;    /* gsize offset of each line */
} SourceText;

struct _TkvDocument {
    GObject parent_instance;

    char *path;
    char *canonical;
    char **source_dirs;

    /* Written by the worker, read after the task completes. */
    tk_bundle *bundle;
    tk_diags *diags;
    KernelData *kernels;
    size_t n_kernels;
    const char **resolved; /* per file id, owned by the bundle */
    size_t n_files;
    double load_seconds, index_seconds;
    gboolean loaded;

    /* Progress, written by the worker while it runs. */
    gint progress_permille; /* atomic; -1: unknown */
    GMutex phase_lock;
    char *phase;

    GHashTable *sources; /* file id -> SourceText, main thread */

    GMutex pass_lock;    /* one timeline build at a time */
    tk_diags *pass_diags;
    /* What this window's loads may read in all (tk_input_file.h): one
     * window's bomb leaves the others their own. */
    tk_input_budget *budget;
};

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

/* ---- the worker --------------------------------------------------------- */

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

static void load_thread_body(GTask *task, gpointer source, gpointer task_data,
                             GCancellable *cancellable);

/* Runs BODY on this worker thread charging the window's own budget: the
 * load and the pass dumps, diffs and comparisons it reads later. */
static void with_budget(GTaskThreadFunc body, GTask *task, gpointer source,
                        gpointer task_data, GCancellable *cancellable)
{
    TkvDocument *self = source;
    tk_input_budget *before = tk_input_budget_use(self->budget);
    body(task, source, task_data, cancellable);
    tk_input_budget_use(before);
}

static void load_thread(GTask *task, gpointer source, gpointer task_data,
                        GCancellable *cancellable)
{
    with_budget(load_thread_body, task, source, task_data, cancellable);
}

static void load_thread_body(GTask *task, gpointer source, gpointer task_data,
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
    gint64 t2 = g_get_monotonic_time();
    if (g_cancellable_is_cancelled(cancellable)) {
        for (size_t i = 0; i < n; i++) {
            tk_bind_free(kd[i].index);
            if (kd[i].files)
                g_array_unref(kd[i].files);
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
    GTask *task = g_task_new(doc, cancellable, callback, user_data);
    g_task_set_name(task, "tkview load");
    g_task_run_in_thread(task, load_thread);
    g_object_unref(task);
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

const tk_cost *tkv_document_get_cost(TkvDocument *doc, size_t i)
{
    if (!doc->loaded || i >= doc->n_kernels)
        return NULL;
    KernelData *kd = &doc->kernels[i];
    const tk_kernel *k = tk_bundle_kernel(doc->bundle, i);
    if (!kd->cost_built && tk_kernel_stage(k, TK_STAGE_SASS)) {
        /* Reading the profile (a few hundred KB of JSON at most) and making
         * the tables take milliseconds; done once, when first shown. */
        tk_diags *d = tk_diags_new();
        kd->profile = tk_profile_load(k, d);
        if (tk_diags_count(d))
            kd->cost_problem = g_strdup(tk_diags_get(d, 0)->message);
        tk_diags_free(d);
        kd->cost = tk_cost_new(kd->index, k, tk_bundle_loctab(doc->bundle), kd->profile);
    }
    kd->cost_built = TRUE;
    return kd->cost;
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

/* ---- passes ------------------------------------------------------------------ */

static void timeline_thread_body(GTask *task, gpointer source, gpointer task_data,
                                 GCancellable *cancellable);

static void timeline_thread(GTask *task, gpointer source, gpointer task_data,
                            GCancellable *cancellable)
{
    with_budget(timeline_thread_body, task, source, task_data, cancellable);
}

static void timeline_thread_body(GTask *task, gpointer source, gpointer task_data,
                                 GCancellable *cancellable)
{
    TkvDocument *self = source;
    size_t i = GPOINTER_TO_SIZE(task_data);
    g_mutex_lock(&self->pass_lock);
    if (!self->kernels[i].timeline_built && !g_cancellable_is_cancelled(cancellable)) {
        self->kernels[i].timeline = tk_timeline_of_kernel(
            self->bundle, tk_bundle_kernel(self->bundle, i), NULL, self->pass_diags);
        self->kernels[i].timeline_built = TRUE;
    }
    gboolean built = self->kernels[i].timeline_built;
    g_mutex_unlock(&self->pass_lock);
    if (!built)
        g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
    else
        g_task_return_pointer(task, self->kernels[i].timeline, NULL);
}

void tkv_document_timeline_async(TkvDocument *doc, size_t i, GCancellable *cancellable,
                                 GAsyncReadyCallback callback, gpointer user_data)
{
    GTask *task = g_task_new(doc, cancellable, callback, user_data);
    g_task_set_name(task, "tkview timeline");
    if (!doc->loaded || i >= doc->n_kernels) {
        g_task_return_pointer(task, NULL, NULL);
    } else {
        g_task_set_task_data(task, GSIZE_TO_POINTER(i), NULL);
        g_task_run_in_thread(task, timeline_thread);
    }
    g_object_unref(task);
}

const tk_timeline *tkv_document_timeline_finish(TkvDocument *doc, GAsyncResult *result,
                                                GError **error)
{
    return g_task_propagate_pointer(G_TASK(result), error);
}

const tk_timeline *tkv_document_get_timeline(TkvDocument *doc, size_t i, gboolean *built)
{
    gboolean b = FALSE;
    const tk_timeline *tl = NULL;
    if (doc->loaded && i < doc->n_kernels && g_mutex_trylock(&doc->pass_lock)) {
        b = doc->kernels[i].timeline_built;
        tl = doc->kernels[i].timeline;
        g_mutex_unlock(&doc->pass_lock);
    }
    if (built)
        *built = b;
    return tl;
}

typedef struct {
    const tk_timeline *tl;
    size_t from, sub, to;
    tk_ir_diff *diff;
    char *why;
} DiffJob;

static void diff_job_free(gpointer p)
{
    DiffJob *j = p;
    tk_ir_diff_free(j->diff);
    g_free(j->why);
    g_free(j);
}

static void diff_thread_body(GTask *task, gpointer source, gpointer task_data,
                             GCancellable *cancellable);

static void diff_thread(GTask *task, gpointer source, gpointer task_data,
                        GCancellable *cancellable)
{
    with_budget(diff_thread_body, task, source, task_data, cancellable);
}

static void diff_thread_body(GTask *task, gpointer source, gpointer task_data,
                             GCancellable *cancellable)
{
    TkvDocument *self = source;
    DiffJob *j = task_data;
    if (g_cancellable_is_cancelled(cancellable)) {
        g_task_return_boolean(task, FALSE);
        return;
    }
    tk_diags *diags = tk_diags_new();
    g_mutex_lock(&self->pass_lock);
    j->diff = j->sub != TK_TL_NONE ? tk_timeline_diff_substep(j->tl, j->from, j->sub, NULL, diags)
                                   : tk_timeline_diff(j->tl, j->from, j->to, NULL, diags);
    g_mutex_unlock(&self->pass_lock);
    if (!j->diff && tk_diags_count(diags))
        j->why = g_strdup(tk_diags_get(diags, 0)->message);
    tk_diags_free(diags);
    g_task_return_boolean(task, TRUE);
}

void tkv_document_diff_async(TkvDocument *doc, const tk_timeline *tl, size_t from, size_t sub,
                             size_t to, GCancellable *cancellable, GAsyncReadyCallback callback,
                             gpointer user_data)
{
    GTask *task = g_task_new(doc, cancellable, callback, user_data);
    g_task_set_name(task, "tkview diff");
    DiffJob *j = g_new0(DiffJob, 1);
    j->tl = tl;
    j->from = from;
    j->sub = sub;
    j->to = to;
    g_task_set_task_data(task, j, diff_job_free);
    g_task_run_in_thread(task, diff_thread);
    g_object_unref(task);
}

tk_ir_diff *tkv_document_diff_finish(TkvDocument *doc, GAsyncResult *result, char **why)
{
    DiffJob *j = g_task_get_task_data(G_TASK(result));
    gboolean done = g_task_propagate_boolean(G_TASK(result), NULL);
    tk_ir_diff *d = done ? j->diff : NULL;
    if (done)
        j->diff = NULL;
    if (why)
        *why = !done ? g_strdup("cancelled") : j->why ? g_strdup(j->why) : NULL;
    return d;
}

/* ---- comparing two kernels ------------------------------------------------------ */

typedef struct {
    size_t a, b;          /* kernels */
    TkvCompareHold *hold; /* the diff's comparison */
    size_t row;
    tk_timeline_point which;
    tk_ir_diff *diff;
    char *why;
} CompareJob;

static void compare_job_free(gpointer p)
{
    CompareJob *j = p;
    if (j->hold)
        tkv_compare_hold_release(j->hold);
    tk_ir_diff_free(j->diff);
    g_free(j->why);
    g_free(j);
}

static void compare_thread_body(GTask *task, gpointer source, gpointer task_data,
                                GCancellable *cancellable);

static void compare_thread(GTask *task, gpointer source, gpointer task_data,
                           GCancellable *cancellable)
{
    with_budget(compare_thread_body, task, source, task_data, cancellable);
}

static void compare_thread_body(GTask *task, gpointer source, gpointer task_data,
                                GCancellable *cancellable)
{
    TkvDocument *self = source;
    CompareJob *j = task_data;
    if (g_cancellable_is_cancelled(cancellable)) {
        g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
        return;
    }
    g_mutex_lock(&self->pass_lock);
    tk_diags *d = tk_diags_new();
    tk_compare *cmp = tk_compare_build(self->bundle, tk_bundle_kernel(self->bundle, j->a),
                                       self->bundle, tk_bundle_kernel(self->bundle, j->b),
                                       NULL, d);
    tk_diags_free(d);
    g_mutex_unlock(&self->pass_lock);
    TkvCompareHold *hold = g_rc_box_new0(TkvCompareHold);
    hold->cmp = cmp;
    g_task_return_pointer(task, hold, (GDestroyNotify)tkv_compare_hold_release);
}

static void hold_clear(gpointer p)
{
    tk_compare_free(((TkvCompareHold *)p)->cmp);
}

void tkv_compare_hold_release(TkvCompareHold *hold)
{
    g_rc_box_release_full(hold, hold_clear);
}

void tkv_document_compare_async(TkvDocument *doc, size_t a, size_t b,
                                GCancellable *cancellable, GAsyncReadyCallback callback,
                                gpointer user_data)
{
    GTask *task = g_task_new(doc, cancellable, callback, user_data);
    g_task_set_name(task, "tkview compare");
    if (!doc->loaded || a >= doc->n_kernels || b >= doc->n_kernels) {
        g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                                "no such kernels");
    } else {
        CompareJob *j = g_new0(CompareJob, 1);
        j->a = a;
        j->b = b;
        g_task_set_task_data(task, j, compare_job_free);
        g_task_run_in_thread(task, compare_thread);
    }
    g_object_unref(task);
}

TkvCompareHold *tkv_document_compare_finish(TkvDocument *doc, GAsyncResult *result,
                                            GError **error)
{
    return g_task_propagate_pointer(G_TASK(result), error);
}

static void compare_diff_thread(GTask *task, gpointer source, gpointer task_data,
                                GCancellable *cancellable)
{
    TkvDocument *self = source;
    CompareJob *j = task_data;
    if (g_cancellable_is_cancelled(cancellable)) {
        g_task_return_boolean(task, FALSE);
        return;
    }
    tk_diags *diags = tk_diags_new();
    g_mutex_lock(&self->pass_lock);
    j->diff = tk_compare_diff_row(j->hold->cmp, j->row, j->which, NULL, diags);
    g_mutex_unlock(&self->pass_lock);
    if (!j->diff && tk_diags_count(diags))
        j->why = g_strdup(tk_diags_get(diags, 0)->message);
    tk_diags_free(diags);
    g_task_return_boolean(task, TRUE);
}

void tkv_document_compare_diff_async(TkvDocument *doc, TkvCompareHold *hold, size_t row,
                                     tk_timeline_point which, GCancellable *cancellable,
                                     GAsyncReadyCallback callback, gpointer user_data)
{
    GTask *task = g_task_new(doc, cancellable, callback, user_data);
    g_task_set_name(task, "tkview compare diff");
    CompareJob *j = g_new0(CompareJob, 1);
    j->hold = g_rc_box_acquire(hold);
    j->row = row;
    j->which = which;
    g_task_set_task_data(task, j, compare_job_free);
    g_task_run_in_thread(task, compare_diff_thread);
    g_object_unref(task);
}

tk_ir_diff *tkv_document_compare_diff_finish(TkvDocument *doc, GAsyncResult *result,
                                             char **why)
{
    CompareJob *j = g_task_get_task_data(G_TASK(result));
    gboolean done = g_task_propagate_boolean(G_TASK(result), NULL);
    tk_ir_diff *d = done ? j->diff : NULL;
    if (done)
        j->diff = NULL;
    if (why)
        *why = !done ? g_strdup("cancelled") : j->why ? g_strdup(j->why) : NULL;
    return d;
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
