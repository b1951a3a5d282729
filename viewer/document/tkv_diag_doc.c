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

typedef struct {
    tk_diag_set *set;
    GHashTable *kernels; /* kernel index + 1 -> TkvDiagKernel, NULL value: none */
} DiagDoc;

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

static void doc_free(gpointer p)
{
    DiagDoc *d = p;
    g_hash_table_destroy(d->kernels);
    tk_diag_set_free(d->set);
    g_free(d);
}

static DiagDoc *diag_doc(TkvDocument *doc)
{
    DiagDoc *d = g_object_get_data(G_OBJECT(doc), DATA_KEY);
    if (d)
        return d;
    d = g_new0(DiagDoc, 1);
    d->kernels = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, kernel_free);
    tk_bundle *b = tkv_document_get_bundle(doc);
    const char *path = tkv_document_get_path(doc);
    if (b && path && g_file_test(path, G_FILE_TEST_IS_DIR)) {
        d->set = tk_diag_set_load(path, b, NULL);
        if (!tk_diag_set_stream_count(d->set)) {
            tk_diag_set_free(d->set);
            d->set = NULL;
        }
    }
    g_object_set_data_full(G_OBJECT(doc), DATA_KEY, d, doc_free);
    return d;
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
    DiagDoc *d = diag_doc(doc);
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
