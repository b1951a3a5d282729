/* edit.c - adding a file to a kernel of an existing tkview bundle
 * (tk_bundle_add_kernel_file): a profile imported after the capture.
 *
 * The bundle was loaded from its manifest, so the kernel's entry there is
 * found again by name and hash and its "folder" checked like every path
 * of a manifest (bundle_path_inside).  The new file and the new manifest
 * are each written to a hidden temporary file beside their target and
 * renamed over it: a reader sees the old bundle or the new one, never half
 * a file.  The manifest is rewritten whole with json-glib, so keys this
 * file does not know are kept.
 */
#include "bundle/internal.h"
#include "tkdump/tk_bundle_write.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

/* Writes LEN bytes of DATA to PATH through a temporary file beside it.
 * Returns 0, or -1 with *ERR set (caller frees). */
static int write_replace(const char *path, const void *data, size_t len,
                         char **err)
{
    char *dir = g_path_get_dirname(path);
    char *tmpl = g_build_filename(dir, ".tkview-edit-XXXXXX", NULL);
    g_free(dir);
    int fd = g_mkstemp_full(tmpl, O_WRONLY | O_CLOEXEC, 0644);
    int rc = -1;
    if (fd < 0) {
        *err = g_strdup_printf("cannot create a file beside %s: %s", path,
                               g_strerror(errno));
        g_free(tmpl);
        return -1;
    }
    const char *p = data;
    size_t left = len;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        p += w;
        left -= (size_t)w;
    }
    if (left > 0 || fsync(fd) != 0) {
        *err = g_strdup_printf("cannot write %s: %s", tmpl, g_strerror(errno));
        close(fd);
    } else if (close(fd) != 0) {
        *err = g_strdup_printf("cannot write %s: %s", tmpl, g_strerror(errno));
    } else if (rename(tmpl, path) != 0) {
        *err = g_strdup_printf("cannot rename %s to %s: %s", tmpl, path,
                               g_strerror(errno));
    } else {
        rc = 0;
    }
    if (rc != 0)
        unlink(tmpl);
    g_free(tmpl);
    return rc;
}

/* The manifest's entry of KERNEL: the kernel object whose name and hash
 * are the kernel's; NULL when none. */
static JsonObject *find_entry(JsonObject *root, const tk_kernel *k)
{
    JsonArray *ks = bundle_json_array(root, "kernels");
    for (guint i = 0; ks && i < json_array_get_length(ks); i++) {
        JsonNode *n = json_array_get_element(ks, i);
        if (!JSON_NODE_HOLDS_OBJECT(n))
            continue;
        JsonObject *o = json_node_get_object(n);
        const char *name = bundle_json_string(o, "name");
        const char *hash = bundle_json_string(o, "hash");
        if (name && hash && strcmp(name, k->name) == 0 &&
            strcmp(hash, k->hash) == 0)
            return o;
    }
    return NULL;
}

int tk_bundle_add_kernel_file(tk_bundle *b, const tk_kernel *ck,
                              const char *key, const char *name,
                              const void *data, size_t len, int replace,
                              tk_diags *diags)
{
    /* The kernel belongs to the bundle, which owns it: recording the new
     * path in it keeps tk_kernel_profile_path() true for this load. */
    tk_kernel *k = (tk_kernel *)ck;
    if (b->kind != TK_INPUT_BUNDLE) {
        tk_diags_add(diags, TK_DIAG_ERROR, b->path, 0,
                     "not a tkview bundle: make one with `tkview bundle %s "
                     "-o BUNDLE` first",
                     b->path);
        return -1;
    }
    char *manifest = g_build_filename(b->root, "manifest.json", NULL);
    char *error = NULL;
    /* The one trust check: a manifest that became a link out of the bundle
     * since it was loaded is neither read nor written through. */
    JsonNode *rootn = NULL;
    if (bundle_may_read(b->confine ? b->confine : b->root, manifest))
        rootn = bundle_json_read_file(manifest, TK_INPUT_FILE_MANIFEST, &error);
    else
        error = g_strdup("a symbolic link out of the bundle (a bundle reads "
                         "only its own files)");
    char *safe = NULL, *folder_real = NULL, *target = NULL, *rel = NULL;
    char *text = NULL;
    int rc = -1;
    if (!rootn || !JSON_NODE_HOLDS_OBJECT(rootn)) {
        tk_diags_add(diags, TK_DIAG_ERROR, manifest, 0, "cannot read: %s",
                     error ? error : "not a JSON object");
        goto done;
    }
    JsonObject *entry = find_entry(json_node_get_object(rootn), k);
    const char *folder = entry ? bundle_json_string(entry, "folder") : NULL;
    if (!folder) {
        tk_diags_add(diags, TK_DIAG_ERROR, manifest, 0,
                     "kernel %s (%s) has no entry with a folder", k->name,
                     k->hash);
        goto done;
    }
    folder_real = bundle_path_inside(b->root, folder, manifest,
                                     "the kernel's folder", diags);
    if (!folder_real)
        goto done;
    safe = bundle_path_safe_name(name, 120);
    target = g_build_filename(folder_real, safe, NULL);
    rel = g_strdup_printf("%s/%s", folder, safe);
    JsonObject *files = bundle_json_object(entry, "files");
    if (!files) {
        files = json_object_new();
        json_object_set_object_member(entry, "files", files);
    }
    const char *had = bundle_json_string(files, key);
    if (!replace && (had || g_file_test(target, G_FILE_TEST_EXISTS))) {
        tk_diags_add(diags, TK_DIAG_ERROR, manifest, 0,
                     "kernel %s already has a %s file (%s): give --force to "
                     "replace it",
                     k->name, key, had ? had : rel);
        goto done;
    }
    char *err = NULL;
    if (write_replace(target, data, len, &err) != 0) {
        tk_diags_add(diags, TK_DIAG_ERROR, target, 0, "%s", err);
        g_free(err);
        goto done;
    }
    json_object_set_string_member(files, key, rel);
    JsonGenerator *g = json_generator_new();
    json_generator_set_root(g, rootn);
    json_generator_set_pretty(g, TRUE);
    gsize tlen;
    text = json_generator_to_data(g, &tlen);
    g_object_unref(g);
    if (write_replace(manifest, text, tlen, &err) != 0) {
        tk_diags_add(diags, TK_DIAG_ERROR, manifest, 0, "%s", err);
        g_free(err);
        goto done;
    }
    if (strcmp(key, "profile") == 0) {
        g_free(k->profile_path);
        k->profile_path = g_strdup(target);
    }
    rc = 0;
done:
    if (rootn)
        json_node_unref(rootn);
    g_free(error);
    g_free(text);
    g_free(rel);
    g_free(target);
    g_free(safe);
    g_free(folder_real);
    g_free(manifest);
    return rc;
}
