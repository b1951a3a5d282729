/* test_input_file.c - input files opened without blocking, regular files
 * only, sized before they are read (tk_input_file.h).
 *
 * Every test runs under alarm(): opening a FIFO the old way waits forever
 * for a writer, and a hang must fail the test, not block the suite. */
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <zstd.h>

#include "tkdump/tk_input_file.h"
#include "util/text.h"
#include "tk_test.h"

#define HANG_LIMIT_S 20

/* Reads PATH whole as KIND, expecting a refusal whose reason holds NEEDLE
 * (a FILE.zst opens: its frame is refused when read). */
static void assert_refused_read(const char *path, tk_input_file_kind kind,
                                const char *needle)
{
    char *why = NULL;
    size_t len = 1;
    char *data = tk_input_file_read(path, kind, &len, &why);
    g_assert_null(data);
    g_assert_cmpuint(len, ==, 0);
    g_assert_nonnull(why);
    if (!strstr(why, needle))
        g_error("%s: reason \"%s\" lacks \"%s\"", path, why, needle);
    g_free(why);
}

/* Opens PATH as KIND, expecting a refusal whose reason holds NEEDLE. */
static void assert_refused(const char *path, tk_input_file_kind kind,
                           const char *needle)
{
    char *why = NULL;
    int fd = tk_input_file_open(path, kind, NULL, &why);
    g_assert_cmpint(fd, ==, -1);
    g_assert_nonnull(why);
    if (!strstr(why, needle))
        g_error("%s: reason \"%s\" lacks \"%s\"", path, why, needle);
    g_free(why);
    if (kind == TK_INPUT_FILE_PASS_DUMP)
        return; /* never read whole (below) */
    size_t len = 1;
    char *data = tk_input_file_read(path, kind, &len, &why);
    g_assert_null(data);
    g_assert_cmpuint(len, ==, 0);
    g_assert_nonnull(strstr(why, needle));
    g_free(why);
}

static void test_regular_file_read_whole(void)
{
    alarm(HANG_LIMIT_S);
    char *path = tk_test_tmp_path("input-regular.md");
    g_assert_true(g_file_set_contents(path, "# note\nline 2\n", -1, NULL));
    uint64_t size = 0;
    int fd = tk_input_file_open(path, TK_INPUT_FILE_NOTES, &size, NULL);
    g_assert_cmpint(fd, >=, 0);
    g_assert_cmpuint(size, ==, 14);
    /* Opened close-on-exec, and O_NONBLOCK changes nothing on a file. */
    g_assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
    close(fd);
    size_t len = 0;
    char *data = tk_input_file_read(path, TK_INPUT_FILE_NOTES, &len, NULL);
    g_assert_cmpstr(data, ==, "# note\nline 2\n");
    g_assert_cmpuint(len, ==, 14);
    g_free(data);
    g_unlink(path);
    g_free(path);

    /* A /proc file says it is empty and is not: read to its end. */
    data = tk_input_file_read("/proc/self/status", TK_INPUT_FILE_METADATA,
                              &len, NULL);
    g_assert_nonnull(data);
    g_assert_nonnull(strstr(data, "Name:"));
    g_assert_cmpuint(strlen(data), ==, len);
    g_free(data);
    alarm(0);
}

static void test_special_files_refused_by_name(void)
{
    alarm(HANG_LIMIT_S);
    char *dir = tk_test_make_tmp("input-XXXXXX");
    char *fifo = g_build_filename(dir, "manifest.json", NULL);
    g_assert_cmpint(mkfifo(fifo, 0600), ==, 0);
    assert_refused(fifo, TK_INPUT_FILE_MANIFEST, "a FIFO (named pipe)");
    assert_refused(fifo, TK_INPUT_FILE_PASS_DUMP, "a FIFO (named pipe)");

    assert_refused("/dev/zero", TK_INPUT_FILE_NOTES, "a character device");
    char *zero = g_build_filename(dir, "k.json", NULL);
    g_assert_cmpint(symlink("/dev/zero", zero), ==, 0);
    assert_refused(zero, TK_INPUT_FILE_METADATA,
                   "a character device, not a regular file; it is a "
                   "symbolic link to /dev/zero");

    /* A socket cannot even be opened: still named. */
    char *sock = g_build_filename(dir, "k.cubin", NULL);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    g_assert_cmpuint(strlen(sock), <, sizeof a.sun_path);
    strcpy(a.sun_path, sock);
    g_assert_cmpint(bind(s, (struct sockaddr *)&a, sizeof a), ==, 0);
    assert_refused(sock, TK_INPUT_FILE_CUBIN, "a socket");
    close(s);

    assert_refused(dir, TK_INPUT_FILE_STAGE, "a folder");
    char *missing = g_build_filename(dir, "missing.ttgir", NULL);
    assert_refused(missing, TK_INPUT_FILE_STAGE, g_strerror(ENOENT));

    /* text_read (every stage file) says it with the file's name. */
    tk_diags *d = tk_diags_new();
    text_buf t;
    g_assert_cmpint(text_read(&t, fifo, d), ==, -1);
    g_assert_cmpuint(tk_diags_count(d), ==, 1);
    g_assert_cmpstr(tk_diags_get(d, 0)->file, ==, fifo);
    g_assert_nonnull(strstr(tk_diags_get(d, 0)->message,
                            "cannot read this stage file: a FIFO"));
    tk_diags_free(d);

    tk_test_remove_tree(dir);
    g_free(missing);
    g_free(sock);
    g_free(zero);
    g_free(fifo);
    g_free(dir);
    alarm(0);
}

static long max_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* A 2 GiB sparse stage file is refused from its size, before anything is
 * allocated; a pass dump file of any size opens (it is streamed). */
static void test_size_limits_before_allocation(void)
{
    alarm(HANG_LIMIT_S);
    char *path = tk_test_tmp_path("input-sparse.ttgir");
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    g_assert_cmpint(fd, >=, 0);
    g_assert_cmpint(ftruncate(fd, (off_t)2 << 30), ==, 0);
    close(fd);
    long before = max_rss_kib();
    assert_refused(path, TK_INPUT_FILE_STAGE,
                   "2147483648 bytes, over the 1 GiB a stage file may have");
    tk_diags *d = tk_diags_new();
    text_buf t;
    g_assert_cmpint(text_read(&t, path, d), ==, -1);
    g_assert_nonnull(strstr(tk_diags_get(d, 0)->message, "over the 1 GiB"));
    tk_diags_free(d);
    /* Nothing near the file's size was allocated. */
    g_assert_cmpint(max_rss_kib() - before, <, 64 * 1024);
    uint64_t size = 0;
    fd = tk_input_file_open(path, TK_INPUT_FILE_PASS_DUMP, &size, NULL);
    g_assert_cmpint(fd, >=, 0);
    g_assert_cmpuint(size, ==, (uint64_t)2 << 30);
    close(fd);
    char *why = NULL;
    g_assert_null(tk_input_file_read(path, TK_INPUT_FILE_PASS_DUMP, NULL, &why));
    g_assert_nonnull(strstr(why, "streamed"));
    g_free(why);
    g_unlink(path);

    /* The limit itself is fine, one byte more is not (4 MiB for a note). */
    uint64_t limit = tk_input_file_limit(TK_INPUT_FILE_NOTES);
    g_assert_cmpuint(limit, ==, 4u << 20);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    g_assert_cmpint(ftruncate(fd, (off_t)limit), ==, 0);
    close(fd);
    size_t len = 0;
    char *data = tk_input_file_read(path, TK_INPUT_FILE_NOTES, &len, NULL);
    g_assert_nonnull(data);
    g_assert_cmpuint(len, ==, limit);
    g_free(data);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    g_assert_cmpint(ftruncate(fd, (off_t)limit + 1), ==, 0);
    close(fd);
    assert_refused(path, TK_INPUT_FILE_NOTES, "4194305 bytes, over the 4 MiB");
    g_unlink(path);
    g_free(path);

    g_assert_cmpstr(tk_input_file_kind_name(TK_INPUT_FILE_CUBIN), ==, "cubin");
    g_assert_cmpuint(tk_input_file_limit(TK_INPUT_FILE_PASS_DUMP), ==,
                     UINT64_MAX);
    alarm(0);
}

/* Writes LEN bytes of DATA to PATH. */
static void put(const char *path, const void *data, size_t len)
{
    GError *err = NULL;
    g_assert_true(g_file_set_contents(path, data, (gssize)len, &err));
}

/* DATA as one zstd frame with its size and checksum (caller frees). */
static void *frame_of(const void *data, size_t len, size_t *out_len)
{
    size_t bound = ZSTD_compressBound(len);
    void *out = g_malloc(bound);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
    *out_len = ZSTD_compress2(cc, out, bound, data, len);
    g_assert_false(ZSTD_isError(*out_len));
    ZSTD_freeCCtx(cc);
    return out;
}

/* A FILE.zst (a format-4 bundle's kernel file) reads as its text; every
 * frame that is not one whole, sized, true frame within the kind's limit
 * is refused with the reason, in bounded memory. */
static void test_zstd_inflated_and_bounded(void)
{
    alarm(HANG_LIMIT_S);
    char *path = tk_test_tmp_path("input-k.ttir.zst");
    size_t zlen;
    void *z = frame_of("module {\n}\n", 11, &zlen);
    put(path, z, zlen);
    g_assert_true(tk_input_file_is_zstd(path));
    g_assert_false(tk_input_file_is_zstd("k.ttir"));
    size_t len = 0;
    char *text = tk_input_file_read(path, TK_INPUT_FILE_STAGE, &len, NULL);
    g_assert_cmpstr(text, ==, "module {\n}\n");
    g_assert_cmpuint(len, ==, 11);
    g_free(text);

    /* Charged to the load's budget by its text, not its frame. */
    tk_input_budget *budget = tk_input_budget_new();
    tk_input_budget_set_limit(budget, TK_INPUT_BUDGET_WHOLE_BYTES, 10);
    tk_input_budget *was = tk_input_budget_use(budget);
    g_assert_cmpuint(zlen, <=, 64);
    char *why = NULL;
    g_assert_null(tk_input_file_read(path, TK_INPUT_FILE_STAGE, NULL, &why));
    g_assert_nonnull(strstr(why, "over the load's budget"));
    g_free(why);
    tk_input_budget_use(was);
    tk_input_budget_free(budget);

    /* Two frames, or bytes after the frame. */
    char *two = g_malloc(2 * zlen);
    memcpy(two, z, zlen);
    memcpy(two + zlen, z, zlen);
    put(path, two, 2 * zlen);
    assert_refused_read(path, TK_INPUT_FILE_STAGE, "more than one zstd frame");
    /* Cut in the middle. */
    put(path, z, zlen / 2);
    assert_refused_read(path, TK_INPUT_FILE_STAGE, "a damaged or cut zstd frame");
    /* Not zstd at all. */
    put(path, "module {\n}\n", 11);
    assert_refused_read(path, TK_INPUT_FILE_STAGE,
                        "not a zstd frame, though its name ends in .zst");
    /* A damaged byte in the middle: the checksum (or the decoder) says so. */
    memcpy(two, z, zlen);
    two[zlen - 5] ^= 0x55;
    put(path, two, zlen);
    assert_refused_read(path, TK_INPUT_FILE_STAGE, "zstd frame");
    g_free(two);
    g_free(z);

    /* A frame that says 100 bytes and holds 3: header (8-byte size field,
     * single segment, no checksum) and one last raw block of 3 bytes. */
    unsigned char lie[] = {0x28, 0xb5, 0x2f, 0xfd, 0xe0, 100, 0, 0, 0, 0, 0,
                           0, 0, (3 << 3) | 1, 0, 0, 'a', 'b', 'c'};
    put(path, lie, sizeof lie);
    assert_refused_read(path, TK_INPUT_FILE_STAGE,
                        "does not hold the 100 bytes it says");
    /* A frame that says 2 GiB: refused from its header, nothing allocated. */
    lie[5] = 0;
    lie[8] = 0x80; /* 2^31 */
    put(path, lie, sizeof lie);
    long before = max_rss_kib();
    assert_refused_read(path, TK_INPUT_FILE_STAGE,
                        "inflates to 2147483648 bytes, over the 1 GiB a "
                        "stage file may have");
    g_assert_cmpint(max_rss_kib() - before, <, 64 * 1024);

    /* A real bomb: 17 MiB of zeros in a few hundred bytes, refused as a
     * metadata file (16 MiB). */
    size_t big = (size_t)17 << 20;
    char *zeros = g_malloc0(big);
    z = frame_of(zeros, big, &zlen);
    g_free(zeros);
    g_assert_cmpuint(zlen, <, 4096);
    char *json = tk_test_tmp_path("input-k.json.zst");
    put(json, z, zlen);
    g_free(z);
    assert_refused_read(json, TK_INPUT_FILE_METADATA,
                        "inflates to 17825792 bytes, over the 16 MiB a "
                        "metadata file may have");

    /* A frame without its content size (streamed by zstd from a pipe). */
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    char out[256];
    ZSTD_outBuffer ob = {out, sizeof out, 0};
    ZSTD_inBuffer ib = {"abc", 3, 0}, none = {"", 0, 0};
    /* fed in two calls, as from a pipe: the size is not known at the start */
    g_assert_false(ZSTD_isError(ZSTD_compressStream2(cc, &ob, &ib, ZSTD_e_continue)));
    g_assert_cmpuint(ZSTD_compressStream2(cc, &ob, &none, ZSTD_e_end), ==, 0);
    ZSTD_freeCCtx(cc);
    put(json, out, ob.pos);
    assert_refused_read(json, TK_INPUT_FILE_METADATA,
                        "does not say its content size");
    g_unlink(json);
    g_free(json);
    g_unlink(path);
    g_free(path);
    alarm(0);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/input_file/regular", test_regular_file_read_whole);
    g_test_add_func("/input_file/special", test_special_files_refused_by_name);
    g_test_add_func("/input_file/limits", test_size_limits_before_allocation);
    g_test_add_func("/input_file/zstd", test_zstd_inflated_and_bounded);
    return g_test_run();
}
