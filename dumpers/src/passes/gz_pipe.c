/* gz_pipe.c - a gzip pass dump inflated on a thread of its own while it is
 * indexed.
 *
 * Indexing a gzip file reads its text once, in order (passes_gz_next()),
 * and inflating it was half of the work: `tkview info` of a bundle with
 * 7 MB of MLIR dumps spent 74 M instructions inflating and 76 M splitting
 * lines and hashing them (callgrind, issue 25).  The two halves need not
 * wait for each other: a worker inflates into a few fixed buffers, the
 * indexer takes them in order.  The worker alone touches the passes_gz
 * (its cursor and the restart points it records) until passes_gz_pipe_end()
 * has joined it.  Memory: GZ_PIPE_BUFS buffers of GZ_PIPE_BUF bytes.
 */
#include "passes/internal.h"

#include <errno.h>
#include <string.h>

#define GZ_PIPE_BUF ((size_t)256 << 10)
#define GZ_PIPE_BUFS 4

typedef struct {
    char *data;
    ssize_t len; /* bytes in DATA; 0: the end, -1: a read error */
    int err;     /* errno of that error (errno is the worker's own) */
} gz_chunk;

struct passes_gz_pipe {
    passes_gz *gz;
    GThread *thread;
    GAsyncQueue *full, *empty; /* gz_chunk * */
    gz_chunk *cur;             /* being read by the indexer */
    size_t pos;                /* in CUR */
    int stop;                  /* set by the indexer: the worker ends */
    int done;                  /* the indexer saw the end chunk */
};

static gpointer worker(gpointer data)
{
    passes_gz_pipe *p = data;
    for (;;) {
        gz_chunk *c = g_async_queue_pop(p->empty);
        c->len = 0;
        c->err = 0;
        ssize_t r = 1;
        while (c->len < (ssize_t)GZ_PIPE_BUF && !g_atomic_int_get(&p->stop)) {
            r = passes_gz_next(p->gz, c->data + c->len, GZ_PIPE_BUF - (size_t)c->len);
            if (r <= 0)
                break;
            c->len += r;
        }
        gboolean last = r <= 0 || g_atomic_int_get(&p->stop);
        if (r < 0) {
            /* bytes before the error are given first, the error after */
            if (c->len == 0) {
                c->len = -1;
                c->err = errno;
            } else {
                g_async_queue_push(p->full, c);
                c = g_async_queue_pop(p->empty);
                c->len = -1;
                c->err = errno;
            }
        } else if (last && c->len > 0) {
            g_async_queue_push(p->full, c);
            c = g_async_queue_pop(p->empty);
            c->len = 0;
        }
        g_async_queue_push(p->full, c);
        if (last || c->len <= 0)
            return NULL;
    }
}

passes_gz_pipe *passes_gz_pipe_start(passes_gz *gz)
{
    if (g_get_num_processors() < 2)
        return NULL;
    passes_gz_pipe *p = g_new0(passes_gz_pipe, 1);
    p->gz = gz;
    p->full = g_async_queue_new();
    p->empty = g_async_queue_new();
    for (int i = 0; i < GZ_PIPE_BUFS; i++) {
        gz_chunk *c = g_new0(gz_chunk, 1);
        c->data = g_malloc(GZ_PIPE_BUF);
        g_async_queue_push(p->empty, c);
    }
    p->thread = g_thread_try_new("tkdump-gunzip", worker, p, NULL);
    if (!p->thread) {
        passes_gz_pipe_end(p);
        return NULL;
    }
    return p;
}

ssize_t passes_gz_pipe_read(passes_gz_pipe *p, char *buf, size_t n)
{
    while (!p->done) {
        if (!p->cur) {
            p->cur = g_async_queue_pop(p->full);
            p->pos = 0;
        }
        gz_chunk *c = p->cur;
        if (c->len <= 0) {
            p->done = 1;
            if (c->len < 0) {
                errno = c->err;
                return -1;
            }
            return 0;
        }
        if (p->pos < (size_t)c->len) {
            size_t k = MIN(n, (size_t)c->len - p->pos);
            memcpy(buf, c->data + p->pos, k);
            p->pos += k;
            return (ssize_t)k;
        }
        g_async_queue_push(p->empty, c);
        p->cur = NULL;
    }
    return p->cur && p->cur->len < 0 ? (errno = p->cur->err, -1) : 0;
}

void passes_gz_pipe_end(passes_gz_pipe *p)
{
    if (!p)
        return;
    if (p->thread) {
        /* The worker may wait for an empty buffer: give back what the
         * indexer holds and drain what it made until its last chunk. */
        g_atomic_int_set(&p->stop, 1);
        if (p->cur && !p->done) {
            g_async_queue_push(p->empty, p->cur);
            p->cur = NULL;
        }
        while (!p->done) {
            gz_chunk *c = g_async_queue_pop(p->full);
            if (c->len <= 0)
                p->done = 1;
            g_async_queue_push(p->empty, c);
        }
        g_thread_join(p->thread);
    }
    if (p->cur)
        g_async_queue_push(p->empty, p->cur);
    gz_chunk *c;
    while ((c = g_async_queue_try_pop(p->empty)) || (c = g_async_queue_try_pop(p->full))) {
        g_free(c->data);
        g_free(c);
    }
    g_async_queue_unref(p->full);
    g_async_queue_unref(p->empty);
    g_free(p);
}
