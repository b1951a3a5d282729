/* json.c - reading JSON files without trusting them.
 *
 * JSON-GLib's parser recurses once per nesting level and overflows the stack
 * on a file of a million '[' (checked with 1.6), so the nesting depth is
 * measured first with a flat scan.  Its typed getters emit GLib criticals on
 * a missing member, which a hostile manifest must not be able to cause, hence
 * the small getters below.
 */
#include "bundle/internal.h"

#include <string.h>

#include "tkdump/tk_input_file.h"

#define MAX_DEPTH 64

/* The deepest nesting of [ and { outside strings, or MAX_DEPTH + 1 once it is
 * exceeded. */
static int json_depth(const char *p, size_t len)
{
    const char *end = p + len;
    int depth = 0, deepest = 0;
    while (p < end) {
        char c = *p++;
        if (c == '"') {
            while (p < end && *p != '"') {
                if (*p == '\\' && p + 1 < end)
                    p++;
                p++;
            }
            if (p < end)
                p++; /* the closing quote */
        } else if (c == '[' || c == '{') {
            depth++;
            if (depth > deepest)
                deepest = depth;
            if (deepest > MAX_DEPTH)
                return deepest;
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
    return deepest;
}

JsonNode *bundle_json_parse(const char *data, size_t len, char **error)
{
    GError *err = NULL;
    *error = NULL;
    if (memchr(data, '\0', len)) {
        *error = g_strdup("binary data, not JSON");
        return NULL;
    }
    if (json_depth(data, len) > MAX_DEPTH) {
        *error = g_strdup_printf("nested more than %d levels deep", MAX_DEPTH);
        return NULL;
    }
    JsonParser *parser = json_parser_new_immutable();
    JsonNode *root = NULL;
    if (json_parser_load_from_data(parser, data, (gssize)len, &err)) {
        JsonNode *r = json_parser_get_root(parser);
        root = r ? json_node_copy(r) : NULL;
        if (!root)
            *error = g_strdup("empty file");
    } else {
        *error = g_strdup(err->message);
        g_error_free(err);
    }
    g_object_unref(parser);
    return root;
}

JsonNode *bundle_json_read_file(const char *path, tk_input_file_kind kind,
                                char **error)
{
    size_t len = 0;
    *error = NULL;
    /* A regular file of at most the kind's limit, read without blocking. */
    char *data = tk_input_file_read(path, kind, &len, error);
    if (!data)
        return NULL;
    JsonNode *root = bundle_json_parse(data, len, error);
    g_free(data);
    return root;
}

static JsonNode *member(JsonObject *obj, const char *key)
{
    return obj ? json_object_get_member(obj, key) : NULL;
}

const char *bundle_json_string(JsonObject *obj, const char *key)
{
    JsonNode *n = member(obj, key);
    if (!n || JSON_NODE_TYPE(n) != JSON_NODE_VALUE ||
        json_node_get_value_type(n) != G_TYPE_STRING)
        return NULL;
    return json_node_get_string(n);
}

int64_t bundle_json_int(JsonObject *obj, const char *key)
{
    JsonNode *n = member(obj, key);
    if (!n || JSON_NODE_TYPE(n) != JSON_NODE_VALUE)
        return -1;
    GType t = json_node_get_value_type(n);
    if (t == G_TYPE_INT64) {
        gint64 v = json_node_get_int(n);
        return v >= 0 ? v : -1;
    }
    if (t == G_TYPE_DOUBLE) {
        double d = json_node_get_double(n);
        /* Only integral values in range: 4.0 is 4, 4.5 means nothing here. */
        if (d >= 0 && d < 9.0e18 && d == (double)(int64_t)d)
            return (int64_t)d;
    }
    return -1;
}

JsonObject *bundle_json_object(JsonObject *obj, const char *key)
{
    JsonNode *n = member(obj, key);
    return n && JSON_NODE_TYPE(n) == JSON_NODE_OBJECT ? json_node_get_object(n)
                                                      : NULL;
}

JsonArray *bundle_json_array(JsonObject *obj, const char *key)
{
    JsonNode *n = member(obj, key);
    return n && JSON_NODE_TYPE(n) == JSON_NODE_ARRAY ? json_node_get_array(n)
                                                     : NULL;
}

int bundle_json_bool(JsonObject *obj, const char *key)
{
    JsonNode *n = member(obj, key);
    if (!n || JSON_NODE_TYPE(n) != JSON_NODE_VALUE ||
        json_node_get_value_type(n) != G_TYPE_BOOLEAN)
        return -1;
    return json_node_get_boolean(n) ? 1 : 0;
}
