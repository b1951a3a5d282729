/* capture_compiles.c - the files tkview's Python hook keeps each compile's
 * dumps in (RUN/compiles/HASH.PID.N.txt, compiler/python/sitecustomize.py).
 *
 * While a compile's stage runs, its process's stderr is that file: the pass
 * dumps land there, and so does whatever else the compiler wrote meanwhile
 * (MLIR's remarks and warnings, a Python warning).  Those messages would have
 * reached the terminal through the stderr filter; here each file is read
 * through a filter of its own once the program has ended, and what it shows
 * is kept with the capture's messages (capture/stderr.txt, which `tkview
 * diagnostics` reads), as before, and shown but for the remarks and
 * warnings capture's knob added (capture_diag_hide.c), as on the live
 * stderr.  Files are taken oldest first
 * (then by name): the order the compiles ended in, across processes.
 * In a process other than the program's own (a compile worker), stdout is
 * kept too while a stage runs, as HASH.PID.N.out (ptxas's log): added to
 * the program's stdout that capture keeps (capture/stdout.txt), not shown,
 * as a worker's stdout is not without tkview.
 */
#include "capture.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    char *path;
    struct timespec mtime;
} dump_file;

static int by_age(gconstpointer a, gconstpointer b)
{
    const dump_file *x = a, *y = b;
    if (x->mtime.tv_sec != y->mtime.tv_sec)
        return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
    if (x->mtime.tv_nsec != y->mtime.tv_nsec)
        return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
    return strcmp(x->path, y->path);
}

/* The regular files of DIR whose names end in SUFFIX, oldest first. */
static GArray *list_files(const char *dir, const char *suffix)
{
    GArray *files = g_array_new(FALSE, FALSE, sizeof(dump_file));
    GDir *d = g_dir_open(dir, 0, NULL);
    for (const char *e; d && (e = g_dir_read_name(d));) {
        if (!g_str_has_suffix(e, suffix))
            continue;
        char *path = g_build_filename(dir, e, NULL);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            dump_file f = {path, st.st_mtim};
            g_array_append_val(files, f);
        } else {
            g_free(path);
        }
    }
    if (d)
        g_dir_close(d);
    g_array_sort(files, by_age);
    return files;
}

static void free_files(GArray *files)
{
    for (guint i = 0; i < files->len; i++)
        g_free(g_array_index(files, dump_file, i).path);
    g_array_free(files, TRUE);
}

unsigned cap_compiles_count(const char *dir)
{
    GArray *files = list_files(dir, ".txt");
    unsigned n = files->len;
    free_files(files);
    return n;
}

static void write_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

/* Bytes of one line the filter looks at, as for the live stderr
 * (capture_child.c): a dump's 32 KB lines and a 2 GB file cost no more. */
#define LINE_CAP (64 * 1024)

typedef struct {
    cap_stderr_filter *filter;
    GString *line;
    gboolean cut;
    FILE *show;
    cap_diag_hide *hide;  /* NULL: every shown line reaches SHOW */
    GString *out;         /* scratch: what HIDE lets through */
    int messages_fd;
    uint64_t shown;
} line_feed;

/* Writes a shown line (S NULL: the file's end) to LF->show through
 * LF->hide.  HIDE sees every line even without SHOW, so that its count of
 * hidden lines does not depend on --quiet. */
static void show_line(line_feed *lf, const char *s, size_t len)
{
    if (lf->hide) {
        g_string_truncate(lf->out, 0);
        if (s)
            cap_diag_hide_line(lf->hide, s, len, lf->out);
        else
            cap_diag_hide_end(lf->hide, lf->out);
        s = lf->out->str;
        len = lf->out->len;
    }
    if (lf->show && s && len)
        fwrite(s, 1, len, lf->show);
}

static void line_done(line_feed *lf)
{
    if (cap_stderr_filter_line(lf->filter, lf->line->str, lf->line->len)) {
        if (lf->cut)
            g_string_append(lf->line, " [...]");
        g_string_append_c(lf->line, '\n');
        show_line(lf, lf->line->str, lf->line->len);
        if (lf->messages_fd >= 0)
            write_all(lf->messages_fd, lf->line->str, lf->line->len);
        lf->shown++;
    }
    g_string_truncate(lf->line, 0);
    lf->cut = FALSE;
}

/* Feeds PATH's lines to a new filter; shows and keeps what it shows. */
static uint64_t one_file(const char *path, FILE *show, cap_diag_hide *hide,
                         int messages_fd)
{
    FILE *in = fopen(path, "rb");
    if (!in)
        return 0;
    line_feed lf = {cap_stderr_filter_new(), g_string_new(NULL), FALSE, show,
                    hide, g_string_new(NULL), messages_fd, 0};
    char *buf = g_malloc(65536);
    for (size_t n; (n = fread(buf, 1, 65536, in)) > 0;) {
        for (size_t i = 0; i < n;) {
            const char *nl = memchr(buf + i, '\n', n - i);
            size_t len = (nl ? (size_t)(nl - buf) : n) - i;
            size_t room = LINE_CAP - lf.line->len;
            g_string_append_len(lf.line, buf + i, len < room ? len : room);
            lf.cut |= len > room;
            i += len;
            if (nl) {
                line_done(&lf);
                i++;
            }
        }
    }
    if (lf.line->len)
        line_done(&lf);
    show_line(&lf, NULL, 0); /* what HIDE still held */
    g_free(buf);
    fclose(in);
    cap_stderr_filter_free(lf.filter);
    g_string_free(lf.line, TRUE);
    g_string_free(lf.out, TRUE);
    return lf.shown;
}

uint64_t cap_compiles_messages(const char *dir, FILE *show, cap_diag_hide *hide,
                               int messages_fd)
{
    GArray *files = list_files(dir, ".txt");
    uint64_t shown = 0;
    for (guint i = 0; i < files->len; i++)
        shown += one_file(g_array_index(files, dump_file, i).path, show, hide,
                          messages_fd);
    if (show)
        fflush(show);
    free_files(files);
    return shown;
}

uint64_t cap_compiles_stdout(const char *dir, int stdout_fd)
{
    GArray *files = list_files(dir, ".out");
    uint64_t bytes = 0;
    char *buf = g_malloc(65536);
    for (guint i = 0; stdout_fd >= 0 && i < files->len; i++) {
        FILE *in = fopen(g_array_index(files, dump_file, i).path, "rb");
        for (size_t n; in && (n = fread(buf, 1, 65536, in)) > 0; bytes += n)
            write_all(stdout_fd, buf, n);
        if (in)
            fclose(in);
    }
    g_free(buf);
    free_files(files);
    return bytes;
}
