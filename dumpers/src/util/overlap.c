/* overlap.c - whether an output folder and an input lie one in the other
 * (tk_staged_dir_overlap()).
 *
 * `tkview --html IN IN --force` once deleted its input and `bundle X -o
 * X/sub` wrote into the folder it read.  Comparing the names as typed is not
 * enough (IN and ./IN/, a link to IN, a bind mount of IN): both sides are
 * compared as real paths, the target's missing tail resolved from its
 * nearest existing folder, and the folders that exist are compared by
 * device and inode too.
 */
#include "tkdump/tk_staged_dir.h"

#include <errno.h>
#include <glib.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* PATH made absolute and symlink-free where it exists: the real path of its
 * longest existing prefix, then the missing components (with "." dropped
 * and ".." taken off lexically, as nothing under a missing folder can be a
 * link).  NULL when not even "/" resolves.  Caller frees. */
static char *real_target(const char *path)
{
    char *cwd = g_get_current_dir();
    char *abs = g_path_is_absolute(path) ? g_strdup(path)
                                         : g_build_filename(cwd, path, NULL);
    g_free(cwd);
    char **parts = g_strsplit(abs, "/", -1);
    g_free(abs);
    size_t n = g_strv_length(parts);
    /* The longest prefix that exists: parts[0] is "" (the root). */
    char *real = NULL;
    size_t used = n;
    for (; used > 0 && !real; used--) {
        GString *p = g_string_new(NULL);
        for (size_t i = 1; i < used; i++) {
            g_string_append_c(p, '/');
            g_string_append(p, parts[i]);
        }
        if (p->len == 0)
            g_string_assign(p, "/");
        char *r = realpath(p->str, NULL);
        g_string_free(p, TRUE);
        if (r) {
            real = g_strdup(r);
            free(r);
            break;
        }
    }
    if (!real) {
        g_strfreev(parts);
        return NULL;
    }
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    char **rp = g_strsplit(real, "/", -1);
    for (char **c = rp; *c; c++)
        if (**c)
            g_ptr_array_add(out, g_strdup(*c));
    g_strfreev(rp);
    g_free(real);
    for (size_t i = used; i < n; i++) {
        const char *c = parts[i];
        if (!*c || strcmp(c, ".") == 0)
            continue;
        if (strcmp(c, "..") == 0) {
            if (out->len)
                g_ptr_array_remove_index(out, out->len - 1);
            continue;
        }
        g_ptr_array_add(out, g_strdup(c));
    }
    g_strfreev(parts);
    GString *s = g_string_new(NULL);
    for (size_t i = 0; i < out->len; i++) {
        g_string_append_c(s, '/');
        g_string_append(s, g_ptr_array_index(out, i));
    }
    if (s->len == 0)
        g_string_assign(s, "/");
    g_ptr_array_unref(out);
    return g_string_free(s, FALSE);
}

/* Whether the real path A is B or under it. */
static gboolean at_or_under(const char *a, const char *b)
{
    size_t n = strlen(b);
    if (n == 1) /* "/" */
        return TRUE;
    return strncmp(a, b, n) == 0 && (a[n] == '\0' || a[n] == '/');
}

/* Whether the folder with device DEV and inode INO is REAL or one of its
 * ancestors (a bind mount of a folder shows under another name). */
static gboolean has_ancestor(const char *real, dev_t dev, ino_t ino)
{
    char *p = g_strdup(real);
    gboolean found = FALSE;
    for (;;) {
        struct stat st;
        if (stat(p, &st) == 0 && st.st_dev == dev && st.st_ino == ino) {
            found = TRUE;
            break;
        }
        if (strcmp(p, "/") == 0)
            break;
        char *up = g_path_get_dirname(p);
        g_free(p);
        p = up;
    }
    g_free(p);
    return found;
}

int tk_staged_dir_overlap(const char *target, const char *input)
{
    if (!target || !*target || !input || !*input)
        return TK_STAGED_DIR_APART;
    char *in = realpath(input, NULL);
    if (!in)
        return TK_STAGED_DIR_APART; /* nothing there to harm */
    char *out = real_target(target);
    int rel = TK_STAGED_DIR_APART;
    struct stat si, so;
    gboolean in_dir = stat(in, &si) == 0 && S_ISDIR(si.st_mode);
    gboolean out_exists = out && stat(out, &so) == 0;
    if (!out) {
        rel = TK_STAGED_DIR_APART;
    } else if (strcmp(out, in) == 0 ||
               (out_exists && in_dir && si.st_dev == so.st_dev &&
                si.st_ino == so.st_ino)) {
        rel = TK_STAGED_DIR_SAME;
    } else if (at_or_under(out, in) ||
               (in_dir && has_ancestor(out, si.st_dev, si.st_ino))) {
        rel = TK_STAGED_DIR_INSIDE;
    } else if (at_or_under(in, out) ||
               (out_exists && S_ISDIR(so.st_mode) &&
                has_ancestor(in, so.st_dev, so.st_ino))) {
        rel = TK_STAGED_DIR_CONTAINS;
    }
    free(in);
    g_free(out);
    return rel;
}
