/* compiles.c - the pass dumps a capture kept apart per compile as they were
 * made: FOLDER/compiles/HASH.PID.N.txt, one file per compile, written by
 * tkview capture's Python hook through Triton's stage hook
 * (docs/capture.md, "Each compile's dumps").
 *
 * The file name says whose dumps they are: the compile whose Triton hash
 * (NAME.json's "hash") is HASH.  Each file is listed for that kernel, as a
 * bundle's manifest lists its slices (bundle_passfiles_add with an owner),
 * so no content matching decides between compiles: two compiles whose dumps
 * are identical (an option that acts only after LLVM IR) each get their
 * own.  A file whose hash names no kernel loaded (a compile that failed
 * before Triton wrote its NAME.json) is matched by content like any stderr.
 * The same hash compiled again (TRITON_ALWAYS_COMPILE, in the parent and in
 * a worker) gives the same dumps: the first file, by name, is read.
 *
 * Like the rest of passfiles/, it reads nothing outside a bundle it was
 * given: a link in the folder to a file elsewhere is not read.  The same
 * rule for a bundle's refs files (passes/refs.c), whose pool is checked
 * here before one is indexed, is at the end.
 */
#include "passfiles/internal.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "passes/internal.h"

#define HASH_LEN 64

static int str_order(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The hash a per-compile file's name starts with ("HASH.PID.N.txt"), into
 * OUT; FALSE when the name is not of that form. */
static gboolean name_hash(const char *base, char out[HASH_LEN + 1])
{
    size_t n = strspn(base, "0123456789abcdef");
    if (n != HASH_LEN || base[n] != '.' || !g_str_has_suffix(base, ".txt"))
        return FALSE;
    memcpy(out, base, HASH_LEN);
    out[HASH_LEN] = 0;
    return TRUE;
}

static const tk_kernel *kernel_of_hash(const tk_bundle *b, const char *hash)
{
    for (guint i = 0; i < b->kernels->len; i++) {
        const tk_kernel *k = g_ptr_array_index(b->kernels, i);
        if (k->hash && strcmp(k->hash, hash) == 0)
            return k;
    }
    return NULL;
}

/* Whether PATH may be read: a regular file, not a link out of the bundle. */
static gboolean readable_file(const tk_bundle *b, const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return FALSE;
    if (S_ISLNK(st.st_mode) &&
        (stat(path, &st) != 0 ||
         (b->confine && !bundle_path_within(b->confine, path))))
        return FALSE;
    return S_ISREG(st.st_mode) && st.st_size > 0;
}

gboolean bundle_passfiles_add_compiles(tk_bundle *b, const char *root,
                                       tk_diags *diags)
{
    char *dir = g_build_filename(root, "compiles", NULL);
    struct stat st;
    GDir *d = lstat(dir, &st) == 0 && S_ISDIR(st.st_mode)
                  ? g_dir_open(dir, 0, NULL) : NULL;
    if (!d) {
        g_free(dir);
        return FALSE;
    }
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    for (const char *e; (e = g_dir_read_name(d));)
        g_ptr_array_add(names, g_strdup(e));
    g_dir_close(d);
    g_ptr_array_sort(names, str_order);
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                             NULL);
    size_t unowned = 0;
    for (guint i = 0; i < names->len; i++) {
        const char *base = g_ptr_array_index(names, i);
        char *path = g_build_filename(dir, base, NULL);
        char hash[HASH_LEN + 1];
        /* HASH.PID.N.out: what a compile worker printed, not dumps. */
        if (base[0] == '.' || !g_str_has_suffix(base, ".txt") ||
            !readable_file(b, path)) {
            g_free(path);
            continue;
        }
        const tk_kernel *k = name_hash(base, hash) ? kernel_of_hash(b, hash)
                                                   : NULL;
        if (k && g_hash_table_contains(seen, hash)) {
            g_free(path); /* the same compile again: the same dumps */
            continue;
        }
        if (k)
            g_hash_table_add(seen, g_strdup(hash));
        else
            unowned++;
        bundle_passfiles_add(b, path, k);
        bundle_pass_file *f = g_ptr_array_index(b->pass_found, b->pass_found->len - 1);
        f->one_compile = TRUE;
        g_free(path);
    }
    if (unowned)
        tk_diags_add(diags, TK_DIAG_NOTE, dir, 0,
                     "%zu compile(s) here name no kernel loaded (a compile "
                     "that failed before Triton wrote its NAME.json); their "
                     "dumps are matched to kernels by content",
                     unowned);
    g_hash_table_destroy(seen);
    g_ptr_array_unref(names);
    g_free(dir);
    return TRUE;
}

gboolean bundle_passfiles_owns(const tk_bundle *b, const tk_kernel *k)
{
    for (guint i = 0; b->pass_found && i < b->pass_found->len; i++)
        if (((bundle_pass_file *)g_ptr_array_index(b->pass_found, i))->owner == k)
            return TRUE;
    return FALSE;
}

/* ---- a bundle's refs files: their pool is read only inside the bundle --- */

gboolean bundle_passfiles_is_refs(const char *path)
{
    char *why = NULL;
    int fd = tk_input_file_open(path, TK_INPUT_FILE_PASS_DUMP, NULL, &why);
    g_free(why);
    if (fd < 0)
        return FALSE;
    gboolean refs = passes_refs_is(fd);
    close(fd);
    return refs;
}

int64_t bundle_passfiles_refs_head(const char *path, const char *confine,
                                   char *buf, size_t cap)
{
    if (!bundle_passfiles_refs_allowed(path, confine, NULL))
        return -1;
    char *why = NULL;
    passes_refs *r = passes_refs_open(path, &why);
    g_free(why);
    int64_t n = r ? passes_refs_pread(r, 0, buf, cap) : -1;
    passes_refs_free(r);
    return n;
}

gboolean bundle_passfiles_refs_allowed(const char *path, const char *confine,
                                       tk_diags *diags)
{
    if (!bundle_passfiles_is_refs(path))
        return TRUE; /* the index reads it, or says why it cannot */
    char *why = NULL;
    char *pool = passes_refs_pool_path(path, &why);
    struct stat st;
    gboolean ok = pool && lstat(pool, &st) == 0 && bundle_may_read(confine, pool);
    if (!pool)
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                     "cannot read this dump refs file: %s", why);
    else if (lstat(pool, &st) != 0)
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                     "cannot read this dump refs file: its dump pool %s is "
                     "missing", pool);
    else if (!ok)
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                     "not read: its dump pool %s is outside the bundle %s or "
                     "a link out of it (a bundle reads only its own files)",
                     pool, confine);
    g_free(why);
    g_free(pool);
    return ok;
}
