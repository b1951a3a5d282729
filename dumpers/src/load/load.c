/* load.c - loading: what PATH is (a bundle, a capture, a cache, loose
 * files), scanning it, its pass files, and freeing the bundle with all
 * that its jobs keep on it. */
#include "tkdump/tk_bundle.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_input_file.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "load/internal.h"
#include "passfiles/internal.h"
#include "statement/statement.h"

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
    b->kernels = g_ptr_array_new_with_free_func((GDestroyNotify)kernel_free);
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

/* Whether the folder DIR holds something named manifest.json (of any type:
 * a FIFO or a dangling link there still says "a bundle"). */
static gboolean has_manifest(const char *dir)
{
    char *m = g_build_filename(dir, "manifest.json", NULL);
    struct stat st;
    gboolean yes = lstat(m, &st) == 0;
    g_free(m);
    return yes;
}

/* The bundle folder that REAL (a real path) belongs to: REAL itself when it
 * is a folder holding a manifest.json, else the nearest of the two folders
 * above it that holds one (a kernel folder, its passes/ folder, a stage file
 * in them).  NULL when none: the user's own files.  Caller frees. */
static char *bundle_folder_of(const char *real, gboolean is_dir)
{
    char *dir = is_dir ? g_strdup(real) : g_path_get_dirname(real);
    for (int up = 0; up < 3; up++) {
        if (has_manifest(dir))
            return dir;
        char *parent = g_path_get_dirname(dir);
        gboolean top = strcmp(parent, dir) == 0;
        g_free(dir);
        dir = parent;
        if (top)
            break;
    }
    g_free(dir);
    return NULL;
}

/* Keeps as many kernels as the load's budget has left (a manifest listing
 * a million), saying how many were left out. */
static void keep_within_budget(tk_bundle *b, const char *path, tk_diags *diags)
{
    size_t n = b->kernels->len;
    char *why = NULL;
    if (tk_input_budget_charge(TK_INPUT_BUDGET_KERNELS, n, &why) == 0)
        return;
    uint64_t left = tk_input_budget_left(TK_INPUT_BUDGET_KERNELS);
    size_t keep = left < n ? (size_t)left : n;
    tk_diags_add(diags, TK_DIAG_WARNING, path, 0,
                 "%zu kernels, %s: the first %zu are loaded, %zu left out", n,
                 why, keep, n - keep);
    g_free(why);
    tk_input_budget_charge(TK_INPUT_BUDGET_KERNELS, keep, NULL);
    g_ptr_array_set_size(b->kernels, (guint)keep);
}

static tk_bundle *load(const char *path, const tk_load_options *opts,
                       gboolean on_demand, tk_diags *diags)
{
    if (!path || !*path) {
        tk_diags_add(diags, TK_DIAG_ERROR, "", 0, "no path given");
        return NULL;
    }
    /* PATH/manifest.json names its bundle even when it is a link: the
     * link is the bundle's file, and is checked like any other below. */
    char *given_base = g_path_get_basename(path);
    gboolean names_manifest = strcmp(given_base, "manifest.json") == 0;
    g_free(given_base);
    char *real = NULL;
    if (names_manifest) {
        char *dir = g_path_get_dirname(path);
        real = real_path(dir);
        g_free(dir);
    } else {
        real = real_path(path);
    }
    if (!real) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                     "no such file or folder");
        return NULL;
    }
    tk_bundle *b = bundle_new(path, opts);
    b->stages_on_demand = on_demand;
    size_t errors_before =
        diags ? tk_diags_count_at_least(diags, TK_DIAG_ERROR) : 0;
    gboolean is_dir = g_file_test(real, G_FILE_TEST_IS_DIR);
    char *base = g_path_get_basename(real);
    if (names_manifest) {
        is_dir = TRUE;
    } else if (!is_dir && strcmp(base, "manifest.json") == 0) {
        /* The manifest itself names its bundle. */
        char *dir = g_path_get_dirname(real);
        g_free(real);
        real = dir;
        is_dir = TRUE;
    }
    g_free(base);
    /* A bundle came from someone else: what it names is read only inside
     * it (docs/bundle.md, "What a bundle may read"), whether its manifest
     * can be used or not, and whether it is loaded whole or one of its files
     * is. */
    b->confine = bundle_folder_of(real, is_dir);

    if (is_dir) {
        b->root = g_strdup(real);
        char *manifest = g_build_filename(real, "manifest.json", NULL);
        gboolean have_manifest = has_manifest(real);
        /* The manifest is the first file a bundle names: the same trust
         * check as every other (a link to /etc/passwd or to a manifest
         * elsewhere is not read). */
        gboolean manifest_ok = have_manifest &&
                               bundle_may_read(b->confine, manifest);
        if (have_manifest && !manifest_ok) {
            char *target = g_file_read_link(manifest, NULL);
            tk_diags_add(diags, TK_DIAG_WARNING, manifest, 0,
                         "not read: a symbolic link out of the bundle%s%s "
                         "(a bundle reads only its own files); looking for "
                         "kernel folders instead",
                         target ? " to " : "", target ? target : "");
            g_free(target);
        }
        if (manifest_ok && bundle_manifest_load(b, manifest, diags) == 0) {
            b->kind = TK_INPUT_BUNDLE;
        } else {
            /* A manifest we cannot use still leaves the kernel folders,
             * which are found like any HASH folders; its sources/ are not
             * kernels. */
            bundle_scan_folder(b, real, have_manifest ? "sources" : NULL,
                               diags);
            /* A bundle lists its pass dumps; any other folder may hold
             * some under any name (mlir_passes.txt, stderr.txt, run2.log). */
            bundle_passfiles_find(b, real, diags);
            /* No stage file, but pass dumps (an MLIR_DUMP_PATH file and a
             * stderr copied from another machine): their compiles are the
             * kernels, as for one such file given as PATH. */
            if (b->kernels->len == 0 && bundle_passfiles_load_found(b, diags))
                b->kind = TK_INPUT_FILES;
        }
        g_free(manifest);
    } else if (g_file_test(real, G_FILE_TEST_IS_REGULAR)) {
        b->root = g_path_get_dirname(real);
        bundle_scan_file(b, real, diags);
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
            bundle_passfiles_report_rejected(b, diags);
        }
        tk_bundle_free(b);
        return NULL;
    }
    g_ptr_array_sort(b->kernels, kernel_order);
    keep_within_budget(b, path, diags);
    return b;
}

tk_bundle *tk_bundle_load(const char *path, const tk_load_options *opts,
                          tk_diags *diags)
{
    return load(path, opts, FALSE, diags);
}

tk_bundle *tk_bundle_load_on_demand(const char *path, const tk_load_options *opts,
                                    tk_diags *diags)
{
    return load(path, opts, TRUE, diags);
}

int tk_bundle_kernel_read(tk_bundle *b, size_t index, tk_diags *diags)
{
    if (!b || index >= b->kernels->len)
        return 0;
    tk_kernel *k = g_ptr_array_index(b->kernels, (guint)index);
    if (!k->unread)
        return 0;
    k->unread = FALSE;
    /* In the order a whole load reads them (manifest.c, read_kernel()). */
    if (k->meta_path)
        bundle_meta_read_options(k, k->meta_path, diags);
    return kernel_read_stages(k, b->tab, diags);
}

void tk_bundle_free(tk_bundle *b)
{
    if (!b)
        return;
    /* Kernels own stages whose stacks live in the table: free them first. */
    g_ptr_array_free(b->kernels, TRUE);
    bundle_passfiles_clear(b);
    tk_loctab_free(b->tab);
    bundle_statements_clear(b);
    bundle_sources_clear(b);
    g_hash_table_destroy(b->stored_sources);
    g_strfreev(b->source_dirs);
    g_strfreev(b->argv);
    g_free(b->path);
    g_free(b->root);
    g_free(b->confine);
    g_free(b->tool_version);
    g_free(b->compiler);
    g_free(b->compiler_name);
    g_free(b->compiler_version);
    g_free(b->compiler_target);
    g_free(b->command);
    g_free(b->created);
    g_free(b->passes_asked);
    g_free(b);
}
