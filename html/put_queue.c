/* put_queue.c - the report's writer thread (put_queue.h). */
#include "put_queue.h"

#include <gio/gio.h>
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
    GConverter *z;     /* the compressor without a writer thread */
};

/* gzip with GIO's converter, then base64: the browser inflates it with
 * DecompressionStream('gzip').  zlib's level 2: on the captures' report
 * data (9 MB of JSON for compiled_block) it takes a third of level 6's time
 * for a fifth more bytes, and the report stays well within its size budget
 * (bench/bench_html.py). */
/* *ZP is a writer's compressor, made once and reset after each job: a new
 * one allocates and clears a quarter of a megabyte, for hundreds of
 * files. */
static GByteArray *gzip(GConverter **zp, const GString *json, const char *rel,
                        tk_diags *diags)
{
    if (!*zp)
        *zp = G_CONVERTER(g_zlib_compressor_new(G_ZLIB_COMPRESSOR_FORMAT_GZIP, 2));
    GConverter *z = *zp;
    GByteArray *out = g_byte_array_sized_new((guint)(json->len / 8 + 64));
    guint8 buf[65536];
    const char *in = json->str;
    gsize left = json->len;
    GConverterResult res;
    do {
        gsize read = 0, written = 0;
        GError *err = NULL;
        res = g_converter_convert(z, in, left, buf, sizeof buf,
                                  G_CONVERTER_INPUT_AT_END, &read, &written, &err);
        if (res == G_CONVERTER_ERROR) {
            tk_diags_add(diags, TK_DIAG_ERROR, rel, 0, "cannot compress: %s", err->message);
            g_error_free(err);
            g_object_unref(z);
            *zp = NULL;
            g_byte_array_free(out, TRUE);
            return NULL;
        }
        in += read;
        left -= read;
        g_byte_array_append(out, buf, (guint)written);
    } while (res != G_CONVERTER_FINISHED);
    g_converter_reset(z); /* as new: the same bytes for the next file */
    return out;
}

static int write_job(html_put_queue *q, GConverter **zp, const job *j, tk_diags *diags)
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
    GConverter *zc = NULL;
    for (;;) {
        job *j = g_async_queue_pop(q->jobs);
        if (!j->json) {
            job_free(j);
            if (zc)
                g_object_unref(zc);
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
    if (q->z)
        g_object_unref(q->z);
    g_async_queue_unref(q->jobs);
    g_mutex_clear(&q->lock);
    g_cond_clear(&q->drained);
    g_free(q);
    return rc;
}
