/* tkv_diag_doc.c - a document's compiler messages, loaded once and looked up
 * per line (tkv_diag_doc.h). */
#include "document/tkv_diag_doc.h"

#include <string.h>

#define DATA_KEY "tkv-diag-doc"

struct TkvDiagKernel {
    gboolean failed;
    GPtrArray *entries;  /* const tk_diag_entry *, of the set */
    GArray *files;       /* tk_file_id per entry */
    GHashTable *source;  /* "file:line" -> GPtrArray of entries */
    GHashTable *ir;      /* "stage:line" -> GPtrArray of entries */
};

static void kernel_free(gpointer p)
{
    TkvDiagKernel *k = p;
    if (!k)
        return;
    g_ptr_array_unref(k->entries);
    g_array_unref(k->files);
    g_hash_table_destroy(k->source);
    g_hash_table_destroy(k->ir);
    g_free(k);
}

/* Per document, kept as its data: the set, and the kernels looked up.  A
 * GObject for its "ready" signal. */
#define TKV_TYPE_DIAG_DOC (tkv_diag_doc_get_type())
G_DECLARE_FINAL_TYPE(TkvDiagDoc, tkv_diag_doc, TKV, DIAG_DOC, GObject)

struct _TkvDiagDoc {
    GObject parent_instance;
    TkvDocument *doc;    /* not a reference: the document owns this */
    tk_diag_set *set;    /* NULL: none (yet) */
    gboolean started, ready;
    GHashTable *kernels; /* kernel index + 1 -> TkvDiagKernel, NULL value: none */
};

G_DEFINE_FINAL_TYPE(TkvDiagDoc, tkv_diag_doc, G_TYPE_OBJECT)

static guint ready_sig;

static void tkv_diag_doc_finalize(GObject *object)
{
    TkvDiagDoc *d = TKV_DIAG_DOC(object);
    if (d->doc)
        g_object_remove_weak_pointer(G_OBJECT(d->doc), (gpointer *)&d->doc);
    g_hash_table_destroy(d->kernels);
    tk_diag_set_free(d->set);
    G_OBJECT_CLASS(tkv_diag_doc_parent_class)->finalize(object);
}

static void tkv_diag_doc_class_init(TkvDiagDocClass *klass)
{
    G_OBJECT_CLASS(klass)->finalize = tkv_diag_doc_finalize;
    ready_sig = g_signal_new("ready", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
                             NULL, NULL, G_TYPE_NONE, 0);
}

static void tkv_diag_doc_init(TkvDiagDoc *d)
{
    d->kernels = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, kernel_free);
}

static TkvDiagDoc *diag_doc(TkvDocument *doc)
{
    TkvDiagDoc *d = g_object_get_data(G_OBJECT(doc), DATA_KEY);
    if (d)
        return d;
    d = g_object_new(TKV_TYPE_DIAG_DOC, NULL);
    d->doc = doc;
    /* a read still running when the document goes finds it gone */
    g_object_add_weak_pointer(G_OBJECT(doc), (gpointer *)&d->doc);
    g_object_set_data_full(G_OBJECT(doc), DATA_KEY, d, g_object_unref);
    return d;
}

/* The folder whose streams are read: the document's, when it is one. */
static const char *folder_of(TkvDocument *doc)
{
    const char *path = tkv_document_get_path(doc);
    return tkv_document_get_bundle(doc) && path && g_file_test(path, G_FILE_TEST_IS_DIR)
               ? path
               : NULL;
}

/* The streams read (on any thread): ties them to the bundle's kernels on
 * the main thread, where the bundle is read. */
static void attach(TkvDiagDoc *d, tk_diag_set *set)
{
    if (set && tk_diag_set_stream_count(set)) {
        tk_diag_set_attach(set, tkv_document_get_bundle(d->doc), NULL, NULL);
        d->set = set;
    } else {
        tk_diag_set_free(set);
    }
    d->ready = TRUE;
}

static void read_in_thread(GTask *task, gpointer source, gpointer data, GCancellable *c)
{
    tk_diag_set *set = tk_diag_set_new();
    tk_diag_set_read_folder(set, data, NULL);
    g_task_return_pointer(task, set, (GDestroyNotify)tk_diag_set_free);
}

static void read_done(GObject *source, GAsyncResult *res, gpointer unused)
{
    TkvDiagDoc *d = TKV_DIAG_DOC(source);
    tk_diag_set *set = g_task_propagate_pointer(G_TASK(res), NULL);
    if (!d->doc) {
        tk_diag_set_free(set);
        return;
    }
    attach(d, set);
    g_signal_emit(d, ready_sig, 0);
}

gpointer tkv_diag_doc_load_async(TkvDocument *doc)
{
    if (!doc || !tkv_document_is_loaded(doc))
        return NULL;
    TkvDiagDoc *d = diag_doc(doc);
    if (d->started)
        return d;
    d->started = TRUE;
    const char *folder = folder_of(doc);
    if (!folder) {
        d->ready = TRUE;
        return d;
    }
    /* The task holds D (and so the document's data) until it is done. */
    GTask *task = g_task_new(d, NULL, read_done, NULL);
    g_task_set_task_data(task, g_strdup(folder), g_free);
    g_task_run_in_thread(task, read_in_thread);
    g_object_unref(task);
    return d;
}

gboolean tkv_diag_doc_is_ready(TkvDocument *doc)
{
    TkvDiagDoc *d = doc ? g_object_get_data(G_OBJECT(doc), DATA_KEY) : NULL;
    return d && d->ready;
}

static void add(GHashTable *map, char *key, const tk_diag_entry *e)
{
    GPtrArray *l = g_hash_table_lookup(map, key);
    if (!l) {
        l = g_ptr_array_new();
        g_hash_table_insert(map, key, l);
    } else {
        g_free(key);
    }
    if (!g_ptr_array_find(l, e, NULL))
        g_ptr_array_add(l, (gpointer)e);
}

/* The id of PATH among the bundle's files, without adding it. */
static tk_file_id file_of(GHashTable *ids, const char *path)
{
    gpointer v;
    if (!path || !g_hash_table_lookup_extended(ids, path, NULL, &v))
        return TKV_NO_FILE;
    return (tk_file_id)GPOINTER_TO_UINT(v);
}

static gint by_level(gconstpointer a, gconstpointer b)
{
    const tk_diag_entry *x = *(const tk_diag_entry *const *)a;
    const tk_diag_entry *y = *(const tk_diag_entry *const *)b;
    return (int)y->level - (int)x->level;
}

static TkvDiagKernel *kernel_new(TkvDocument *doc, const tk_diag_set *set, size_t ki)
{
    TkvDiagKernel *k = g_new0(TkvDiagKernel, 1);
    k->failed = tk_diag_set_kernel(set, ki)->failed;
    k->entries = g_ptr_array_new();
    k->files = g_array_new(FALSE, FALSE, sizeof(tk_file_id));
    k->source = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                      (GDestroyNotify)g_ptr_array_unref);
    k->ir = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                  (GDestroyNotify)g_ptr_array_unref);
    for (size_t i = 0; i < tk_diag_set_count(set); i++) {
        const tk_diag_entry *e = tk_diag_set_entry(set, i);
        if (e->kernel == ki)
            g_ptr_array_add(k->entries, (gpointer)e);
    }
    /* The worst first, as the report lists them (stable: read order kept). */
    g_ptr_array_sort(k->entries, by_level);
    tk_loctab *tab = tk_bundle_loctab(tkv_document_get_bundle(doc));
    GHashTable *ids = g_hash_table_new(g_str_hash, g_str_equal);
    for (size_t f = 0; tab && f < tk_loctab_file_count(tab); f++)
        g_hash_table_insert(ids, (gpointer)tk_loctab_file_path(tab, (tk_file_id)f),
                            GUINT_TO_POINTER((guint)f));
    for (guint i = 0; i < k->entries->len; i++) {
        const tk_diag_entry *e = k->entries->pdata[i];
        tk_file_id inner = e->n_stack ? file_of(ids, e->stack[0].file) : TKV_NO_FILE;
        g_array_append_val(k->files, inner);
        for (size_t s = 0; s < e->n_stack; s++) {
            tk_file_id f = file_of(ids, e->stack[s].file);
            if (f != TKV_NO_FILE && e->stack[s].line > 0)
                add(k->source, g_strdup_printf("%u:%u", f, e->stack[s].line), e);
        }
        if (e->has_stage && e->ir_line)
            add(k->ir, g_strdup_printf("%d:%u", (int)e->stage, e->ir_line), e);
    }
    g_hash_table_destroy(ids);
    return k;
}

const TkvDiagKernel *tkv_diag_doc_kernel(TkvDocument *doc, guint kernel)
{
    if (!doc || !tkv_document_is_loaded(doc))
        return NULL;
    TkvDiagDoc *d = diag_doc(doc);
    if (!d->started) { /* nobody asked for it early: read it now */
        d->started = TRUE;
        const char *folder = folder_of(doc);
        tk_diag_set *set = NULL;
        if (folder) {
            set = tk_diag_set_new();
            tk_diag_set_read_folder(set, folder, NULL);
        }
        attach(d, set);
    }
    if (!d->set)
        return NULL;
    gpointer key = GUINT_TO_POINTER(kernel + 1), v;
    if (g_hash_table_lookup_extended(d->kernels, key, NULL, &v))
        return v;
    const tk_kernel *tk = tkv_document_get_kernel(doc, kernel);
    size_t ki = tk ? tk_diag_set_find_kernel(d->set, tk) : SIZE_MAX;
    TkvDiagKernel *k = NULL;
    if (ki != SIZE_MAX) {
        k = kernel_new(doc, d->set, ki);
        if (!k->entries->len && !k->failed) {
            kernel_free(k);
            k = NULL;
        }
    }
    g_hash_table_insert(d->kernels, key, k);
    return k;
}

gboolean tkv_diag_kernel_failed(const TkvDiagKernel *k)
{
    return k && k->failed;
}

guint tkv_diag_kernel_count(const TkvDiagKernel *k)
{
    return k ? k->entries->len : 0;
}

const tk_diag_entry *tkv_diag_kernel_entry(const TkvDiagKernel *k, guint i)
{
    return k && i < k->entries->len ? k->entries->pdata[i] : NULL;
}

tk_file_id tkv_diag_kernel_entry_file(const TkvDiagKernel *k, guint i)
{
    return k && i < k->files->len ? g_array_index(k->files, tk_file_id, i) : TKV_NO_FILE;
}

static GPtrArray *source_list(const TkvDiagKernel *k, tk_file_id file, guint line)
{
    if (!k || file == TKV_NO_FILE)
        return NULL;
    char key[32];
    g_snprintf(key, sizeof key, "%u:%u", file, line);
    return g_hash_table_lookup(k->source, key);
}

static GPtrArray *ir_list(const TkvDiagKernel *k, tk_stage_kind stage, guint line)
{
    if (!k)
        return NULL;
    char key[32];
    g_snprintf(key, sizeof key, "%d:%u", (int)stage, line);
    return g_hash_table_lookup(k->ir, key);
}

static int worst(GPtrArray *l)
{
    int w = -1;
    for (guint i = 0; l && i < l->len; i++) {
        const tk_diag_entry *e = l->pdata[i];
        if ((int)e->level > w)
            w = (int)e->level;
    }
    return w;
}

static char *texts(GPtrArray *l)
{
    if (!l || !l->len)
        return NULL;
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < l->len; i++) {
        char *t = tkv_diag_entry_text(l->pdata[i]);
        g_string_append_printf(s, "%s%s", i ? "\n\n" : "", t);
        g_free(t);
    }
    return g_string_free(s, FALSE);
}

int tkv_diag_kernel_source_level(const TkvDiagKernel *k, tk_file_id file, guint line)
{
    return worst(source_list(k, file, line));
}

int tkv_diag_kernel_ir_level(const TkvDiagKernel *k, tk_stage_kind stage, guint line)
{
    return worst(ir_list(k, stage, line));
}

char *tkv_diag_kernel_source_text(const TkvDiagKernel *k, tk_file_id file, guint line)
{
    return texts(source_list(k, file, line));
}

char *tkv_diag_kernel_ir_text(const TkvDiagKernel *k, tk_stage_kind stage, guint line)
{
    return texts(ir_list(k, stage, line));
}

char *tkv_diag_entry_text(const tk_diag_entry *e)
{
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "%s (%s%s%s): %s", tk_diag_level_name(e->level),
                           tk_diag_origin_name(e->origin), e->code ? " " : "",
                           e->code ? e->code : "", e->message);
    for (size_t i = 0; i < e->n_notes; i++)
        g_string_append_printf(s, "\nnote: %s", e->notes[i]);
    if (e->pass)
        g_string_append_printf(s, "\npass: %s", e->pass);
    const tk_diag_known *kn = tk_diag_entry_explain(e);
    if (kn && kn->meaning)
        g_string_append_printf(s, "\nwhat it means: %s", kn->meaning);
    if (kn && kn->try_this)
        g_string_append_printf(s, "\nwhat to try: %s", kn->try_this);
    return g_string_free(s, FALSE);
}

char *tkv_diag_entry_where(const tk_diag_entry *e)
{
    GString *s = g_string_new(NULL);
    const tk_diag_frame *f = e->n_stack ? &e->stack[0] : NULL;
    if (f) {
        const char *slash = strrchr(f->file, '/');
        g_string_append_printf(s, "%s:%u", slash ? slash + 1 : f->file, f->line);
        if (f->column)
            g_string_append_printf(s, ":%u", f->column);
    } else {
        g_string_append(s, "no source line");
    }
    if (e->has_stage && e->ir_line)
        g_string_append_printf(s, " [%s:%u]", tk_stage_kind_name(e->stage), e->ir_line);
    return g_string_free(s, FALSE);
}
