/* gzip.c - gzip-compressed pass dump files: reading them as if they
 * were plain text, and writing the compressed slices of a bundle.
 *
 * Pass dumps compress 15 to 45 times (a pass changes a few lines of a
 * whole module), which is what makes a bundle small enough to mail.  The
 * pass dump index reads a plain file at byte offsets on demand, and a gzip
 * stream cannot be entered in the middle, so a compressed file is
 * decompressed once, on first use, into an unlinked temporary file that the
 * index keeps open (docs/bundle.md: disk = the text's size, memory = one
 * buffer).  Everything streams through a fixed buffer: a file of any size
 * costs the same memory.
 */
#include "bundle/internal.h"
#include "tkdump/tk_input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define GZ_CHUNK ((size_t)1 << 20)

/* Opens PATH when it is a regular file, without blocking (a FIFO must not
 * wait for a writer; a bundle may name one); -1 otherwise. */
static int open_regular(const char *path)
{
    int fd = tk_input_file_open(path, TK_INPUT_FILE_PASS_DUMP, NULL, NULL);
    if (fd < 0)
        errno = EINVAL;
    return fd;
}

gboolean bundle_gzip_is(const char *path)
{
    int fd = open_regular(path);
    if (fd < 0)
        return FALSE;
    unsigned char magic[2];
    ssize_t n;
    do
        n = read(fd, magic, 2);
    while (n < 0 && errno == EINTR);
    close(fd);
    return n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

/* Opens PATH for reading; zlib reads a file that is not gzip as it is. */
static gzFile open_read(const char *path)
{
    int fd = open_regular(path);
    if (fd < 0)
        return NULL;
    gzFile gz = gzdopen(fd, "rb");
    if (!gz) {
        close(fd);
        return NULL;
    }
    gzbuffer(gz, 128 * 1024);
    return gz;
}

/* zlib's message without the "<fd:N>: " it puts first. */
static const char *gz_message(gzFile gz, int *code)
{
    const char *why = gzerror(gz, code);
    if (!why)
        return "";
    const char *colon = why[0] == '<' ? strstr(why, ">: ") : NULL;
    return colon ? colon + 3 : why;
}

/* Reads up to N bytes; returns the count, 0 at the end, -1 on an error (a
 * damaged stream).  gzread takes an unsigned int. */
static int64_t read_some(gzFile gz, char *buf, size_t n)
{
    if (n > GZ_CHUNK)
        n = GZ_CHUNK;
    int r = gzread(gz, buf, (unsigned)n);
    return r;
}

int64_t bundle_gzip_read_head(const char *path, char *buf, size_t cap)
{
    gzFile gz = open_read(path);
    if (!gz)
        return -1;
    size_t have = 0;
    while (have < cap) {
        int64_t r = read_some(gz, buf + have, cap - have);
        if (r <= 0)
            break; /* the end, or damage: what came before is the head */
        have += (size_t)r;
    }
    gzclose(gz);
    return (int64_t)have;
}

/* Writes LEN bytes at P to FD.  Returns 0 or -1 (errno set). */
static int write_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = ENOSPC;
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

char *bundle_gzip_inflate_to_temp(const char *path, tk_diags *diags)
{
    gzFile gz = open_read(path);
    if (!gz) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0, "cannot open: %s",
                     g_strerror(errno));
        return NULL;
    }
    GError *gerr = NULL;
    char *tmp = NULL;
    int fd = g_file_open_tmp("tkview-passes-XXXXXX.txt", &tmp, &gerr);
    if (fd < 0) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                     "cannot decompress: no temporary file: %s",
                     gerr->message);
        g_error_free(gerr);
        gzclose(gz);
        return NULL;
    }
    char *buf = g_malloc(GZ_CHUNK);
    uint64_t total = 0;
    int failed = 0;
    for (;;) {
        int64_t r = read_some(gz, buf, GZ_CHUNK);
        if (r < 0) {
            int code = Z_OK;
            tk_diags_add(diags, TK_DIAG_WARNING, path, 0,
                         "the compressed data is damaged after %llu bytes "
                         "of text (%s); the text before that is read",
                         (unsigned long long)total, gz_message(gz, &code));
            break;
        }
        if (r == 0)
            break;
        if (write_all(fd, buf, (size_t)r) != 0) {
            tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                         "cannot decompress into %s: %s", tmp,
                         g_strerror(errno));
            failed = 1;
            break;
        }
        total += (uint64_t)r;
    }
    /* A stream cut short ends without an error from gzread: zlib reports it
     * afterwards. */
    int code = Z_OK;
    const char *why = gz_message(gz, &code);
    if (!failed && code == Z_BUF_ERROR)
        tk_diags_add(diags, TK_DIAG_WARNING, path, 0,
                     "the compressed file is cut short (%s); the %llu bytes "
                     "of text before the cut are read",
                     why, (unsigned long long)total);
    g_free(buf);
    gzclose(gz);
    if (close(fd) != 0 && !failed) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                     "cannot decompress into %s: %s", tmp, g_strerror(errno));
        failed = 1;
    }
    if (failed) {
        unlink(tmp);
        g_free(tmp);
        return NULL;
    }
    return tmp;
}

/* ---- writing ------------------------------------------------------------ */

struct bundle_gzip_writer {
    gzFile gz;
    char *path;
    int failed;
};

bundle_gzip_writer *bundle_gzip_create(const char *path, char **err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        *err = g_strdup_printf("cannot create %s: %s", path,
                               g_strerror(errno));
        return NULL;
    }
    /* Level 6, zlib's default: 85 MB/s on the build machine, a third of the
     * size of level 1 for pass dumps; level 9 is four times slower for 6%
     * less. */
    gzFile gz = gzdopen(fd, "wb6");
    if (!gz) {
        *err = g_strdup_printf("cannot create %s: out of memory", path);
        close(fd);
        unlink(path);
        return NULL;
    }
    gzbuffer(gz, 256 * 1024);
    bundle_gzip_writer *w = g_new0(bundle_gzip_writer, 1);
    w->gz = gz;
    w->path = g_strdup(path);
    return w;
}

int bundle_gzip_write(bundle_gzip_writer *w, const char *data, size_t len)
{
    while (len > 0 && !w->failed) {
        size_t n = len > GZ_CHUNK ? GZ_CHUNK : len;
        errno = 0;
        if (gzwrite(w->gz, data, (unsigned)n) != (int)n)
            w->failed = errno ? errno : EIO;
        data += n;
        len -= n;
    }
    return w->failed ? -1 : 0;
}

int bundle_gzip_finish(bundle_gzip_writer *w, gboolean keep, char **err)
{
    if (!w)
        return 0;
    errno = 0;
    int rc = gzclose(w->gz);
    int bad = w->failed || rc != Z_OK;
    if (bad && keep && err)
        *err = g_strdup_printf("cannot write %s: %s", w->path,
                               g_strerror(w->failed ? w->failed
                                          : errno   ? errno
                                                    : EIO));
    if (bad || !keep)
        unlink(w->path); /* no half file left behind */
    g_free(w->path);
    g_free(w);
    return bad && keep ? -1 : 0;
}
