/* bundle.c - loading: what PATH is, the kernel model, and finding a kernel
 * by what a user types.  The scanning, the manifest, the metadata, source
 * resolution and writing live in the bundle_*.c files beside this one. */
#include "tkdump/tk_bundle.h"

#include <stdlib.h>
#include <string.h>

#include "bundle/internal.h"

/* ---- kernels ---------------------------------------------------------- */

tk_kernel *tk_kernel_new(const char *name, const char *hash)
{
    tk_kernel *k = g_new0(tk_kernel, 1);
    k->name = g_strdup(name);
    k->hash = g_strdup(hash);
    k->meta.num_warps = k->meta.num_ctas = k->meta.num_stages = -1;
    k->meta.shared_bytes = k->meta.registers = k->meta.spill_bytes = -1;
    return k;
}

void tk_kernel_free(tk_kernel *k)
{
    if (!k)
        return;
    for (int i = 0; i < TK_STAGE_COUNT; i++) {
        g_free(k->files[i].path);
        tk_stage_free(k->stages[i]);
        g_free(k->missing[i]);
        g_free(k->missing_default[i]);
    }
    g_free(k->name);
    g_free(k->hash);
    g_free(k->origin);
    g_free(k->meta_path);
    g_free(k->cubin_path);
    g_free(k->source_path);
    g_free(k->target);
    g_free(k->triton_version);
    g_free(k);
}

gboolean tk_kernel_offer_stage(tk_kernel *k, tk_stage_kind kind,
                               const char *path, int rank, const char *ext)
{
    if (kind >= TK_STAGE_COUNT || rank <= k->files[kind].rank)
        return FALSE;
    g_free(k->files[kind].path);
    k->files[kind].path = g_strdup(path);
    k->files[kind].rank = rank;
    k->files[kind].ext = ext;
    return TRUE;
}

int tk_kernel_read_stages(tk_kernel *k, tk_loctab *tab, tk_diags *diags)
{
    int n = 0;
    for (int i = 0; i < TK_STAGE_COUNT; i++) {
        if (!k->files[i].path || k->stages[i])
            continue;
        k->stages[i] = tk_stage_read((tk_stage_kind)i, k->files[i].path, tab,
                                     diags);
        if (k->stages[i])
            n++;
        else {
            /* What could not be read is not offered to a later save. */
            g_free(k->files[i].path);
            k->files[i].path = NULL;
            k->files[i].rank = TK_RANK_NONE;
        }
    }
    return n;
}

void tk_kernel_set_target(tk_kernel *k, const char *target)
{
    g_free(k->target);
    k->target = g_strdup(target);
    k->meta.target = k->target;
}

void tk_kernel_set_triton_version(tk_kernel *k, const char *version)
{
    g_free(k->triton_version);
    k->triton_version = g_strdup(version);
    k->meta.triton_version = k->triton_version;
}

const char *tk_kernel_name(const tk_kernel *k)
{
    return k->name;
}

const char *tk_kernel_hash(const tk_kernel *k)
{
    return k->hash;
}

const tk_stage *tk_kernel_stage(const tk_kernel *k, tk_stage_kind kind)
{
    return kind < TK_STAGE_COUNT ? k->stages[kind] : NULL;
}

int tk_kernel_has_stages(const tk_kernel *k)
{
    for (int s = 0; s < TK_STAGE_COUNT; s++)
        if (k->stages[s])
            return 1;
    return 0;
}

const tk_kernel_meta *tk_kernel_metadata(const tk_kernel *k)
{
    return &k->meta;
}

const char *tk_kernel_origin(const tk_kernel *k)
{
    return k->origin ? k->origin : "";
}

const char *tk_kernel_stage_missing(const tk_kernel *ck, tk_stage_kind kind)
{
    if (kind >= TK_STAGE_COUNT || ck->stages[kind])
        return NULL;
    if (ck->missing[kind])
        return ck->missing[kind];
    /* Not recorded: say where it was looked for.  The text is made on first
     * use and cached, which is why the kernel is written to here. */
    tk_kernel *k = (tk_kernel *)ck;
    if (!k->missing_default[kind]) {
        if (k->from_passes)
            k->missing_default[kind] = g_strdup_printf(
                "no final stages were found: the kernel comes from pass dumps "
                "only (%s), which show its compile pass by pass",
                tk_kernel_origin(k));
        else if (k->files[kind].path)
            k->missing_default[kind] = g_strdup_printf(
                "%s could not be read", k->files[kind].path);
        else if (kind == TK_STAGE_SASS && k->cubin_path)
            k->missing_default[kind] = g_strdup_printf(
                "no %s.sass_gi, .sass_g or .sass beside the cubin; make one "
                "with: nvdisasm -c -gi %s", k->name, k->cubin_path);
        else
            k->missing_default[kind] = g_strdup_printf(
                "no %s file for kernel %s in %s", tk_stage_kind_name(kind),
                k->name, tk_kernel_origin(k));
    }
    return k->missing_default[kind];
}

/* ---- loading ---------------------------------------------------------- */

static int kernel_order(gconstpointer a, gconstpointer b)
{
    const tk_kernel *ka = *(tk_kernel *const *)a;
    const tk_kernel *kb = *(tk_kernel *const *)b;
    int c = strcmp(ka->name, kb->name);
    return c ? c : strcmp(ka->hash, kb->hash);
}

static tk_bundle *bundle_new(const char *path, const tk_load_options *opts)
{
    tk_bundle *b = g_new0(tk_bundle, 1);
    b->path = g_strdup(path);
    b->tab = tk_loctab_new();
    b->kernels = g_ptr_array_new_with_free_func((GDestroyNotify)tk_kernel_free);
    b->complete = -1;
    b->stored_sources = g_hash_table_new_full(g_str_hash, g_str_equal,
                                              g_free, g_free);
    GPtrArray *dirs = g_ptr_array_new();
    for (size_t i = 0; opts && i < opts->n_source_dirs; i++)
        if (opts->source_dirs[i])
            g_ptr_array_add(dirs, g_strdup(opts->source_dirs[i]));
    g_ptr_array_add(dirs, NULL);
    b->source_dirs = (char **)g_ptr_array_free(dirs, FALSE);
    return b;
}

/* The absolute, symlink-free form of PATH, or NULL. */
static char *real_path(const char *path)
{
    char *r = realpath(path, NULL);
    char *out = g_strdup(r);
    free(r);
    return out;
}

tk_bundle *tk_bundle_load(const char *path, const tk_load_options *opts,
                          tk_diags *diags)
{
    if (!path || !*path) {
        tk_diags_add(diags, TK_DIAG_ERROR, "", 0, "no path given");
        return NULL;
    }
    char *real = real_path(path);
    if (!real) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                     "no such file or folder");
        return NULL;
    }
    tk_bundle *b = bundle_new(path, opts);
    size_t errors_before =
        diags ? tk_diags_count_at_least(diags, TK_DIAG_ERROR) : 0;
    gboolean is_dir = g_file_test(real, G_FILE_TEST_IS_DIR);
    char *base = g_path_get_basename(real);
    if (!is_dir && strcmp(base, "manifest.json") == 0) {
        /* The manifest itself names its bundle. */
        char *dir = g_path_get_dirname(real);
        g_free(real);
        real = dir;
        is_dir = TRUE;
    }
    g_free(base);

    if (is_dir) {
        b->root = g_strdup(real);
        char *manifest = g_build_filename(real, "manifest.json", NULL);
        gboolean have_manifest = g_file_test(manifest, G_FILE_TEST_EXISTS);
        if (have_manifest && tk_manifest_load(b, manifest, diags) == 0) {
            b->kind = TK_INPUT_BUNDLE;
        } else {
            /* A manifest we cannot use still leaves the kernel folders,
             * which are found like any HASH folders; its sources/ are not
             * kernels. */
            tk_bundle_scan_folder(b, real, have_manifest ? "sources" : NULL,
                                  diags);
            /* A bundle lists its pass dumps; any other folder may hold
             * some under any name (mlir_passes.txt, stderr.txt, run2.log). */
            tk_passfiles_find(b, real, diags);
            /* No stage file, but pass dumps (an MLIR_DUMP_PATH file and a
             * stderr copied from another machine): their compiles are the
             * kernels, as for one such file given as PATH. */
            if (b->kernels->len == 0 && tk_passfiles_load_found(b, diags))
                b->kind = TK_INPUT_FILES;
        }
        g_free(manifest);
    } else if (g_file_test(real, G_FILE_TEST_IS_REGULAR)) {
        b->root = g_path_get_dirname(real);
        tk_bundle_scan_file(b, real, diags);
    } else {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                     "neither a folder nor a regular file");
        g_free(real);
        tk_bundle_free(b);
        return NULL;
    }
    g_free(real);

    if (b->kernels->len == 0 && b->kind != TK_INPUT_BUNDLE) {
        /* One error is enough: a lone file already said what it is not. */
        if (!diags ||
            tk_diags_count_at_least(diags, TK_DIAG_ERROR) == errors_before) {
            tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                         "no Triton kernel found (looked for a tkview "
                         "manifest.json, kernel_dump/ and cache/ folders, "
                         "HASH folders, .ttir/.ttgir/.llir/.ptx/.sass "
                         "files and pass dump files)");
            /* Name the files that were looked at: a user who copied an
             * empty or cut mlir_passes.txt sees which. */
            tk_passfiles_report_rejected(b, diags);
        }
        tk_bundle_free(b);
        return NULL;
    }
    g_ptr_array_sort(b->kernels, kernel_order);
    return b;
}

void tk_bundle_free(tk_bundle *b)
{
    if (!b)
        return;
    /* Kernels own stages whose stacks live in the table: free them first. */
    g_ptr_array_free(b->kernels, TRUE);
    tk_passfiles_clear(b);
    tk_loctab_free(b->tab);
    tk_sources_clear(b);
    g_hash_table_destroy(b->stored_sources);
    g_strfreev(b->source_dirs);
    g_strfreev(b->argv);
    g_free(b->path);
    g_free(b->root);
    g_free(b->tool_version);
    g_free(b->compiler);
    g_free(b->compiler_name);
    g_free(b->compiler_version);
    g_free(b->compiler_target);
    g_free(b->command);
    g_free(b->created);
    g_free(b);
}

tk_input_kind tk_bundle_input_kind(const tk_bundle *b)
{
    return b->kind;
}

const char *tk_bundle_path(const tk_bundle *b)
{
    return b->path;
}

tk_loctab *tk_bundle_loctab(const tk_bundle *b)
{
    return b->tab;
}

const char *tk_bundle_tool_version(const tk_bundle *b)
{
    return b->tool_version;
}

const char *tk_bundle_compiler(const tk_bundle *b)
{
    return b->compiler;
}

const char *tk_bundle_command(const tk_bundle *b)
{
    return b->command;
}

int tk_bundle_complete(const tk_bundle *b)
{
    return b->complete;
}

size_t tk_bundle_kernel_count(const tk_bundle *b)
{
    return b->kernels->len;
}

const tk_kernel *tk_bundle_kernel(const tk_bundle *b, size_t i)
{
    return i < b->kernels->len ? g_ptr_array_index(b->kernels, i) : NULL;
}

const char *tk_bundle_resolve_source(tk_bundle *b, tk_file_id file,
                                     tk_diags *diags)
{
    return tk_sources_resolve(b, file, diags);
}

/* ---- finding a kernel ------------------------------------------------- */

static gboolean all_digits(const char *s)
{
    if (!*s)
        return FALSE;
    for (; *s; s++)
        if (!g_ascii_isdigit(*s))
            return FALSE;
    return TRUE;
}

/* Whether HASH starts with PREFIX, ignoring case: Triton's hashes are hex
 * in lower case, folder names base32 in upper case. */
static gboolean hash_starts(const char *hash, const char *prefix)
{
    size_t n = strlen(prefix);
    return n > 0 && strlen(hash) >= n &&
           g_ascii_strncasecmp(hash, prefix, n) == 0;
}

const tk_kernel *tk_bundle_find_kernel(const tk_bundle *b, const char *spec,
                                       size_t *n_matches)
{
    size_t n = 0;
    const tk_kernel *found = NULL;
    size_t count = b->kernels->len;
    if (n_matches)
        *n_matches = 0;
    if (!spec || !*spec)
        return NULL;

    /* An index, as tk_bundle_kernel() counts (from 0).  Digits past the
     * count may still be a hash prefix, tried below. */
    if (all_digits(spec) && strlen(spec) < 10) {
        size_t i = (size_t)strtoul(spec, NULL, 10);
        if (i < count) {
            if (n_matches)
                *n_matches = 1;
            return g_ptr_array_index(b->kernels, i);
        }
    }

    const char *colon = strchr(spec, ':');
    for (int pass = 0; pass < 2 && n == 0; pass++) {
        for (size_t i = 0; i < count; i++) {
            const tk_kernel *k = g_ptr_array_index(b->kernels, i);
            gboolean hit;
            if (colon) /* name:hashprefix */
                hit = strlen(k->name) == (size_t)(colon - spec) &&
                      strncmp(k->name, spec, (size_t)(colon - spec)) == 0 &&
                      (colon[1] == '\0' || hash_starts(k->hash, colon + 1));
            else if (pass == 0) /* a full name first ... */
                hit = strcmp(k->name, spec) == 0;
            else /* ... then a hash or hash prefix */
                hit = hash_starts(k->hash, spec);
            if (hit) {
                n++;
                found = k;
            }
        }
        if (colon)
            break;
    }
    if (n_matches)
        *n_matches = n;
    return n == 1 ? found : NULL;
}
