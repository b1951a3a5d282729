/* gzip.c - gzip-compressed pass dump files: reading them as if they
 * were plain text, and writing the compressed slices of a bundle.
 *
 * Pass dumps compress 15 to 45 times (a pass changes a few lines of a
 * whole module), which is what makes a bundle small enough to mail.  The
 * pass dump index reads a gzip file in place, through restart points
 * (passes/gz.c); here are the head of a file's text, for telling what a
 * file holds, and the writer of a bundle's slices.  Everything streams
 * through a fixed buffer: a file of any size costs the same memory.
 */
#include "passfiles/internal.h"
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
