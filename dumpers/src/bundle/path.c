/* path.c - paths that must stay inside a folder, and file names that
 * are safe to create.
 *
 * A bundle comes from another machine, maybe from someone else: its manifest
 * names files by relative paths, and nothing it says may make the reader open
 * a file outside the bundle (an absolute path, "..", a symlink leading out).
 * The writer never uses a path from its input as an output name: it makes
 * names from safe characters only.
 */
#include "bundle/internal.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Whether REL climbs out with a ".." component. */
static gboolean has_dotdot(const char *rel)
{
    const char *p = rel;
    while (*p) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 2 && p[0] == '.' && p[1] == '.')
            return TRUE;
        if (!slash)
            break;
        p = slash + 1;
    }
    return FALSE;
}

/* Whether the real path REAL is strictly under the folder ROOT_REAL (both
 * absolute and symlink-free).  The root itself is not a file inside it; "/"
 * as root keeps every path. */
static gboolean real_is_under(const char *real, const char *root_real)
{
    size_t n = strlen(root_real);
    return n == 1 ? real[1] != '\0'
                  : strncmp(real, root_real, n) == 0 && real[n] == '/' &&
                        real[n + 1] != '\0';
}

gboolean bundle_path_within(const char *root_real, const char *path)
{
    char *real = realpath(path, NULL);
    gboolean ok = real && real_is_under(real, root_real);
    free(real);
    return ok;
}

gboolean bundle_may_read(const char *confine, const char *path)
{
    return !confine || bundle_path_within(confine, path);
}

/* Whether REL's components are all names: none empty, "." or "..". */
static gboolean is_plain(const char *rel)
{
    for (const char *p = rel;;) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 0 || (n == 1 && p[0] == '.') ||
            (n == 2 && p[0] == '.' && p[1] == '.'))
            return FALSE;
        if (!slash)
            return TRUE;
        p = slash + 1;
    }
}

/* ROOT_REAL/REL when that is its real path, said with one lstat(): REL's
 * folder is one found symlink-free before (in DIRS, added here after one
 * realpath() of it) and REL itself is no symlink.  NULL when that cannot
 * be said quickly: realpath() (a readlink() per component of the whole
 * path, for each of the hundreds of files a manifest names) decides. */
static char *inside_quick(const char *root_real, const char *rel,
                          GHashTable *dirs)
{
    if (!dirs || !is_plain(rel))
        return NULL;
    const char *slash = strrchr(rel, '/');
    if (slash) {
        char *dir = g_strndup(rel, (gsize)(slash - rel));
        if (!g_hash_table_contains(dirs, dir)) {
            char *joined = g_build_filename(root_real, dir, NULL);
            char *real = realpath(joined, NULL);
            gboolean same = real && strcmp(real, joined) == 0;
            free(real);
            g_free(joined);
            if (!same) {
                g_free(dir);
                return NULL;
            }
            g_hash_table_add(dirs, g_strdup(dir));
        }
        g_free(dir);
    }
    char *joined = g_build_filename(root_real, rel, NULL);
    struct stat st;
    if (lstat(joined, &st) != 0 || S_ISLNK(st.st_mode)) {
        g_free(joined);
        return NULL;
    }
    return joined;
}

static char *inside(const char *root_real, GHashTable *dirs, const char *rel,
                    const char *manifest, const char *what, tk_diags *diags)
{
    if (!rel || !*rel) {
        tk_diags_add(diags, TK_DIAG_WARNING, manifest, 0,
                     "empty path for %s; skipped", what);
        return NULL;
    }
    if (rel[0] == '/') {
        tk_diags_add(diags, TK_DIAG_WARNING, manifest, 0,
                     "refusing absolute path \"%s\" for %s: a bundle names "
                     "its files relative to its folder",
                     rel, what);
        return NULL;
    }
    if (has_dotdot(rel)) {
        tk_diags_add(diags, TK_DIAG_WARNING, manifest, 0,
                     "refusing path \"%s\" for %s: \"..\" would leave the "
                     "bundle folder",
                     rel, what);
        return NULL;
    }
    char *quick = inside_quick(root_real, rel, dirs);
    if (quick)
        return quick;
    char *joined = g_build_filename(root_real, rel, NULL);
    char *real = realpath(joined, NULL);
    if (!real) {
        tk_diags_add(diags, TK_DIAG_WARNING, manifest, 0,
                     "%s \"%s\" is missing from the bundle: %s", what, rel,
                     g_strerror(errno));
        g_free(joined);
        return NULL;
    }
    g_free(joined);
    if (!real_is_under(real, root_real)) {
        tk_diags_add(diags, TK_DIAG_WARNING, manifest, 0,
                     "refusing path \"%s\" for %s: it leads outside the "
                     "bundle folder (to %s) through a symbolic link",
                     rel, what, real);
        free(real);
        return NULL;
    }
    char *out = g_strdup(real);
    free(real);
    return out;
}

char *bundle_path_inside(const char *root_real, const char *rel,
                         const char *manifest, const char *what,
                         tk_diags *diags)
{
    return inside(root_real, NULL, rel, manifest, what, diags);
}

char *bundle_path_inside_of(tk_bundle *b, const char *rel,
                            const char *manifest, const char *what,
                            tk_diags *diags)
{
    return inside(b->root, b->real_dirs, rel, manifest, what, diags);
}

char *bundle_path_safe_name(const char *s, size_t max)
{
    if (max == 0)
        max = 1;
    GString *out = g_string_sized_new(32);
    for (const char *p = s ? s : ""; *p && out->len < max; p++) {
        unsigned char c = (unsigned char)*p;
        gboolean ok = g_ascii_isalnum(c) || c == '_' || c == '-' ||
                      c == '+' || (c == '.' && out->len > 0);
        g_string_append_c(out, ok ? (char)c : '_');
    }
    if (out->len == 0)
        g_string_append_c(out, '_');
    return g_string_free(out, FALSE);
}

char *bundle_path_relative(const char *root, const char *path)
{
    size_t n = strlen(root);
    if (n > 0 && strncmp(path, root, n) == 0 &&
        (path[n] == '/' || root[n - 1] == '/') && path[n] != '\0') {
        const char *rel = path + n;
        while (*rel == '/')
            rel++;
        if (*rel)
            return g_strdup(rel);
    }
    return g_strdup(path);
}
