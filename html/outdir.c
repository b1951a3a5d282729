/* outdir.c - staging the report beside OUTDIR and renaming it into place
 * (outdir.h). */
#include "outdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct tk_outdir {
    char *outdir;  /* as given, trailing slashes removed */
    char *staging; /* the hidden folder beside it */
    int fd;        /* of the staging folder */
    gboolean replace; /* OUTDIR holds something to move aside */
    /* tk_report's writer thread and the main thread both write files */
    _Atomic guint64 bytes;
};

static int rm_entry(const char *path, const struct stat *st, int flag,
                    struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

/* Removes PATH and everything under it without following links. */
static void remove_tree(const char *path)
{
    nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static gboolean is_earlier_report(const char *dir)
{
    char *marker = g_build_filename(dir, TK_REPORT_MARKER, NULL);
    struct stat st;
    gboolean ok = FALSE;
    if (lstat(marker, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < 65536) {
        char *text = NULL;
        if (g_file_get_contents(marker, &text, NULL, NULL))
            ok = g_str_has_prefix(text, "{\"generator\":\"tkview\"");
        g_free(text);
    }
    g_free(marker);
    return ok;
}

static gboolean dir_is_empty(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return FALSE;
    struct dirent *e;
    gboolean empty = TRUE;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            empty = FALSE;
            break;
        }
    closedir(d);
    return empty;
}

tk_outdir *tk_outdir_begin(const char *outdir, gboolean force, tk_diags *diags)
{
    if (!outdir || !*outdir) {
        tk_diags_add(diags, TK_DIAG_ERROR, "", 0, "no output folder given");
        return NULL;
    }
    char *out = g_strdup(outdir);
    size_t n = strlen(out);
    while (n > 1 && out[n - 1] == '/')
        out[--n] = '\0';
    char *base = g_path_get_basename(out);
    if (!strcmp(base, ".") || !strcmp(base, "..") || !strcmp(base, "/")) {
        tk_diags_add(diags, TK_DIAG_ERROR, out, 0,
                     "give the report folder by name (not \".\", \"..\" or \"/\")");
        g_free(base);
        g_free(out);
        return NULL;
    }
    gboolean replace = FALSE;
    struct stat st;
    if (lstat(out, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            tk_diags_add(diags, TK_DIAG_ERROR, out, 0,
                         "exists and is not a folder; not replaced");
            goto fail;
        }
        if (!dir_is_empty(out)) {
            if (!is_earlier_report(out) && !force) {
                tk_diags_add(diags, TK_DIAG_ERROR, out, 0,
                             "is a folder that is not empty and not an earlier "
                             "tkview report; give another name, or --force to "
                             "replace it");
                goto fail;
            }
            replace = TRUE;
        }
    } else if (errno != ENOENT) {
        tk_diags_add(diags, TK_DIAG_ERROR, out, 0, "%s", g_strerror(errno));
        goto fail;
    }
    char *parent = g_path_get_dirname(out);
    char *tmpl = g_strdup_printf("%s/.%s.tkview-tmp-XXXXXX", parent, base);
    g_free(parent);
    if (!g_mkdtemp_full(tmpl, 0755)) {
        tk_diags_add(diags, TK_DIAG_ERROR, out, 0,
                     "cannot create a folder beside it: %s", g_strerror(errno));
        g_free(tmpl);
        goto fail;
    }
    int fd = open(tmpl, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        tk_diags_add(diags, TK_DIAG_ERROR, tmpl, 0, "%s", g_strerror(errno));
        remove_tree(tmpl);
        g_free(tmpl);
        goto fail;
    }
    tk_outdir *o = g_new0(tk_outdir, 1);
    o->outdir = out;
    o->staging = tmpl;
    o->fd = fd;
    o->replace = replace;
    g_free(base);
    return o;
fail:
    g_free(base);
    g_free(out);
    return NULL;
}

gboolean tk_outdir_name_ok(const char *rel)
{
    if (!rel || !*rel || strlen(rel) > 200)
        return FALSE;
    gboolean part_start = TRUE;
    for (const char *p = rel; *p; p++) {
        char c = *p;
        if (c == '/') {
            if (part_start)
                return FALSE; /* empty part or leading '/' */
            part_start = TRUE;
            continue;
        }
        if (part_start && c == '.')
            return FALSE; /* ".", "..", hidden */
        if (!g_ascii_isalnum(c) && c != '-' && c != '_' && c != '.')
            return FALSE;
        part_start = FALSE;
    }
    return !part_start;
}

int tk_outdir_mkdir(tk_outdir *o, const char *rel, tk_diags *diags)
{
    if (!tk_outdir_name_ok(rel)) {
        tk_diags_add(diags, TK_DIAG_ERROR, o->staging, 0, "bad folder name \"%s\"", rel);
        return -1;
    }
    if (mkdirat(o->fd, rel, 0755) != 0 && errno != EEXIST) {
        tk_diags_add(diags, TK_DIAG_ERROR, o->staging, 0, "%s: %s", rel,
                     g_strerror(errno));
        return -1;
    }
    return 0;
}

int tk_outdir_write(tk_outdir *o, const char *rel, const void *data, size_t len,
                    tk_diags *diags)
{
    if (!tk_outdir_name_ok(rel)) {
        tk_diags_add(diags, TK_DIAG_ERROR, o->staging, 0, "bad file name \"%s\"", rel);
        return -1;
    }
    int fd = openat(o->fd, rel, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    0644);
    if (fd < 0) {
        tk_diags_add(diags, TK_DIAG_ERROR, o->staging, 0, "%s: %s", rel,
                     g_strerror(errno));
        return -1;
    }
    const char *p = data;
    size_t left = len;
    while (left) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            tk_diags_add(diags, TK_DIAG_ERROR, o->staging, 0, "%s: %s", rel,
                         g_strerror(w < 0 ? errno : ENOSPC));
            close(fd);
            return -1;
        }
        p += w;
        left -= (size_t)w;
    }
    if (close(fd) != 0) {
        tk_diags_add(diags, TK_DIAG_ERROR, o->staging, 0, "%s: %s", rel,
                     g_strerror(errno));
        return -1;
    }
    atomic_fetch_add_explicit(&o->bytes, len, memory_order_relaxed);
    return 0;
}

guint64 tk_outdir_bytes(const tk_outdir *o)
{
    return o ? atomic_load_explicit(&o->bytes, memory_order_relaxed) : 0;
}

static void outdir_free(tk_outdir *o)
{
    if (o->fd >= 0)
        close(o->fd);
    g_free(o->outdir);
    g_free(o->staging);
    g_free(o);
}

void tk_outdir_abort(tk_outdir *o)
{
    if (!o)
        return;
    remove_tree(o->staging);
    outdir_free(o);
}

int tk_outdir_commit(tk_outdir *o, tk_diags *diags)
{
    char *aside = NULL;
    if (o->replace) {
        /* The old report goes to a hidden name first: if the second rename
         * fails it comes back, and OUTDIR is never half old, half new. */
        aside = g_strdup_printf("%s.tkview-old-XXXXXX", o->staging);
        if (!g_mkdtemp_full(aside, 0700) || rmdir(aside) != 0 ||
            rename(o->outdir, aside) != 0) {
            tk_diags_add(diags, TK_DIAG_ERROR, o->outdir, 0,
                         "cannot move the earlier report aside: %s", g_strerror(errno));
            g_free(aside);
            tk_outdir_abort(o);
            return -1;
        }
    }
    if (rename(o->staging, o->outdir) != 0) {
        int e = errno;
        if (aside)
            (void)rename(aside, o->outdir);
        tk_diags_add(diags, TK_DIAG_ERROR, o->outdir, 0, "cannot create it: %s",
                     g_strerror(e));
        g_free(aside);
        tk_outdir_abort(o);
        return -1;
    }
    if (aside)
        remove_tree(aside);
    g_free(aside);
    outdir_free(o);
    return 0;
}
