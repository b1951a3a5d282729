/* pool.c - the bundle's pool of dump text (dumps/pool.zst) and each
 * slice's refs file, from the pieces slice.c cut and compressed alone
 * (docs/bundle.md, "Shared dump text").
 *
 * Each distinct piece is stored once.  Each pass prints the whole module
 * again, a few lines changed: so the body of a dump is stored as its
 * difference from an earlier body of the same slice (a zstd frame
 * compressed with that body's text as a prefix) when that is at most half
 * of the body alone.  The bases are key frames, as in a video: bodies
 * stored alone; each body is tried against the last BASES_TRIED of them
 * and, when none is close enough, is stored alone and becomes one.  A base
 * is never itself a difference, so a reader decodes at most two frames for
 * a piece.  A slice's bases are chosen from the pieces it is the first to
 * have (in the order the slices were planned), on their own, so the
 * choice depends only on the input: a bundle written twice is the same. */
#include "passfiles/slice.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "passes/internal.h"

/* A distinct piece, in the order it is first met. */
typedef struct {
    uint64_t len;
    ptrdiff_t base;            /* its base's index, -1: stored alone */
    const bundle_pass_claim *claim; /* its frame alone */
    GBytes *delta;             /* its frame against the base, if smaller */
    uint64_t at, in_len;       /* where it is in the pool */
} distinct;

/* Reads the frame of claim C (NULL on failure; caller frees). */
static unsigned char *read_frame(const bundle_pass_claim *c)
{
    int fd = open(c->piece_path, O_RDONLY | O_CLOEXEC);
    unsigned char *buf = g_malloc(c->in_len ? c->in_len : 1);
    gboolean ok = fd >= 0 &&
                  pread(fd, buf, c->in_len, (off_t)c->at) == (ssize_t)c->in_len;
    if (fd >= 0)
        close(fd);
    if (!ok) {
        g_free(buf);
        return NULL;
    }
    return buf;
}

/* The text of D, decoded from its frame alone (caller frees), or NULL. */
static unsigned char *text_of(ZSTD_DCtx *dc, const distinct *d)
{
    unsigned char *frame = read_frame(d->claim);
    unsigned char *text = frame ? g_malloc(d->len ? d->len : 1) : NULL;
    size_t n = frame ? ZSTD_decompressDCtx(dc, text, d->len, frame, d->claim->in_len)
                     : 0;
    g_free(frame);
    if (frame && (ZSTD_isError(n) || n != d->len)) {
        g_free(text);
        text = NULL;
    }
    return text;
}

/* Bases a body is tried against: the last bodies of its slice stored
 * alone. */
#define BASES_TRIED 2

typedef struct {
    distinct *all;
    GPtrArray *owned; /* per slice, GArray of gsize: the bodies it has first */
    gint next;        /* the next slice to take (atomic) */
} delta_work;

/* Chooses the bases of the bodies of OWN, in order (the first is stored
 * alone): a body is compressed against each base (a quick level), and is
 * stored as its difference from the best (at the full level) when that is
 * at most half of the body alone; otherwise it is stored alone, a base for
 * the bodies after it. */
static void slice_bases(distinct *all, GArray *own, ZSTD_CCtx *cc, ZSTD_DCtx *dc)
{
    gsize cand[BASES_TRIED];
    unsigned char *ctext[BASES_TRIED] = {NULL};
    guint nc = 0, oldest = 0;
    for (guint m = 0; m < own->len; m++) {
        gsize di = g_array_index(own, gsize, m);
        distinct *d = &all[di];
        unsigned char *text = text_of(dc, d);
        if (!text)
            continue;
        guint best = BASES_TRIED;
        gsize best_size = d->claim->in_len / 2;
        for (guint c = 0; c < nc; c++) {
            GBytes *f = bundle_pass_compress(cc, text, d->len, ctext[c],
                                             all[cand[c]].len, BUNDLE_PASS_TRY_LEVEL);
            if (f && g_bytes_get_size(f) <= best_size) {
                best = c;
                best_size = g_bytes_get_size(f);
            }
            if (f)
                g_bytes_unref(f);
        }
        GBytes *f = best < BASES_TRIED
                        ? bundle_pass_compress(cc, text, d->len, ctext[best],
                                               all[cand[best]].len,
                                               BUNDLE_PASS_DELTA_LEVEL)
                        : NULL;
        if (f && g_bytes_get_size(f) < d->claim->in_len) {
            d->delta = f;
            d->base = (ptrdiff_t)cand[best];
            g_free(text);
            continue;
        }
        if (f)
            g_bytes_unref(f);
        /* stored alone: a base for the bodies after it */
        guint slot = nc < BASES_TRIED ? nc++ : oldest++ % BASES_TRIED;
        g_free(ctext[slot]);
        ctext[slot] = text;
        cand[slot] = di;
    }
    for (guint c = 0; c < nc; c++)
        g_free(ctext[c]);
}

/* A worker: chooses the bases of the slices of W it takes. */
static gpointer delta_run(gpointer data)
{
    delta_work *w = data;
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    ZSTD_DCtx *dc = ZSTD_createDCtx();
    for (guint i; cc && dc && (i = (guint)g_atomic_int_add(&w->next, 1)) < w->owned->len;)
        slice_bases(w->all, g_ptr_array_index(w->owned, i), cc, dc);
    ZSTD_freeCCtx(cc);
    ZSTD_freeDCtx(dc);
    return NULL;
}

/* Chooses every slice's bases, on the machine's cores (each slice on its
 * own: any order gives the same). */
static void make_deltas(distinct *all, GPtrArray *owned)
{
    delta_work w = {all, owned, 0};
    guint n = MIN(g_get_num_processors(), owned->len);
    GThread **th = g_new0(GThread *, n + 1);
    for (guint i = 1; i < n; i++)
        th[i] = g_thread_try_new("tkview-pool", delta_run, &w, NULL);
    delta_run(&w);
    for (guint i = 1; i < n; i++)
        if (th[i])
            g_thread_join(th[i]);
    g_free(th);
}

/* Writes J's refs file: a line per piece, naming where the pool holds it
 * (ALL, by digest in INDEX).  Returns 0, or -1. */
static int write_refs(const bundle_pass_slice *j, const distinct *all, GHashTable *index)
{
    FILE *out = fopen(j->to, "wx");
    int rc = out ? 0 : -1;
    if (out)
        fprintf(out, "%spool pool.zst\n", PASSES_REFS_MAGIC2);
    for (guint i = 0; rc == 0 && i < j->pieces->len; i++) {
        const bundle_pass_piece *r = &g_array_index(j->pieces, bundle_pass_piece, i);
        GBytes *key = g_bytes_new_static(r->digest, sizeof r->digest);
        const distinct *d = &all[GPOINTER_TO_SIZE(g_hash_table_lookup(index, key)) - 1];
        g_bytes_unref(key);
        if (fprintf(out, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
                    d->at, d->in_len, d->len) < 0)
            rc = -1;
        if (rc == 0 && d->delta) {
            const distinct *b = &all[d->base];
            if (fprintf(out, " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
                        b->at, b->in_len, b->len) < 0)
                rc = -1;
        }
        if (rc == 0 && fputc('\n', out) == EOF)
            rc = -1;
    }
    if (out && fclose(out) != 0)
        rc = -1;
    if (rc != 0)
        unlink(j->to);
    return rc;
}

/* Leaves out the slices with a piece no job could compress (the job that
 * claimed it could not read its input). */
static void leave_out_unwritten(GPtrArray *jobs, bundle_pass_claims *claims)
{
    for (guint i = 0; i < jobs->len; i++) {
        bundle_pass_slice *j = g_ptr_array_index(jobs, i);
        for (guint p = 0; j->done && p < j->pieces->len; p++) {
            const bundle_pass_piece *r = &g_array_index(j->pieces, bundle_pass_piece, p);
            GBytes *key = g_bytes_new_static(r->digest, sizeof r->digest);
            const bundle_pass_claim *c = g_hash_table_lookup(claims->of, key);
            g_bytes_unref(key);
            if (!c || !c->written) {
                j->done = FALSE;
                j->left_out = TRUE;
            }
        }
    }
}

/* The distinct pieces of the slices kept, in the order first met (INDEX:
 * digest -> index + 1); OWNED: per slice kept, the bodies it has first. */
static GArray *plan(GPtrArray *jobs, bundle_pass_claims *claims, GHashTable *index,
                    GPtrArray *owned)
{
    GArray *all = g_array_new(FALSE, TRUE, sizeof(distinct));
    for (guint i = 0; i < jobs->len; i++) {
        bundle_pass_slice *j = g_ptr_array_index(jobs, i);
        GArray *own = j->done ? g_array_new(FALSE, FALSE, sizeof(gsize)) : NULL;
        for (guint p = 0; j->done && p < j->pieces->len; p++) {
            const bundle_pass_piece *r = &g_array_index(j->pieces, bundle_pass_piece, p);
            GBytes *key = g_bytes_new(r->digest, sizeof r->digest);
            if (g_hash_table_contains(index, key)) {
                g_bytes_unref(key);
                continue;
            }
            distinct d = {r->len, -1, g_hash_table_lookup(claims->of, key), NULL, 0, 0};
            gsize at = all->len;
            g_array_append_val(all, d);
            g_hash_table_insert(index, key, GSIZE_TO_POINTER(at + 1));
            if (r->body)
                g_array_append_val(own, at);
        }
        if (own)
            g_ptr_array_add(owned, own);
    }
    return all;
}

int bundle_pass_pool_write(GPtrArray *jobs, bundle_pass_claims *claims, char **err)
{
    leave_out_unwritten(jobs, claims);
    bundle_pass_slice *first = NULL;
    for (guint i = 0; i < jobs->len && !first; i++) {
        bundle_pass_slice *j = g_ptr_array_index(jobs, i);
        first = j->done ? j : NULL;
    }
    if (!first)
        return 0;
    GHashTable *index = g_hash_table_new_full(g_bytes_hash, g_bytes_equal,
                                              (GDestroyNotify)g_bytes_unref, NULL);
    GPtrArray *owned = g_ptr_array_new();
    GArray *all = plan(jobs, claims, index, owned);
    distinct *ds = (distinct *)(void *)all->data;
    make_deltas(ds, owned);

    char *dir = g_build_filename(first->root, "dumps", NULL);
    char *path = g_build_filename(dir, "pool.zst", NULL);
    int fd = g_mkdir(dir, 0755) == 0
                 ? open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644) : -1;
    int rc = fd < 0 ? -1 : 0;
    uint64_t at = 0;
    for (guint i = 0; rc == 0 && i < all->len; i++) {
        distinct *d = &ds[i];
        gsize n = 0;
        unsigned char *own = d->delta ? NULL : read_frame(d->claim);
        const void *data = d->delta ? g_bytes_get_data(d->delta, &n) : own;
        if (!d->delta)
            n = d->claim->in_len;
        if (!data || bundle_pass_write_all(fd, data, n) != 0)
            rc = -1;
        g_free(own);
        d->at = at;
        d->in_len = n;
        at += n;
    }
    if (fd >= 0 && close(fd) != 0)
        rc = -1;
    if (rc != 0)
        *err = g_strdup_printf("cannot write %s: %s", path, g_strerror(errno));
    for (guint i = 0; rc == 0 && i < jobs->len; i++) {
        bundle_pass_slice *j = g_ptr_array_index(jobs, i);
        if (j->done && write_refs(j, ds, index) != 0) {
            *err = g_strdup_printf("cannot write %s: %s", j->to, g_strerror(errno));
            rc = -1;
        }
    }
    for (guint i = 0; i < all->len; i++)
        if (ds[i].delta)
            g_bytes_unref(ds[i].delta);
    g_array_free(all, TRUE);
    for (guint i = 0; i < owned->len; i++)
        g_array_free(g_ptr_array_index(owned, i), TRUE);
    g_ptr_array_free(owned, TRUE);
    g_hash_table_destroy(index);
    g_free(path);
    g_free(dir);
    return rc;
}
