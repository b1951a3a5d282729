/* sources.c - finding the source file a location names.
 *
 * Locations carry the capture machine's paths (/tmp/capture/NAME/src/k.py,
 * /opt/.../triton/language/standard.py).  They are looked for, in order:
 *   1. in the bundle's sources/ (the manifest maps original path -> copy);
 *   2. at the original path itself;
 *   3. under the folder that was loaded: the file whose path ends with the
 *      longest run of the location's last path components (at least its base
 *      name), when exactly one file has that longest match.  A capture
 *      folder moved elsewhere keeps src/k.py and inductor/XX/cXX.py;
 *   4. in each --source-dir folder, under the longest tail of the location's
 *      path that exists there.
 * Each answer is cached, a miss too, so a file not found is reported once.
 *
 * The trust rule (docs/bundle.md, "What a bundle may read"): a bundle is
 * someone else's folder, and its locations may name any path of this
 * machine (/etc/passwd, ../../.ssh/id_rsa, a link in the bundle to either).
 * So when the input is a bundle (b->confine), a file found by steps 1-3 is
 * used only when its real path is inside the bundle folder; step 2 is
 * skipped outright; step 4 reads folders the user named, under a tail of
 * the path without "..".  A location whose file is refused shows as
 * path:line, with a note.
 */
#include "bundle/internal.h"
#include "tkdump/tk_input_file.h"

#include <unistd.h>

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Limits on the walk of the loaded folder, which may be someone's home. */
#define WALK_MAX_DEPTH 10
#define WALK_MAX_ENTRIES 200000

/* The components of PATH after its last "..", without "" and ".".  Caller
 * frees with g_strfreev. */
static char **components(const char *path)
{
    char **parts = g_strsplit(path, "/", -1);
    GPtrArray *out = g_ptr_array_new();
    for (char **p = parts; *p; p++) {
        if (!**p || strcmp(*p, ".") == 0)
            continue;
        if (strcmp(*p, "..") == 0) {
            for (size_t i = 0; i < out->len; i++)
                g_free(out->pdata[i]);
            g_ptr_array_set_size(out, 0);
            continue;
        }
        g_ptr_array_add(out, g_strdup(*p));
    }
    g_strfreev(parts);
    g_ptr_array_add(out, NULL);
    return (char **)g_ptr_array_free(out, FALSE);
}

static gboolean is_regular(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* ---- the index of the loaded folder ----------------------------------- */

typedef struct {
    GHashTable *index;
    size_t entries;
    const char *inside; /* when set, symbolic links leading out of this
                           folder are skipped (a bundle from elsewhere) */
} walk_state;

/* Whether the symbolic link PATH leads into W->inside. */
static gboolean link_stays_inside(const walk_state *w, const char *path)
{
    return bundle_path_within(w->inside, path);
}

static void walk(walk_state *w, const char *root, const char *rel, int depth)
{
    char *dir = rel ? g_build_filename(root, rel, NULL) : g_strdup(root);
    GDir *d = g_dir_open(dir, 0, NULL);
    if (!d) {
        g_free(dir);
        return;
    }
    for (const char *e; (e = g_dir_read_name(d)) &&
                        w->entries < WALK_MAX_ENTRIES;) {
        w->entries++;
        if (e[0] == '.')
            continue;
        char *path = g_build_filename(dir, e, NULL);
        char *sub = rel ? g_build_filename(rel, e, NULL) : g_strdup(e);
        struct stat st;
        if (lstat(path, &st) != 0) {
            g_free(sub);
            g_free(path);
            continue;
        }
        /* Symbolic links to folders are not followed: no cycles. */
        if (S_ISDIR(st.st_mode)) {
            if (depth < WALK_MAX_DEPTH)
                walk(w, root, sub, depth + 1);
        } else if (is_regular(path) &&
                   !(w->inside && S_ISLNK(st.st_mode) &&
                     !link_stays_inside(w, path))) {
            GPtrArray *list = g_hash_table_lookup(w->index, e);
            if (!list) {
                list = g_ptr_array_new_with_free_func(g_free);
                g_hash_table_insert(w->index, g_strdup(e), list);
            }
            g_ptr_array_add(list, sub);
            sub = NULL;
        }
        g_free(sub);
        g_free(path);
    }
    g_dir_close(d);
    g_free(dir);
}

static GHashTable *suffix_index(tk_bundle *b)
{
    if (!b->suffix_index) {
        walk_state w = {
            .index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                           (GDestroyNotify)g_ptr_array_unref),
            /* A bundle may come from anyone: a link in it to
             * ~/.ssh/id_rsa named like a source must not be read. */
            .inside = b->confine,
        };
        if (b->root)
            walk(&w, b->root, NULL, 0);
        b->suffix_index = w.index;
    }
    return b->suffix_index;
}

/* How many trailing components A (N_A of them) and B share. */
static size_t common_tail(char **a, size_t n_a, char **b, size_t n_b)
{
    size_t k = 0;
    while (k < n_a && k < n_b && strcmp(a[n_a - 1 - k], b[n_b - 1 - k]) == 0)
        k++;
    return k;
}

/* Step 3.  *AMBIGUOUS is set when several files tie for the longest tail. */
static char *find_under_root(tk_bundle *b, char **comps, size_t n,
                             gboolean *ambiguous)
{
    if (n == 0)
        return NULL;
    GPtrArray *list = g_hash_table_lookup(suffix_index(b), comps[n - 1]);
    if (!list)
        return NULL;
    size_t best = 0, n_best = 0;
    const char *best_rel = NULL;
    for (size_t i = 0; i < list->len; i++) {
        const char *rel = g_ptr_array_index(list, i);
        char **rc = components(rel);
        size_t k = common_tail(comps, n, rc, g_strv_length(rc));
        g_strfreev(rc);
        if (k > best) {
            best = k;
            n_best = 1;
            best_rel = rel;
        } else if (k == best) {
            n_best++;
        }
    }
    if (n_best != 1) {
        *ambiguous = n_best > 1;
        return NULL;
    }
    return g_build_filename(b->root, best_rel, NULL);
}

/* Step 4. */
static char *find_in_dirs(tk_bundle *b, char **comps, size_t n)
{
    for (char **dir = b->source_dirs; dir && *dir; dir++)
        for (size_t i = 0; i < n; i++) {
            char *tail = g_strjoinv("/", comps + i);
            char *p = g_build_filename(*dir, tail, NULL);
            g_free(tail);
            if (is_regular(p))
                return p;
            g_free(p);
        }
    return NULL;
}

/* Whether the file PATH may be read under the trust rule (the top of this
 * file): always for the user's own folders; for a bundle, when its real
 * path is inside the bundle folder.  *OUTSIDE is set when PATH is a file
 * refused for leading out. */
static gboolean may_read(const tk_bundle *b, const char *path,
                         gboolean *outside)
{
    if (!is_regular(path))
        return FALSE;
    if (bundle_may_read(b->confine, path))
        return TRUE;
    *outside = TRUE;
    return FALSE;
}

static char *find_source(tk_bundle *b, const char *orig, gboolean *ambiguous,
                         gboolean *outside)
{
    const char *stored = g_hash_table_lookup(b->stored_sources, orig);
    if (stored && may_read(b, stored, outside))
        return g_strdup(stored);
    if (g_path_is_absolute(orig)) {
        /* The capture machine's own path: on the user's own folders, the
         * file is often still there.  Never for a bundle: the path is the
         * bundle's to choose. */
        if (!b->confine && is_regular(orig))
            return g_strdup(orig);
        if (b->confine && is_regular(orig) &&
            !bundle_path_within(b->confine, orig))
            *outside = TRUE;
    } else if (b->root && *orig) {
        char *p = g_build_filename(b->root, orig, NULL);
        if (may_read(b, p, outside))
            return p;
        g_free(p);
    }
    char **comps = components(orig);
    size_t n = g_strv_length(comps);
    char *found = find_under_root(b, comps, n, ambiguous);
    if (found && !may_read(b, found, outside)) {
        g_free(found);
        found = NULL;
    }
    /* A --source-dir folder is the user's: what is under it is read, at a
     * tail of the location's path that has no ".." (components()). */
    if (!found)
        found = find_in_dirs(b, comps, n);
    g_strfreev(comps);
    return found;
}

/* Why a file was not found, kept per file id with SOURCE_MISS_TOLD once a
 * caller with a tk_diags got the note: whoever resolves a file first (the
 * statement cache asks without diagnostics) must not swallow it. */
enum {
    SOURCE_MISS_NOT_FOUND = 1,
    SOURCE_MISS_AMBIGUOUS = 2,
    SOURCE_MISS_OUTSIDE = 3,
    SOURCE_MISS_SPECIAL = 4,
    SOURCE_MISS_WHY = 7,
    SOURCE_MISS_TOLD = 8,
};

/* The bundle's own copy of ORIG (its sources/ entry, or ORIG under the
 * bundle folder) when that is there but not a regular file (a FIFO, a
 * device, a folder), or NULL.  Caller frees. */
static char *special_copy(const tk_bundle *b, const char *orig)
{
    const char *stored = g_hash_table_lookup(b->stored_sources, orig);
    char *cands[2] = {
        stored ? g_strdup(stored) : NULL,
        b->root && *orig && !g_path_is_absolute(orig)
            ? g_build_filename(b->root, orig, NULL)
            : NULL,
    };
    char *out = NULL;
    for (int i = 0; i < 2; i++) {
        struct stat st;
        if (!out && cands[i] && stat(cands[i], &st) == 0 &&
            !S_ISREG(st.st_mode))
            out = g_strdup(cands[i]);
        g_free(cands[i]);
    }
    return out;
}

/* Gives DIAGS the note of why FILE (KEY) was not found, once per bundle. */
static void note_miss(tk_bundle *b, tk_file_id file, gpointer key, tk_diags *diags)
{
    guint miss = GPOINTER_TO_UINT(g_hash_table_lookup(b->misses, key));
    if (!diags || (miss & SOURCE_MISS_TOLD))
        return;
    g_hash_table_insert(b->misses, key, GUINT_TO_POINTER(miss | SOURCE_MISS_TOLD));
    const char *orig = tk_loctab_file_path(b->tab, file);
    size_t n_dirs = b->source_dirs ? g_strv_length(b->source_dirs) : 0;
    char *special = (miss & SOURCE_MISS_WHY) == SOURCE_MISS_SPECIAL
                        ? special_copy(b, orig)
                        : NULL;
    if (special) {
        char *why = NULL;
        int fd = tk_input_file_open(special, TK_INPUT_FILE_SOURCE, NULL, &why);
        if (fd >= 0)
            close(fd);
        tk_diags_add(diags, TK_DIAG_WARNING, special, 0,
                     "source file not read: %s stands where the bundle's "
                     "copy of %s should be; its locations show as path:line "
                     "only",
                     why ? why : "not a regular file", orig);
        g_free(why);
        g_free(special);
    } else if ((miss & SOURCE_MISS_WHY) == SOURCE_MISS_OUTSIDE)
        tk_diags_add(diags, TK_DIAG_NOTE, orig, 0,
                     "source file not read: it is outside the bundle %s, "
                     "and a bundle reads only its own files and those of "
                     "--source-dir folders (a bundle from elsewhere may "
                     "name any file of this machine); its locations show "
                     "as path:line only",
                     b->confine);
    else if ((miss & SOURCE_MISS_WHY) == SOURCE_MISS_AMBIGUOUS)
        tk_diags_add(diags, TK_DIAG_NOTE, orig, 0,
                     "source file not found: several files under %s end "
                     "like this path, none better than the others; its "
                     "locations show as path:line only",
                     b->root ? b->root : "the loaded folder");
    else
        tk_diags_add(diags, TK_DIAG_NOTE, orig, 0,
                     "source file not found (looked in the bundle's "
                     "sources, %sunder %s and in %zu --source-dir "
                     "folder%s); its locations show as path:line only",
                     b->confine ? "" : "at the path itself, ",
                     b->root ? b->root : "the loaded folder", n_dirs,
                     n_dirs == 1 ? "" : "s");
}

const char *bundle_sources_resolve(tk_bundle *b, tk_file_id file,
                                   tk_diags *diags)
{
    if (file >= tk_loctab_file_count(b->tab))
        return NULL;
    if (!b->resolved)
        b->resolved = g_hash_table_new_full(NULL, NULL, NULL, g_free);
    gpointer key = GUINT_TO_POINTER((guint)file + 1);
    const char *hit = g_hash_table_lookup(b->resolved, key);
    if (hit) {
        if (!*hit)
            note_miss(b, file, key, diags);
        return *hit ? hit : NULL;
    }
    const char *orig = tk_loctab_file_path(b->tab, file);
    gboolean ambiguous = FALSE, outside = FALSE;
    char *found = find_source(b, orig, &ambiguous, &outside);
    char *special_path = found ? NULL : special_copy(b, orig);
    gboolean special = special_path != NULL;
    g_free(special_path);
    if (found) {
        g_hash_table_insert(b->resolved, key, found);
        return found;
    }
    g_hash_table_insert(b->resolved, key, g_strdup(""));
    if (!b->misses)
        b->misses = g_hash_table_new(NULL, NULL);
    g_hash_table_insert(b->misses, key,
                        GUINT_TO_POINTER(outside     ? SOURCE_MISS_OUTSIDE
                                         : ambiguous ? SOURCE_MISS_AMBIGUOUS
                                         : special   ? SOURCE_MISS_SPECIAL
                                                     : SOURCE_MISS_NOT_FOUND));
    note_miss(b, file, key, diags);
    return NULL;
}

gboolean bundle_sources_outside(const tk_bundle *b, tk_file_id file)
{
    guint miss = b->misses ? GPOINTER_TO_UINT(g_hash_table_lookup(
                                 b->misses, GUINT_TO_POINTER((guint)file + 1)))
                           : 0;
    return (miss & SOURCE_MISS_WHY) == SOURCE_MISS_OUTSIDE;
}

void bundle_sources_clear(tk_bundle *b)
{
    if (b->misses)
        g_hash_table_destroy(b->misses);
    b->misses = NULL;
    if (b->resolved)
        g_hash_table_destroy(b->resolved);
    if (b->suffix_index)
        g_hash_table_destroy(b->suffix_index);
    b->resolved = b->suffix_index = NULL;
}
