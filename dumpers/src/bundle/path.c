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

char *bundle_path_inside(const char *root_real, const char *rel,
                         const char *manifest, const char *what,
                         tk_diags *diags)
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
