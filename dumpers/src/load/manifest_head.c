/* manifest_head.c - the bundle-wide part of a manifest.json: what wrote it
 * and what was captured (tool, compiler, command, completeness, the pass
 * dumps asked for), and the sources it carries.  The kernels are read by
 * manifest.c, which calls these first; docs/bundle.md has the format. */
#include "load/internal.h"

#include <string.h>

/* "a b 'c d'": the argument vector as a shell would take it back. */
static char *join_argv(char **argv)
{
    GString *s = g_string_new(NULL);
    for (char **a = argv; *a; a++) {
        if (s->len)
            g_string_append_c(s, ' ');
        gboolean plain = **a != '\0';
        for (const char *p = *a; *p && plain; p++)
            plain = g_ascii_isalnum(*p) || strchr("_-+=/.,:@%", *p);
        if (plain) {
            g_string_append(s, *a);
        } else {
            char *q = g_shell_quote(*a);
            g_string_append(s, q);
            g_free(q);
        }
    }
    return g_string_free(s, FALSE);
}

void bundle_manifest_read_header(tk_bundle *b, JsonObject *o)
{
    b->tool_version = g_strdup(bundle_json_string(o, "tool_version"));
    JsonObject *comp = bundle_json_object(o, "compiler");
    b->compiler_name = g_strdup(bundle_json_string(comp, "name"));
    b->compiler_version = g_strdup(bundle_json_string(comp, "version"));
    b->compiler_target = g_strdup(bundle_json_string(comp, "target"));
    if (b->compiler_name && b->compiler_version)
        b->compiler = g_strdup_printf("%s %s", b->compiler_name,
                                      b->compiler_version);
    else if (b->compiler_name)
        b->compiler = g_strdup(b->compiler_name);
    JsonArray *cmd = bundle_json_array(o, "command");
    if (cmd) {
        GPtrArray *argv = g_ptr_array_new();
        for (guint i = 0; i < json_array_get_length(cmd); i++) {
            JsonNode *n = json_array_get_element(cmd, i);
            if (JSON_NODE_TYPE(n) == JSON_NODE_VALUE &&
                json_node_get_value_type(n) == G_TYPE_STRING)
                g_ptr_array_add(argv, g_strdup(json_node_get_string(n)));
        }
        g_ptr_array_add(argv, NULL);
        b->argv = (char **)g_ptr_array_free(argv, FALSE);
        b->command = join_argv(b->argv);
    }
    b->complete = bundle_json_bool(o, "complete");
    b->created = g_strdup(bundle_json_string(o, "created"));
    const char *passes = bundle_json_string(bundle_json_object(o, "capture"), "passes");
    /* only the words capture writes: anything else says nothing */
    if (passes && (!strcmp(passes, "all") || !strcmp(passes, "mlir") ||
                   !strcmp(passes, "none")))
        b->passes_asked = g_strdup(passes);
}

/* A source's original path: "path_hex" when present (the exact bytes of a
 * path that is not UTF-8), else "path".  Caller frees; NULL when neither. */
static char *path_of(JsonObject *s)
{
    const char *hex = bundle_json_string(s, "path_hex");
    size_t n = hex ? strlen(hex) : 0;
    if (n > 0 && n % 2 == 0) {
        char *out = g_malloc(n / 2 + 1);
        size_t j = 0;
        for (size_t i = 0; i < n; i += 2) {
            int hi = g_ascii_xdigit_value(hex[i]);
            int lo = g_ascii_xdigit_value(hex[i + 1]);
            if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
                break; /* not hex, or a NUL no path holds */
            out[j++] = (char)(hi << 4 | lo);
        }
        out[j] = '\0';
        if (j == n / 2)
            return out;
        g_free(out);
    }
    return g_strdup(bundle_json_string(s, "path"));
}

void bundle_manifest_read_sources(tk_bundle *b, JsonObject *o, const char *manifest,
                                  tk_diags *diags)
{
    JsonArray *a = bundle_json_array(o, "sources");
    for (guint i = 0; a && i < json_array_get_length(a); i++) {
        JsonNode *n = json_array_get_element(a, i);
        JsonObject *s = JSON_NODE_TYPE(n) == JSON_NODE_OBJECT
                            ? json_node_get_object(n)
                            : NULL;
        char *path = path_of(s);
        const char *file = bundle_json_string(s, "file");
        if (!path || !file) {
            g_free(path);
            tk_diags_add(diags, TK_DIAG_WARNING, manifest, 0,
                         "sources[%u] needs \"path\" and \"file\"; skipped",
                         i);
            continue;
        }
        char *what = g_strdup_printf("the copy of source %s", path);
        char *local = bundle_path_inside_of(b, file, manifest, what, diags);
        g_free(what);
        if (local)
            g_hash_table_replace(b->stored_sources, path, local);
        else
            g_free(path);
    }
}
