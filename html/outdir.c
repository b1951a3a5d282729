/* outdir.c - staging the report beside OUTDIR and renaming it into place
 * (outdir.h). */
#include "outdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tkdump/tk_input_file.h"
#include "tkdump/tk_staged_dir.h"

struct html_outdir {
    char *outdir;          /* as given, trailing slashes removed */
    tk_staged_dir *staged; /* the hidden folder beside it */
    const char *staging;   /* its path */
    int fd;                /* of the staging folder */
    /* html_report's writer thread and the main thread both write files */
    _Atomic guint64 bytes;
};

static gboolean is_earlier_report(const char *dir)
{
    char *marker = g_build_filename(dir, HTML_REPORT_MARKER, NULL);
    struct stat st;
    gboolean ok = FALSE;
    if (lstat(marker, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < 65536) {
        /* Read as every file is (tk_input_file.h): never blocking. */
        char *text = tk_input_file_read(marker, TK_INPUT_FILE_METADATA, NULL, NULL);
        ok = text && g_str_has_prefix(text, "{\"generator\":\"tkview\"");
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

html_outdir *html_outdir_begin(const char *outdir, gboolean force, tk_diags *diags)
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
    /* Written beside OUTDIR and renamed into place (tk_staged_dir.h); an
     * earlier report or a forced folder is replaced whole. */
    tk_staged_dir *staged =
        tk_staged_dir_new(out, replace ? TK_STAGED_DIR_REPLACE : 0);
    if (!staged) {
        tk_diags_add(diags, TK_DIAG_ERROR, out, 0,
                     "cannot create a folder beside it: %s", g_strerror(errno));
        goto fail;
    }
    html_outdir *o = g_new0(html_outdir, 1);
    o->outdir = out;
    o->staged = staged;
    o->staging = tk_staged_dir_path(staged);
    o->fd = tk_staged_dir_fd(staged);
    g_free(base);
    return o;
fail:
    g_free(base);
    g_free(out);
    return NULL;
}

gboolean html_outdir_name_ok(const char *rel)
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

int html_outdir_mkdir(html_outdir *o, const char *rel, tk_diags *diags)
{
    if (!html_outdir_name_ok(rel)) {
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

int html_outdir_write(html_outdir *o, const char *rel, const void *data, size_t len,
                    tk_diags *diags)
{
    if (!html_outdir_name_ok(rel)) {
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

guint64 html_outdir_bytes(const html_outdir *o)
{
    return o ? atomic_load_explicit(&o->bytes, memory_order_relaxed) : 0;
}

void html_outdir_abort(html_outdir *o)
{
    if (!o)
        return;
    tk_staged_dir_free(o->staged); /* removes the staging folder */
    g_free(o->outdir);
    g_free(o);
}

int html_outdir_commit(html_outdir *o, tk_diags *diags)
{
    int rc = tk_staged_dir_commit(o->staged);
    if (rc == TK_STAGED_DIR_ERR_ASIDE)
        tk_diags_add(diags, TK_DIAG_ERROR, o->outdir, 0,
                     "cannot move the earlier report aside: %s", g_strerror(errno));
    else if (rc != 0)
        tk_diags_add(diags, TK_DIAG_ERROR, o->outdir, 0, "cannot create it: %s",
                     g_strerror(errno));
    html_outdir_abort(o); /* frees; removes the staging folder if it failed */
    return rc == 0 ? 0 : -1;
}
