/* manifest.c - manifest.json of a tkview bundle: reading and making.
 *
 * The format is described in docs/bundle.md.  Readers ignore keys they do not
 * know, so later features (capture details, pass dumps per kernel) add keys
 * without a new format_version; format_version changes only when an old
 * reader would misread a new bundle.  Every path in a manifest is relative to
 * the bundle folder and is refused if it could lead out of it.
 */
#include "load/internal.h"
#include "passfiles/internal.h"

#include <stddef.h>
#include <string.h>

#include "tkview-config.h"

/* ---- reading ---------------------------------------------------------- */

/* The extension a bundle file of KIND is stored under: SASS keeps its
 * flavour, the others their stage name. */
static const char *store_ext(tk_stage_kind kind, const char *file)
{
    if (kind == TK_STAGE_SASS) {
        /* FILE.zst (format 4) is FILE compressed */
        size_t n = strlen(file);
        if (g_str_has_suffix(file, ".zst"))
            n -= 4;
        char *plain = g_strndup(file, n);
        const char *ext = g_str_has_suffix(plain, ".sass_gi") ? "sass_gi"
                          : g_str_has_suffix(plain, ".sass_g") ? "sass_g"
                                                               : "sass";
        g_free(plain);
        return ext;
    }
    return tk_stage_kind_name(kind);
}

/* The numbers of a kernel's "metadata" object: key and member of
 * tk_kernel_meta, in the order they are written. */
static const struct {
    const char *key;
    size_t offset;
} meta_ints[] = {
    {"num_warps", offsetof(tk_kernel_meta, num_warps)},
    {"num_ctas", offsetof(tk_kernel_meta, num_ctas)},
    {"num_stages", offsetof(tk_kernel_meta, num_stages)},
    {"shared_bytes", offsetof(tk_kernel_meta, shared_bytes)},
    {"registers", offsetof(tk_kernel_meta, registers)},
    {"spill_bytes", offsetof(tk_kernel_meta, spill_bytes)},
    {"warp_size", offsetof(tk_kernel_meta, warp_size)},
    {"waves_per_eu", offsetof(tk_kernel_meta, waves_per_eu)},
    {"sgprs", offsetof(tk_kernel_meta, sgprs)},
    {"agprs", offsetof(tk_kernel_meta, agprs)},
    {"vgpr_spills", offsetof(tk_kernel_meta, vgpr_spills)},
    {"sgpr_spills", offsetof(tk_kernel_meta, sgpr_spills)},
    {"lds_static_bytes", offsetof(tk_kernel_meta, lds_static_bytes)},
    {"occupancy", offsetof(tk_kernel_meta, occupancy)},
};

static int64_t *meta_int(tk_kernel_meta *m, size_t i)
{
    return (int64_t *)(void *)((char *)m + meta_ints[i].offset);
}

static void read_metadata(tk_kernel *k, JsonObject *m)
{
    for (size_t i = 0; i < G_N_ELEMENTS(meta_ints); i++)
        *meta_int(&k->meta, i) = bundle_json_int(m, meta_ints[i].key);
    kernel_set_target(k, bundle_json_string(m, "target"));
    kernel_set_triton_version(k, bundle_json_string(m, "triton_version"));
}

/* A path member of a kernel's "files", checked; NULL when absent or
 * refused. */
static char *kernel_file(tk_bundle *b, JsonObject *files, const char *key,
                         const char *kname, const char *manifest,
                         tk_diags *diags)
{
    const char *rel = bundle_json_string(files, key);
    if (!rel)
        return NULL;
    char *what = g_strdup_printf("the %s file of kernel %s", key, kname);
    char *p = bundle_path_inside_of(b, rel, manifest, what, diags);
    g_free(what);
    return p;
}

/* The pass dump files listed for kernel NAME (entry INDEX), checked like
 * every path of the manifest: absolute paths, "..", links leading out and
 * missing files are warnings naming manifest.json and the path. */
static GPtrArray *read_passes(tk_bundle *b, JsonObject *o, guint index,
                              const char *name, const char *manifest,
                              tk_diags *diags)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    JsonArray *a = bundle_json_array(o, "passes");
    for (guint i = 0; a && i < json_array_get_length(a); i++) {
        JsonNode *n = json_array_get_element(a, i);
        JsonObject *e = JSON_NODE_TYPE(n) == JSON_NODE_OBJECT
                            ? json_node_get_object(n)
                            : NULL;
        const char *rel = bundle_json_string(e, "file");
        if (!rel) {
            tk_diags_add(diags, TK_DIAG_WARNING, manifest, 0,
                         "kernels[%u].passes[%u] needs \"file\"; skipped",
                         index, i);
            continue;
        }
        char *what = g_strdup_printf("the pass dump file of kernel %s", name);
        char *p = bundle_path_inside_of(b, rel, manifest, what, diags);
        g_free(what);
        if (!p)
            continue;
        /* Its stored index (optional; checked against the slice when read,
         * passes/stored.c): OUT holds pairs, the index NULL when none. */
        const char *irel = bundle_json_string(e, "index");
        char *ip = NULL;
        if (irel) {
            what = g_strdup_printf("the stored index of a pass dump file of kernel %s", name);
            ip = bundle_path_inside_of(b, irel, manifest, what, diags);
            g_free(what);
        }
        g_ptr_array_add(out, p);
        g_ptr_array_add(out, ip);
    }
    return out;
}

static void read_kernel(tk_bundle *b, JsonNode *n, guint index,
                        GHashTable *seen, const char *manifest,
                        tk_diags *diags)
{
    JsonObject *o =
        JSON_NODE_TYPE(n) == JSON_NODE_OBJECT ? json_node_get_object(n) : NULL;
    const char *name = bundle_json_string(o, "name");
    const char *hash = bundle_json_string(o, "hash");
    if (!name || !*name || !hash || !*hash) {
        tk_diags_add(diags, TK_DIAG_WARNING, manifest, 0,
                     "kernels[%u] has no \"name\" or \"hash\"; skipped",
                     index);
        return;
    }
    char *id = g_strconcat(name, ":", hash, NULL);
    if (g_hash_table_contains(seen, id)) {
        tk_diags_add(diags, TK_DIAG_WARNING, manifest, 0,
                     "kernels[%u]: kernel %s is listed twice; the second "
                     "entry is skipped",
                     index, id);
        g_free(id);
        return;
    }
    g_hash_table_add(seen, id);

    tk_kernel *k = kernel_new(name, hash);
    JsonObject *stages = bundle_json_object(o, "stages");
    GList *keys = stages ? json_object_get_members(stages) : NULL;
    for (GList *l = keys; l; l = l->next) {
        tk_stage_kind kind = tk_stage_kind_parse(l->data);
        const char *rel = bundle_json_string(stages, l->data);
        if (kind == TK_STAGE_UNKNOWN || !rel)
            continue; /* a stage a later tkview knows */
        char *what = g_strdup_printf("the %s of kernel %s",
                                     tk_stage_kind_name(kind), name);
        char *p = bundle_path_inside_of(b, rel, manifest, what, diags);
        g_free(what);
        if (p)
            kernel_offer_stage(k, kind, p, KERNEL_RANK_NAMED,
                               store_ext(kind, rel));
        g_free(p);
    }
    g_list_free(keys);

    /* "sass_missing", "amdgcn_missing": why the capture has no such stage. */
    for (int i = 0; i < TK_STAGE_COUNT; i++) {
        char *key = g_strconcat(tk_stage_kind_name((tk_stage_kind)i),
                                "_missing", NULL);
        const char *why = bundle_json_string(o, key);
        if (why && *why)
            k->missing[i] = g_strdup(why);
        g_free(key);
    }

    JsonObject *files = bundle_json_object(o, "files");
    k->meta_path = kernel_file(b, files, "metadata", name, manifest, diags);
    k->cubin_path = kernel_file(b, files, "cubin", name, manifest, diags);
    k->hsaco_path = kernel_file(b, files, "hsaco", name, manifest, diags);
    k->source_path =
        kernel_file(b, files, "source_ttir", name, manifest, diags);
    k->profile_path = kernel_file(b, files, "profile", name, manifest, diags);
    /* Format 4 names the life ranges: they may be another kernel's file. */
    char *lr = kernel_file(b, files, "sass_lr", name, manifest, diags);
    if (lr) {
        g_free(k->life_ranges_path);
        k->life_ranges_path = lr;
    }

    /* The manifest's own metadata is what the writer knew; without it, the
     * files say what they can. */
    JsonObject *meta = bundle_json_object(o, "metadata");
    /* Kept whatever its stages hold (it has pass dumps), so numbered from
     * here: what is left can wait for tk_bundle_kernel_read().  (Its pass
     * files are read first then, so its warnings come in another order.) */
    GPtrArray *passes = b->stages_on_demand && meta
                            ? read_passes(b, o, index, name, manifest, diags)
                            : NULL;
    k->unread = passes && passes->len > 0;
    if (meta) {
        read_metadata(k, meta);
        if (k->meta_path && !k->unread)
            bundle_meta_read_options(k, k->meta_path, diags);
    } else {
        if (k->meta_path)
            bundle_meta_read_json(k, k->meta_path, NULL, diags);
        if (k->cubin_path)
            bundle_meta_read_cubin(k, k->cubin_path, diags);
    }

    /* Shown only, but never a path outside the bundle. */
    const char *folder = bundle_json_string(o, "folder");
    k->origin = folder ? bundle_path_inside_of(b, folder, manifest, "", NULL)
                       : NULL;
    if (!k->origin)
        k->origin = g_strdup(b->root);
    if (!passes)
        passes = read_passes(b, o, index, name, manifest, diags);
    int listed = 0;
    for (int i = 0; i < TK_STAGE_COUNT; i++)
        listed += k->files[i].path != NULL;
    /* A kernel made from pass dumps alone has no stage: its passes are what
     * there is, and a missing stage says so. */
    k->from_passes = listed == 0 && passes->len > 0;
    if (!k->unread && kernel_read_stages(k, b->tab, diags) == 0 &&
        passes->len == 0) {
        tk_diags_add(diags, TK_DIAG_WARNING, manifest, 0,
                     "kernel %s: no stage file could be read; skipped", id);
        kernel_free(k);
        g_ptr_array_unref(passes);
        return;
    }
    if (!meta)
        bundle_meta_read_amdgcn(k);
    g_ptr_array_add(b->kernels, k);
    for (guint i = 0; i + 1 < passes->len; i += 2)
        bundle_passfiles_add_indexed(b, g_ptr_array_index(passes, i),
                                     g_ptr_array_index(passes, i + 1), k);
    g_ptr_array_unref(passes);
}

int bundle_manifest_load(tk_bundle *b, const char *manifest, tk_diags *diags)
{
    char *err = NULL;
    JsonNode *root = bundle_json_read_file(manifest, TK_INPUT_FILE_MANIFEST, &err);
    const char *why = NULL;
    JsonObject *o = NULL;
    int64_t version = -1;
    if (!root)
        why = err;
    else if (JSON_NODE_TYPE(root) != JSON_NODE_OBJECT)
        why = "not a JSON object";
    else if (g_strcmp0(bundle_json_string(o = json_node_get_object(root),
                                          "format"),
                       BUNDLE_FORMAT) != 0)
        why = "no \"format\": \"" BUNDLE_FORMAT "\"";
    else if ((version = bundle_json_int(o, "format_version")) < 1)
        why = "no valid \"format_version\"";
    if (why) {
        tk_diags_add(diags, TK_DIAG_WARNING, manifest, 0,
                     "not a tkview bundle manifest (%s); looking for kernel "
                     "folders instead",
                     why);
        g_free(err);
        if (root)
            json_node_unref(root);
        return -1;
    }
    if (version > BUNDLE_FORMAT_VERSION) {
        tk_diags_add(diags, TK_DIAG_WARNING, manifest, 0,
                     "written in bundle format_version %" G_GINT64_FORMAT
                     ", newer than this tkview reads (%d); looking for "
                     "kernel folders instead",
                     (gint64)version, BUNDLE_FORMAT_VERSION);
        json_node_unref(root);
        return -1;
    }
    b->real_dirs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    bundle_manifest_read_header(b, o);
    bundle_manifest_read_sources(b, o, manifest, diags);
    JsonArray *kernels = bundle_json_array(o, "kernels");
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                             NULL);
    for (guint i = 0; kernels && i < json_array_get_length(kernels); i++)
        read_kernel(b, json_array_get_element(kernels, i), i, seen, manifest,
                    diags);
    g_hash_table_destroy(seen);
    g_hash_table_destroy(b->real_dirs);
    b->real_dirs = NULL;
    if (b->kernels->len == 0)
        tk_diags_add(diags, TK_DIAG_WARNING, manifest, 0,
                     "the bundle holds no kernel");
    json_node_unref(root);
    return 0;
}

/* ---- making ----------------------------------------------------------- */

/* JSON is UTF-8; a value that is not (a path with Latin-1 bytes) is
 * written with U+FFFD in place of the bad bytes. */
static void add_string(JsonBuilder *jb, const char *key, const char *value)
{
    json_builder_set_member_name(jb, key);
    if (!value) {
        json_builder_add_null_value(jb);
    } else if (g_utf8_validate(value, -1, NULL)) {
        json_builder_add_string_value(jb, value);
    } else {
        char *valid = g_utf8_make_valid(value, -1);
        json_builder_add_string_value(jb, valid);
        g_free(valid);
    }
}

/* A path as "path", plus its exact bytes in hex as "path_hex" when it is not
 * UTF-8, so that a reader finds the very path the locations name. */
static void add_path(JsonBuilder *jb, const char *path)
{
    add_string(jb, "path", path);
    if (g_utf8_validate(path, -1, NULL))
        return;
    GString *hex = g_string_new(NULL);
    for (const unsigned char *p = (const unsigned char *)path; *p; p++)
        g_string_append_printf(hex, "%02x", *p);
    add_string(jb, "path_hex", hex->str);
    g_string_free(hex, TRUE);
}

static void add_known_int(JsonBuilder *jb, const char *key, int64_t v)
{
    if (v < 0)
        return; /* unknown: left out */
    json_builder_set_member_name(jb, key);
    json_builder_add_int_value(jb, v);
}

/* The value all kernels agree on (via GET), or NULL. */
static const char *common_value(const tk_bundle *b,
                                const char *(*get)(const tk_kernel *))
{
    const char *v = NULL;
    for (guint i = 0; i < b->kernels->len; i++) {
        const char *kv = get(g_ptr_array_index(b->kernels, i));
        if (!kv || (v && strcmp(v, kv) != 0))
            return NULL;
        v = kv;
    }
    return v;
}

static const char *kernel_version(const tk_kernel *k)
{
    return k->meta.triton_version;
}

static const char *kernel_target(const tk_kernel *k)
{
    return k->meta.target;
}

static void add_compiler(JsonBuilder *jb, const tk_bundle *b)
{
    const char *name = b->compiler_name ? b->compiler_name : "triton";
    const char *version = b->compiler_version ? b->compiler_version
                                              : common_value(b, kernel_version);
    const char *target = b->compiler_target ? b->compiler_target
                                            : common_value(b, kernel_target);
    json_builder_set_member_name(jb, "compiler");
    json_builder_begin_object(jb);
    add_string(jb, "name", name);
    add_string(jb, "version", version);
    add_string(jb, "target", target);
    json_builder_end_object(jb);
}

static void add_kernel(JsonBuilder *jb, const bundle_manifest_kernel *mk)
{
    const tk_kernel *k = mk->kernel;
    json_builder_begin_object(jb);
    add_string(jb, "name", k->name);
    add_string(jb, "hash", k->hash);
    add_string(jb, "folder", mk->folder);
    json_builder_set_member_name(jb, "stages");
    json_builder_begin_object(jb);
    for (int i = 0; i < TK_STAGE_COUNT; i++)
        if (mk->stage[i])
            add_string(jb, tk_stage_kind_name((tk_stage_kind)i), mk->stage[i]);
    json_builder_end_object(jb);
    json_builder_set_member_name(jb, "files");
    json_builder_begin_object(jb);
    if (mk->metadata)
        add_string(jb, "metadata", mk->metadata);
    if (mk->cubin)
        add_string(jb, "cubin", mk->cubin);
    if (mk->hsaco)
        add_string(jb, "hsaco", mk->hsaco);
    if (mk->source_ttir)
        add_string(jb, "source_ttir", mk->source_ttir);
    if (mk->profile)
        add_string(jb, "profile", mk->profile);
    if (mk->sass_lr)
        add_string(jb, "sass_lr", mk->sass_lr);
    json_builder_end_object(jb);
    if (mk->passes && mk->passes->len > 0) {
        json_builder_set_member_name(jb, "passes");
        json_builder_begin_array(jb);
        for (guint i = 0; i < mk->passes->len; i++) {
            const bundle_manifest_pass *mp =
                &g_array_index(mk->passes, bundle_manifest_pass, i);
            json_builder_begin_object(jb);
            add_string(jb, "kind", mp->kind);
            add_string(jb, "file", mp->file);
            add_string(jb, "compression",
                       mp->compression ? mp->compression : "gzip");
            add_known_int(jb, "dumps", (int64_t)mp->dumps);
            if (mp->index)
                add_string(jb, "index", mp->index);
            json_builder_end_object(jb);
        }
        json_builder_end_array(jb);
    }
    for (int i = 0; i < TK_STAGE_COUNT; i++) {
        if (k->stages[i] || !k->missing[i])
            continue;
        /* Keep what the capture knew when a bundle is written again. */
        char *key = g_strconcat(tk_stage_kind_name((tk_stage_kind)i),
                                "_missing", NULL);
        add_string(jb, key, k->missing[i]);
        g_free(key);
    }
    json_builder_set_member_name(jb, "metadata");
    json_builder_begin_object(jb);
    tk_kernel_meta meta = k->meta;
    for (size_t i = 0; i < G_N_ELEMENTS(meta_ints); i++)
        add_known_int(jb, meta_ints[i].key, *meta_int(&meta, i));
    if (k->meta.target)
        add_string(jb, "target", k->meta.target);
    if (k->meta.triton_version)
        add_string(jb, "triton_version", k->meta.triton_version);
    json_builder_end_object(jb);
    json_builder_end_object(jb);
}

char *bundle_manifest_build(const tk_bundle *b, const bundle_manifest_kernel *ks,
                            size_t n_kernels, const bundle_manifest_source *srcs,
                            size_t n_sources, size_t *len)
{
    JsonBuilder *jb = json_builder_new_immutable();
    json_builder_begin_object(jb);
    add_string(jb, "format", BUNDLE_FORMAT);
    json_builder_set_member_name(jb, "format_version");
    json_builder_add_int_value(jb, BUNDLE_FORMAT_VERSION);
    add_string(jb, "tool", "tkview");
    add_string(jb, "tool_version", TKVIEW_VERSION);
    GDateTime *now = g_date_time_new_now_utc();
    char *created = g_date_time_format(now, "%Y-%m-%dT%H:%M:%SZ");
    g_date_time_unref(now);
    add_string(jb, "created", created);
    g_free(created);
    add_compiler(jb, b);
    json_builder_set_member_name(jb, "command");
    if (b->argv) {
        json_builder_begin_array(jb);
        for (char **a = b->argv; *a; a++)
            json_builder_add_string_value(jb, *a);
        json_builder_end_array(jb);
    } else {
        json_builder_add_null_value(jb);
    }
    json_builder_set_member_name(jb, "complete");
    if (b->complete >= 0)
        json_builder_add_boolean_value(jb, b->complete == 1);
    else
        json_builder_add_null_value(jb);

    json_builder_set_member_name(jb, "kernels");
    json_builder_begin_array(jb);
    for (size_t i = 0; i < n_kernels; i++)
        add_kernel(jb, &ks[i]);
    json_builder_end_array(jb);

    json_builder_set_member_name(jb, "sources");
    json_builder_begin_array(jb);
    for (size_t i = 0; i < n_sources; i++) {
        if (!srcs[i].file)
            continue;
        json_builder_begin_object(jb);
        add_path(jb, srcs[i].path);
        add_string(jb, "file", srcs[i].file);
        json_builder_end_object(jb);
    }
    json_builder_end_array(jb);
    json_builder_set_member_name(jb, "missing_sources");
    json_builder_begin_array(jb);
    for (size_t i = 0; i < n_sources; i++) {
        if (srcs[i].file)
            continue;
        json_builder_begin_object(jb);
        add_path(jb, srcs[i].path);
        add_string(jb, "reason", srcs[i].reason);
        json_builder_end_object(jb);
    }
    json_builder_end_array(jb);
    json_builder_end_object(jb);

    JsonGenerator *gen = json_generator_new();
    json_generator_set_pretty(gen, TRUE);
    JsonNode *root = json_builder_get_root(jb);
    json_generator_set_root(gen, root);
    gsize n = 0;
    char *text = json_generator_to_data(gen, &n);
    json_node_unref(root);
    g_object_unref(gen);
    g_object_unref(jb);
    *len = n;
    return text;
}
