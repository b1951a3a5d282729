/* timings.c - the autotuner's timings file (tk_configs.h says its shape)
 * read and matched to compiles by their configuration items. */
#include "configs/internal.h"

#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/stat.h>

#include "tkdump/tk_input_file.h"


struct configs_timings {
    JsonParser *parser;
    JsonArray *configs; /* owned by PARSER */
};

configs_timings *configs_timings_read(const char *path, tk_diags *diags)
{
    struct stat st;
    if (!path || lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    /* one entry per config benchmarked, a few hundred bytes each: a file
     * over the limit of its kind (tk_input_file.h) is not one */
    if ((uint64_t)st.st_size > tk_input_file_limit(TK_INPUT_FILE_TIMINGS)) {
        tk_diags_add(diags, TK_DIAG_WARNING, path, 0,
                     "autotune timings file of %lld bytes is too large; timings left out",
                     (long long)st.st_size);
        return NULL;
    }
    JsonParser *p = json_parser_new();
    GError *err = NULL;
    if (!json_parser_load_from_file(p, path, &err)) {
        tk_diags_add(diags, TK_DIAG_WARNING, path, 0, "autotune timings not read: %s",
                     err ? err->message : "not JSON");
        g_clear_error(&err);
        g_object_unref(p);
        return NULL;
    }
    JsonNode *root = json_parser_get_root(p);
    JsonObject *o = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
    JsonNode *cfg = o ? json_object_get_member(o, "configs") : NULL;
    if (!cfg || !JSON_NODE_HOLDS_ARRAY(cfg)) {
        tk_diags_add(diags, TK_DIAG_WARNING, path, 0,
                     "autotune timings not read: no \"configs\" list");
        g_object_unref(p);
        return NULL;
    }
    configs_timings *t = g_new0(configs_timings, 1);
    t->parser = p;
    t->configs = json_node_get_array(cfg);
    return t;
}

void configs_timings_free(configs_timings *t)
{
    if (!t)
        return;
    g_object_unref(t->parser);
    g_free(t);
}

/* Whether entry E is configuration C of kernel NAME: num_warps and
 * num_stages, when it names them, equal C's, and so does every kwarg C has
 * an item of that name for, at least one thing checked.  A kwarg C has no
 * item for (Inductor's GROUP_M, ACC_TYPE: constexprs no tl.arange shows)
 * can be neither confirmed nor refuted: it is passed over, and an entry
 * that then matches two compiles, or a compile two entries, gives none
 * its time (configs_timings_of()). */
static gboolean matches(JsonObject *e, const tk_config *c, const char *name)
{
    JsonNode *kn = json_object_get_member(e, "kernel");
    if (kn && (!JSON_NODE_HOLDS_VALUE(kn) ||
               json_node_get_value_type(kn) != G_TYPE_STRING ||
               g_strcmp0(json_node_get_string(kn), name) != 0))
        return FALSE;
    int checked = 0;
    static const char *const top[] = {"num_warps", "num_stages"};
    for (size_t i = 0; i < G_N_ELEMENTS(top); i++) {
        JsonNode *v = json_object_get_member(e, top[i]);
        if (!v)
            continue;
        const tk_config_item *it = tk_config_find(c, top[i]);
        if (!it || !it->is_number || !JSON_NODE_HOLDS_VALUE(v) ||
            json_node_get_value_type(v) != G_TYPE_INT64 ||
            it->number != json_node_get_int(v))
            return FALSE;
        checked++;
    }
    JsonNode *kwn = json_object_get_member(e, "kwargs");
    if (!kwn)
        return checked > 0;
    if (!JSON_NODE_HOLDS_OBJECT(kwn))
        return FALSE;
    JsonObject *kw = json_node_get_object(kwn);
    GList *m = json_object_get_members(kw);
    gboolean ok = TRUE;
    for (GList *l = m; l && ok; l = l->next) {
        const tk_config_item *it = tk_config_find(c, l->data);
        if (!it)
            continue;
        char *text = json_to_string(json_object_get_member(kw, l->data), FALSE);
        ok = strcmp(it->value, text) == 0;
        checked++;
        g_free(text);
    }
    g_list_free(m);
    return ok && checked > 0;
}

/* The median of entry E's "ms": the first of a list, or the number. */
static gboolean median_of(JsonObject *e, double *ms)
{
    JsonNode *n = json_object_get_member(e, "ms");
    if (n && JSON_NODE_HOLDS_ARRAY(n) && json_array_get_length(json_node_get_array(n)))
        n = json_array_get_element(json_node_get_array(n), 0);
    if (!n || !JSON_NODE_HOLDS_VALUE(n))
        return FALSE;
    GType ty = json_node_get_value_type(n);
    if (ty != G_TYPE_DOUBLE && ty != G_TYPE_INT64)
        return FALSE;
    *ms = json_node_get_double(n);
    return TRUE;
}

int configs_timings_of(const configs_timings *t, const tk_config *c, const char *name,
                       double *ms)
{
    int hits = 0;
    for (guint i = 0; t && i < json_array_get_length(t->configs); i++) {
        JsonNode *n = json_array_get_element(t->configs, i);
        if (!JSON_NODE_HOLDS_OBJECT(n))
            continue;
        JsonObject *e = json_node_get_object(n);
        double v;
        if (matches(e, c, name) && median_of(e, &v)) {
            *ms = v;
            hits++;
        }
    }
    return hits == 1; /* two entries match: not known to be this one's */
}

/* Entry E's member KEY when it is a string, else NULL. */
static const char *string_of(JsonObject *e, const char *key)
{
    JsonNode *n = json_object_get_member(e, key);
    return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING
               ? json_node_get_string(n)
               : NULL;
}

static gboolean is_extern(JsonObject *e)
{
    JsonNode *n = json_object_get_member(e, "extern");
    return n && JSON_NODE_HOLDS_VALUE(n) &&
           json_node_get_value_type(n) == G_TYPE_BOOLEAN && json_node_get_boolean(n);
}

char *configs_timings_extern(const configs_timings *t, const char *name, double *ms)
{
    if (!t)
        return NULL;
    /* The operations NAME's compiles were benchmarked for ("mm"). */
    GHashTable *ops = g_hash_table_new(g_str_hash, g_str_equal);
    guint n = json_array_get_length(t->configs);
    for (guint i = 0; i < n; i++) {
        JsonNode *x = json_array_get_element(t->configs, i);
        JsonObject *e = JSON_NODE_HOLDS_OBJECT(x) ? json_node_get_object(x) : NULL;
        const char *op = e ? string_of(e, "op") : NULL;
        if (op && !is_extern(e) && g_strcmp0(string_of(e, "kernel"), name) == 0)
            g_hash_table_add(ops, (gpointer)op);
    }
    const char *best = NULL;
    for (guint i = 0; i < n && g_hash_table_size(ops); i++) {
        JsonNode *x = json_array_get_element(t->configs, i);
        JsonObject *e = JSON_NODE_HOLDS_OBJECT(x) ? json_node_get_object(x) : NULL;
        const char *op = e ? string_of(e, "op") : NULL;
        double v;
        if (!op || !is_extern(e) || !g_hash_table_contains(ops, op) || !median_of(e, &v))
            continue;
        if (!best || v < *ms) {
            const char *label = string_of(e, "choice");
            best = label && *label ? label : string_of(e, "kernel");
            best = best ? best : "extern";
            *ms = v;
        }
    }
    g_hash_table_destroy(ops);
    return best ? g_strdup(best) : NULL;
}
