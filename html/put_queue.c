/* put_queue.c - the report's writer thread (put_queue.h). */
#include "put_queue.h"

#include <gio/gio.h>
#include <libdeflate.h>
#include <string.h>

#include "jsonw.h"

/* JSON waiting to be written, at most (bytes) before push() waits. */
#define MAX_PENDING ((gsize)64 << 20)
/* Writer threads, at most: one per four cores (one on CI's two), as the
 * pass threads (data_passes_plan.c) can fill the queue faster than one
 * gzip empties it.  Each file is compressed alone by a compressor reset
 * before it, so which writer takes it changes no byte. */
#define MAX_WRITERS 4

typedef struct {
    char *rel, *key;
    GString *json; /* NULL: the end of the queue */
} job;

struct html_put_queue {
    html_outdir *out;
    GThread *thread[MAX_WRITERS]; /* [0] NULL: none could be made, write at once */
    guint n_threads;
    GAsyncQueue *jobs;
    GMutex lock;       /* guards the fields below */
    GCond drained;
    gsize pending;
    int failed;
    tk_diags *diags;   /* the writer's, moved to the caller's at the end */
    struct libdeflate_compressor *z; /* the compressor without a writer thread */
};

/* gzip with libdeflate, then base64: the browser inflates it with
 * DecompressionStream('gzip').  libdeflate compresses a whole buffer at
 * once; at its level 1 it takes about half the instructions of zlib's
 * level 2 (what the report used before, a quarter of autotuned_matmul's
 * report) and writes 6% fewer bytes: on compiled_block's 15.7 MB of JSON,
 * 347 M instructions and 2.35 MB against 640 M and 2.50 MB; its levels 2
 * and 3 cost as much as zlib's level 2 for 1-3% fewer bytes. */
#define LEVEL 1
/* *ZP is a writer's compressor, made once: it holds no state between
 * buffers, so each file's bytes are the same whichever writer makes them. */
static GByteArray *gzip(struct libdeflate_compressor **zp, const GString *json,
                        const char *rel, tk_diags *diags)
{
    if (!*zp && !(*zp = libdeflate_alloc_compressor(LEVEL))) {
        tk_diags_add(diags, TK_DIAG_ERROR, rel, 0, "cannot compress: out of memory");
        return NULL;
    }
    size_t bound = libdeflate_gzip_compress_bound(*zp, json->len);
    if (bound > G_MAXUINT) {
        tk_diags_add(diags, TK_DIAG_ERROR, rel, 0, "cannot compress: %zu bytes of data",
                     (size_t)json->len);
        return NULL;
    }
    guint8 *buf = g_malloc(bound);
    size_t n = libdeflate_gzip_compress(*zp, json->str, json->len, buf, bound);
    if (!n) { /* cannot happen with the bound's room */
        tk_diags_add(diags, TK_DIAG_ERROR, rel, 0, "cannot compress");
        g_free(buf);
        return NULL;
    }
    GByteArray *out = g_byte_array_new_take(buf, n);
    return out;
}

static int write_job(html_put_queue *q, struct libdeflate_compressor **zp, const job *j, tk_diags *diags)
{
    GByteArray *z = gzip(zp, j->json, j->rel, diags);
    if (!z)
        return -1;
    char *b64 = g_base64_encode(z->data, z->len);
    g_byte_array_free(z, TRUE);
    GString *s = g_string_sized_new(strlen(b64) + 64);
    g_string_append(s, "TK.putz(\"");
    jw_escape(s, j->key, strlen(j->key));
    g_string_append(s, "\",\"");
    g_string_append(s, b64); /* base64: nothing to escape */
    g_string_append(s, "\");\n");
    g_free(b64);
    int rc = html_outdir_write(q->out, j->rel, s->str, s->len, diags);
    g_string_free(s, TRUE);
    return rc;
}

static void job_free(job *j)
{
    g_free(j->rel);
    g_free(j->key);
    if (j->json)
        g_string_free(j->json, TRUE);
    g_free(j);
}

static gpointer writer(gpointer data)
{
    html_put_queue *q = data;
    struct libdeflate_compressor *zc = NULL;
    for (;;) {
        job *j = g_async_queue_pop(q->jobs);
        if (!j->json) {
            job_free(j);
            libdeflate_free_compressor(zc);
            return NULL;
        }
        g_mutex_lock(&q->lock);
        int skip = q->failed;
        g_mutex_unlock(&q->lock);
        tk_diags *local = tk_diags_new();
        int rc = skip ? 0 : write_job(q, &zc, j, local);
        gsize len = j->json->len;
        job_free(j);
        g_mutex_lock(&q->lock);
        for (size_t i = 0; i < tk_diags_count(local); i++) {
            const tk_diag *d = tk_diags_get(local, i);
            tk_diags_add(q->diags, d->severity, d->file, d->line, "%s", d->message);
        }
        if (rc)
            q->failed = 1;
        q->pending -= len;
        g_cond_broadcast(&q->drained);
        g_mutex_unlock(&q->lock);
        tk_diags_free(local);
    }
}

html_put_queue *html_put_queue_new(html_outdir *out)
{
    html_put_queue *q = g_new0(html_put_queue, 1);
    q->out = out;
    q->jobs = g_async_queue_new();
    g_mutex_init(&q->lock);
    g_cond_init(&q->drained);
    q->diags = tk_diags_new();
    guint want = CLAMP((guint)g_get_num_processors() / 4, 1, MAX_WRITERS);
    for (guint i = 0; i < want; i++) {
        if (!(q->thread[q->n_threads] = g_thread_try_new("tkview-writer", writer, q, NULL)))
            break;
        q->n_threads++;
    }
    return q;
}

int html_put_queue_push(html_put_queue *q, const char *rel, const char *key,
                      GString *json)
{
    job *j = g_new0(job, 1);
    j->rel = g_strdup(rel);
    j->key = g_strdup(key);
    j->json = json;
    if (!q->n_threads) {
        /* no writer thread: write it now (callers may be several threads) */
        g_mutex_lock(&q->lock);
        int rc = q->failed ? -1 : write_job(q, &q->z, j, q->diags);
        if (rc)
            q->failed = 1;
        g_mutex_unlock(&q->lock);
        job_free(j);
        return rc;
    }
    g_mutex_lock(&q->lock);
    while (q->pending > MAX_PENDING && !q->failed)
        g_cond_wait(&q->drained, &q->lock);
    int failed = q->failed;
    if (!failed)
        q->pending += json->len;
    g_mutex_unlock(&q->lock);
    if (failed) {
        job_free(j);
        return -1;
    }
    g_async_queue_push(q->jobs, j);
    return 0;
}

int html_put_queue_finish(html_put_queue *q, tk_diags *diags)
{
    if (!q)
        return 0;
    for (guint i = 0; i < q->n_threads; i++)
        g_async_queue_push(q->jobs, g_new0(job, 1)); /* the end, for each */
    for (guint i = 0; i < q->n_threads; i++)
        g_thread_join(q->thread[i]);
    for (size_t i = 0; i < tk_diags_count(q->diags); i++) {
        const tk_diag *d = tk_diags_get(q->diags, i);
        tk_diags_add(diags, d->severity, d->file, d->line, "%s", d->message);
    }
    int rc = q->failed ? -1 : 0;
    tk_diags_free(q->diags);
    libdeflate_free_compressor(q->z);
    g_async_queue_unref(q->jobs);
    g_mutex_clear(&q->lock);
    g_cond_clear(&q->drained);
    g_free(q);
    return rc;
}
