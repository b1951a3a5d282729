/* store.c - a bundle's kernel files stored once, compressed when smaller
 * (store.h).
 *
 * Autotuning compiles one kernel many times: its NAME.source is the same in
 * every compile, and so are many stage files of compiles that differ only
 * late.  A file whose bytes a kernel of the bundle already has is written
 * once, and the manifest names that one file for every kernel that has it.
 * Each file is one zstd frame (FILE.zst) when that is smaller: stage text
 * shrinks 5 to 10 times.  Same input, same bytes: the files are put in the
 * manifest's order, and zstd at one level on one thread is deterministic.
 */
#include "write/store.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#define LEVEL 6

struct bundle_write_store {
    char *root;
    GHashTable *seen; /* "EXT SHA-256" -> the path stored, relative */
    ZSTD_CCtx *cc;
};

bundle_write_store *bundle_write_store_new(const char *root)
{
    bundle_write_store *s = g_new0(bundle_write_store, 1);
    s->root = g_strdup(root);
    s->seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    s->cc = ZSTD_createCCtx();
    return s;
}

void bundle_write_store_free(bundle_write_store *s)
{
    if (!s)
        return;
    g_free(s->root);
    g_hash_table_destroy(s->seen);
    ZSTD_freeCCtx(s->cc);
    g_free(s);
}

/* Writes LEN bytes of DATA to the new file PATH.  Returns 0, or -1 with
 * *ERR (no half file left behind). */
static int write_new(const char *path, const void *data, size_t len, char **err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        *err = g_strdup_printf("cannot create %s: %s", path, g_strerror(errno));
        return -1;
    }
    int rc = 0;
    for (size_t done = 0; done < len && rc == 0;) {
        ssize_t w = write(fd, (const char *)data + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            rc = -1;
        else
            done += (size_t)w;
    }
    if (close(fd) != 0)
        rc = -1;
    if (rc != 0) {
        *err = g_strdup_printf("cannot write %s: %s", path, g_strerror(errno));
        unlink(path);
    }
    return rc;
}

/* DATA as one zstd frame with its size and checksum, when smaller than
 * LEN (caller frees; *OUT_LEN its size), else NULL. */
static void *compress(ZSTD_CCtx *cc, const void *data, size_t len,
                      size_t *out_len)
{
    ZSTD_CCtx_reset(cc, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, LEVEL);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 1);
    size_t bound = ZSTD_compressBound(len);
    void *out = g_try_malloc(bound ? bound : 1);
    size_t n = out ? ZSTD_compress2(cc, out, bound, data, len) : 0;
    if (!out || ZSTD_isError(n) || n >= len) {
        g_free(out);
        return NULL;
    }
    *out_len = n;
    return out;
}

int bundle_write_store_put(bundle_write_store *s, const char *from, char **rel,
                           tk_input_file_kind kind, char **err)
{
    size_t len = 0;
    char *why = NULL;
    char *data = tk_input_file_read(from, kind, &len, &why);
    if (!data) {
        *err = why;
        return BUNDLE_WRITE_REFUSED;
    }
    /* Held only while it is written: the load's budget is for what a load
     * keeps (tk_input_file.h). */
    tk_input_budget_refund(TK_INPUT_BUDGET_WHOLE_BYTES, len);
    char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
                                            (const guchar *)data, len);
    const char *dot = strrchr(*rel, '.');
    char *key = g_strdup_printf("%s %s", dot ? dot + 1 : "", sum);
    g_free(sum);
    const char *had = g_hash_table_lookup(s->seen, key);
    if (had) {
        g_free(*rel);
        *rel = g_strdup(had);
        g_free(key);
        g_free(data);
        return 0;
    }
    size_t zlen = 0;
    void *z = compress(s->cc, data, len, &zlen);
    if (z) {
        char *zrel = g_strconcat(*rel, ".zst", NULL);
        g_free(*rel);
        *rel = zrel;
    }
    char *to = g_build_filename(s->root, *rel, NULL);
    int rc = write_new(to, z ? z : data, z ? zlen : len, err);
    g_free(to);
    g_free(z);
    g_free(data);
    if (rc == 0)
        g_hash_table_insert(s->seen, key, g_strdup(*rel));
    else
        g_free(key);
    return rc;
}
