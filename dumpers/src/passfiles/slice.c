/* slice.c - a kernel's slice of its pass dump file written into a bundle
 * (bundle_passfiles_write_kernel() then bundle_passfiles_write_slices(),
 * called by write/): its sequence, headers included, in file order, cut
 * into pieces, each distinct one compressed alone as a zstd frame, which
 * pool.c then stores once each in the bundle's dumps/ pool (like pieces as
 * differences from a base), the slice itself a refs file naming them
 * (passes/refs.c, docs/bundle.md "Shared dump text").  The slices are
 * compressed on the machine's cores: on a capture of 500 MB of dumps
 * compressing them one after another was most of what capture did after
 * the program ended (issue 25). */
#include "passfiles/slice.h"
#include "tkdump/tk_bundle_passes.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "passes/internal.h"

/* ---- bundles: each kernel's slice ------------------------------------------ */

int bundle_pass_write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* A piece cut but not yet recorded (flush_pieces()). */
typedef struct {
    char *text;
    size_t len;
    bundle_pass_piece r;     /* its digest, length, kind */
    bundle_pass_claim *mine; /* claimed here: to compress and write */
    GBytes *frame;
    ZSTD_CCtx *cc;           /* this slot's, made once */
    int step;                /* what a worker does: 0 digest, 1 frame */
} pending_piece;

/* Where a job writes its pieces: its piece file, and the claims.  Pieces
 * wait in BATCH (CAP of them, one per worker) to be hashed, claimed in the
 * order they were cut, and the claimed ones compressed, on WORKERS when the
 * slice has them: a capture of few kernels has few slices (the FP8
 * program's 3 kept 3 of the H200's 16 cores busy, issue 25). */
typedef struct {
    int fd;
    uint64_t at;             /* the piece file's size so far */
    const char *piece_path;
    bundle_pass_claims *claims;
    GArray *pieces;          /* bundle_pass_piece */
    pending_piece *batch;
    guint n, cap;
    GThreadPool *workers;    /* NULL: all on the job's own thread */
    GMutex lock;
    GCond cond;
    guint left;              /* steps pushed and not done */
} piece_sink;

GBytes *bundle_pass_compress(void *cc, const void *text, size_t len,
                             const void *prefix, size_t plen, int level)
{
    ZSTD_CCtx *c = cc;
    ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1);
    if (prefix) {
        /* The window must reach back over the whole base. */
        int wlog = 10; /* ZSTD_WINDOWLOG_MIN */
        while (wlog < 24 && ((size_t)1 << wlog) < plen + len)
            wlog++;
        ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, wlog);
        if (ZSTD_isError(ZSTD_CCtx_refPrefix(c, prefix, plen)))
            return NULL;
    }
    size_t bound = ZSTD_compressBound(len);
    void *out = g_malloc(bound);
    size_t n = ZSTD_compress2(c, out, bound, text, len);
    if (ZSTD_isError(n)) {
        g_free(out);
        return NULL;
    }
    return g_bytes_new_take(g_realloc(out, n ? n : 1), n);
}

static void piece_step(pending_piece *q)
{
    if (q->step == 0) {
        GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
        g_checksum_update(c, (const guchar *)q->text, (gssize)q->len);
        gsize dlen = sizeof q->r.digest;
        g_checksum_get_digest(c, q->r.digest, &dlen);
        g_checksum_free(c);
        return;
    }
    if (!q->cc)
        q->cc = ZSTD_createCCtx();
    q->frame = q->cc ? bundle_pass_compress(q->cc, q->text, q->len, NULL, 0,
                                            BUNDLE_PASS_LEVEL)
                     : NULL;
}

static void piece_worker(gpointer data, gpointer user)
{
    piece_sink *k = user;
    piece_step(data);
    g_mutex_lock(&k->lock);
    if (--k->left == 0)
        g_cond_signal(&k->cond);
    g_mutex_unlock(&k->lock);
}

/* Runs STEP on the batch's pieces (ONLY_MINE: those claimed here), on the
 * workers when there are two or more, and waits for them. */
static void run_step(piece_sink *k, int step, gboolean only_mine)
{
    guint want = 0;
    for (guint i = 0; i < k->n; i++)
        if (!only_mine || k->batch[i].mine) {
            k->batch[i].step = step;
            want++;
        }
    if (!k->workers || want < 2) {
        for (guint i = 0; i < k->n; i++)
            if (!only_mine || k->batch[i].mine)
                piece_step(&k->batch[i]);
        return;
    }
    k->left = want;
    for (guint i = 0; i < k->n; i++)
        if ((!only_mine || k->batch[i].mine) &&
            !g_thread_pool_push(k->workers, &k->batch[i], NULL))
            piece_worker(&k->batch[i], k);
    g_mutex_lock(&k->lock);
    while (k->left)
        g_cond_wait(&k->cond, &k->lock);
    g_mutex_unlock(&k->lock);
}

/* Records the batch's pieces in order; the first time any job meets a
 * piece's text, it is compressed alone as one zstd frame appended to the
 * piece file.  Returns 0, or -1 when the write failed. */
static int flush_pieces(piece_sink *k)
{
    run_step(k, 0, FALSE);
    for (guint i = 0; i < k->n; i++) {
        pending_piece *q = &k->batch[i];
        g_array_append_val(k->pieces, q->r);
        GBytes *key = g_bytes_new(q->r.digest, sizeof q->r.digest);
        g_mutex_lock(&k->claims->lock);
        if (!g_hash_table_contains(k->claims->of, key)) {
            q->mine = g_new0(bundle_pass_claim, 1);
            q->mine->piece_path = k->piece_path;
            g_hash_table_insert(k->claims->of, g_bytes_ref(key), q->mine);
        }
        g_mutex_unlock(&k->claims->lock);
        g_bytes_unref(key);
    }
    run_step(k, 1, TRUE);
    int rc = 0;
    for (guint i = 0; i < k->n; i++) {
        pending_piece *q = &k->batch[i];
        gsize in_len = 0;
        const void *data = q->frame ? g_bytes_get_data(q->frame, &in_len) : NULL;
        if (q->mine && rc == 0 &&
            (!q->frame || bundle_pass_write_all(k->fd, data, in_len) != 0))
            rc = -1;
        else if (q->mine && rc == 0) {
            g_mutex_lock(&k->claims->lock);
            q->mine->at = k->at;
            q->mine->in_len = in_len;
            q->mine->written = TRUE;
            g_mutex_unlock(&k->claims->lock);
            k->at += in_len;
        }
        if (q->frame)
            g_bytes_unref(q->frame);
        g_free(q->text);
        q->text = NULL;
        q->frame = NULL;
        q->mine = NULL;
    }
    k->n = 0;
    return rc;
}

/* Takes TEXT (LEN bytes; BODY: of a dump's body) as the next piece.
 * Returns 0, or -1 when a write failed. */
static int add_piece(piece_sink *k, char *text, size_t len, gboolean body)
{
    pending_piece *q = &k->batch[k->n++];
    q->text = text;
    q->len = len;
    memset(&q->r, 0, sizeof q->r);
    q->r.len = len;
    q->r.body = body;
    return k->n == k->cap ? flush_pieces(k) : 0;
}

/* Cuts the dumps of sequence S of P into pieces written to FD: each dump's
 * header, then its body (with the blank line the printers leave between
 * dumps) in pieces of PASSES_REFS_PIECE bytes, so that identical bodies
 * are identical pieces whatever their headers say (add_piece()).  Returns 0, 1 when P
 * cannot be read (reported in DIAGS), -1 when the write failed. */
static uint64_t count_lines(const char *text, size_t len)
{
    uint64_t n = 0;
    for (const char *q = text, *e = text + len; (q = memchr(q, '\n', (size_t)(e - q)));
         q++)
        n++;
    return n;
}

static int cut_seq(const tk_passes *p, const tk_pass_seq *s, piece_sink *k,
                   bundle_pass_slice *j, tk_diags *diags)
{
    /* Where each dump lands in the slice's text, for its stored index
     * (passes/stored.c): the text is what is cut here, piece by piece. */
    uint64_t at = 0, line = 1;
    passes_stored_begin(j->stored);
    for (size_t x = 0; x < s->n_dumps; x++) {
        const tk_pass_dump *d = tk_passes_get(p, s->dumps[x]);
        uint64_t head = d->body_offset - d->header_offset;
        char *text = head ? tk_passes_read_range(p, d->header_offset, head, diags)
                          : NULL;
        if (head && !text)
            return 1;
        /* Binary data after a body (what ended it in P) is not copied. */
        tk_pass_dump sd = *d;
        sd.flags &= ~TK_PASS_BINARY;
        passes_stored_dump(j->stored, &sd, at, line, at + head);
        at += head;
        line += head ? count_lines(text, (size_t)head) : 0;
        int rc = head ? add_piece(k, text, (size_t)head, FALSE) : 0;
        if (!head)
            g_free(text);
        if (rc != 0)
            return -1;
        uint64_t off = d->body_offset, end = d->body_offset + d->body_len;
        do {
            uint64_t n = MIN(end - off, (uint64_t)PASSES_REFS_PIECE);
            text = n ? tk_passes_read_range(p, off, n, diags) : g_strdup("");
            if (!text)
                return 1;
            size_t len = (size_t)n;
            if (off + n == end) {
                /* The body's last line may lack its line end (the end of
                 * the file); then a blank line. */
                gboolean ended = n == 0 || text[n - 1] == '\n';
                text = g_realloc(text, len + 2);
                memcpy(text + len, "\n\n", ended ? 1 : 2);
                len += ended ? 1 : 2;
            }
            at += len;
            line += count_lines(text, len);
            rc = add_piece(k, text, len, TRUE);
            if (rc != 0)
                return -1;
            off += n;
        } while (off < end);
    }
    j->text_size = at;
    j->n_lines = line - 1;
    return flush_pieces(k);
}

/* Reads and compresses one slice's pieces (a worker's task, or the
 * caller's); bundle_passfiles_write_slices() pools them. */
static void slice_run(bundle_pass_slice *j)
{
    j->reads = tk_diags_new();
    j->stored = g_string_new(NULL);
    j->pieces = g_array_new(FALSE, FALSE, sizeof(bundle_pass_piece));
    int fd = open(j->piece_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        j->write_err = g_strdup_printf("cannot create %s: %s", j->piece_path,
                                       g_strerror(errno));
        return;
    }
    /* A read error is about the input: the slice is left out and the
     * bundle written.  A write error loses the bundle. */
    piece_sink k = {.fd = fd, .piece_path = j->piece_path, .claims = j->claims,
                    .pieces = j->pieces, .cap = MAX(j->workers, 1)};
    k.batch = g_new0(pending_piece, k.cap);
    g_mutex_init(&k.lock);
    g_cond_init(&k.cond);
    if (k.cap > 1)
        k.workers = g_thread_pool_new(piece_worker, &k, (gint)k.cap, FALSE, NULL);
    int cut = cut_seq(j->f->ix, j->seq, &k, j, j->reads);
    if (k.workers)
        g_thread_pool_free(k.workers, FALSE, TRUE);
    for (guint i = 0; i < k.cap; i++) {
        g_free(k.batch[i].text); /* left by a failed read */
        ZSTD_freeCCtx(k.batch[i].cc);
    }
    g_free(k.batch);
    g_mutex_clear(&k.lock);
    g_cond_clear(&k.cond);
    if (close(fd) != 0 && cut == 0)
        cut = -1;
    if (cut == 1 && tk_diags_count(j->reads) > 0)
        j->left_out = TRUE;
    else if (cut != 0)
        j->write_err = g_strdup_printf("cannot write %s", j->piece_path);
    else
        j->done = TRUE;
    /* Its piece file stays until the pool is made: other jobs' pieces may be
     * members in it. */
}

/* The slices of one gzip pass file run one after another on one worker: its
 * reader (passes/gz.c) keeps one position.  A plain file is read with
 * pread(), so each of its slices is a task of its own. */
typedef struct {
    GPtrArray *jobs; /* bundle_pass_slice *, borrowed */
} slice_task;

static void slice_task_run(gpointer data, gpointer user)
{
    (void)user;
    slice_task *t = data;
    for (guint i = 0; i < t->jobs->len; i++)
        slice_run(g_ptr_array_index(t->jobs, i));
}

int bundle_passfiles_write_kernel(tk_bundle *b, const tk_kernel *k,
                                  const char *tmp, bundle_manifest_kernel *mk,
                                  const char *outdir, GPtrArray *jobs,
                                  tk_diags *diags)
{
    size_t n = tk_bundle_pass_file_count(b, diags);
    gboolean have_dir = FALSE;
    GHashTable *used = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                             NULL);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        ptrdiff_t s = tk_bundle_kernel_pass_seq(b, k, i);
        if (s < 0)
            continue;
        const bundle_pass_file *f = g_ptr_array_index(b->pass_files, i);
        /* A bundle's stored index is copied into the new bundle's: every
         * body is checked first (one that does not match is replaced by
         * the index of the text, tk_passes.h), so no lie is passed on. */
        for (size_t x = 0; tk_passes_is_stored(f->ix) && x < tk_passes_count(f->ix); x++)
            if (tk_passes_check_dump(f->ix, x, diags) != 1)
                break;
        const tk_pass_seq *seq = tk_passes_seq(f->ix, (size_t)s);
        if (!seq)
            continue;
        if (!have_dir) {
            char *dir = g_build_filename(tmp, mk->folder, "passes", NULL);
            if (g_mkdir(dir, 0755) != 0) {
                tk_diags_add(diags, TK_DIAG_ERROR, outdir, 0,
                             "cannot write the bundle: cannot create %s: %s",
                             dir, g_strerror(errno));
                rc = -1;
            }
            g_free(dir);
            have_dir = TRUE;
            if (rc != 0)
                break;
        }
        const char *kind =
            tk_passes_file_kind_name(tk_passes_content_kind(f->ix));
        char *name = g_strdup_printf("%s.refs", kind);
        for (int c = 2; g_hash_table_contains(used, name); c++) {
            g_free(name);
            name = g_strdup_printf("%s-%d.refs", kind, c);
        }
        g_hash_table_add(used, name);
        bundle_pass_slice *j = g_new0(bundle_pass_slice, 1);
        j->f = f;
        j->seq = seq;
        j->k = k;
        j->mk = mk;
        j->kind = kind;
        j->rel = g_strdup_printf("%s/passes/%s", mk->folder, name);
        j->to = g_build_filename(tmp, j->rel, NULL);
        j->root = g_strdup(tmp);
        j->piece_path = g_strconcat(j->to, ".pieces", NULL);
        g_ptr_array_add(jobs, j);
    }
    g_hash_table_destroy(used);
    return rc;
}

/* Runs the tasks on the machine's cores (the slices are independent files;
 * compressing them is most of a bundle's writing), or here when there is one
 * core or no thread can be made. */
static void run_tasks(GPtrArray *tasks)
{
    guint cores = g_get_num_processors();
    /* Fewer slices than cores: each slice's pieces on several. */
    guint per = tasks->len ? MAX(1, cores / tasks->len) : 1;
    for (guint i = 0; i < tasks->len; i++) {
        slice_task *t = g_ptr_array_index(tasks, i);
        for (guint x = 0; x < t->jobs->len; x++)
            ((bundle_pass_slice *)g_ptr_array_index(t->jobs, x))->workers = per;
    }
    GThreadPool *pool = NULL;
    if (cores > 1 && tasks->len > 1)
        pool = g_thread_pool_new(slice_task_run, NULL,
                                 (gint)MIN(cores, tasks->len), FALSE, NULL);
    for (guint i = 0; i < tasks->len; i++)
        if (!pool || !g_thread_pool_push(pool, g_ptr_array_index(tasks, i), NULL))
            slice_task_run(g_ptr_array_index(tasks, i), NULL);
    if (pool)
        g_thread_pool_free(pool, FALSE, TRUE); /* waits for every task */
}

/* Writes J's stored index beside its refs file (docs/bundle.md, "The
 * stored index of a slice"): FOLDER/passes/KIND.index.zst, one zstd frame
 * (a fifth of the text; read back inflated by tk_input_file_read()).
 * Returns 0, or -1 with *ERR set (caller frees). */
static int write_index(bundle_pass_slice *j, void *cc, char **err)
{
    struct stat st;
    if (stat(j->to, &st) != 0) {
        *err = g_strdup_printf("cannot read back %s: %s", j->to, g_strerror(errno));
        return -1;
    }
    size_t n = strlen(j->rel);
    size_t stem = n > 5 && g_str_has_suffix(j->rel, ".refs") ? n - 5 : n;
    j->index_rel = g_strdup_printf("%.*s.index.zst", (int)stem, j->rel);
    char *path = g_build_filename(j->root, j->index_rel, NULL);
    char *text = passes_stored_finish(j->stored, j->seq->n_dumps, j->text_size, j->n_lines,
                                      (uint64_t)st.st_size);
    GBytes *frame = bundle_pass_compress(cc, text, strlen(text), NULL, 0, BUNDLE_PASS_LEVEL);
    gsize flen = 0;
    const void *data = frame ? g_bytes_get_data(frame, &flen) : NULL;
    int fd = frame ? open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644) : -1;
    int rc = fd >= 0 && bundle_pass_write_all(fd, data, flen) == 0 ? 0 : -1;
    if (fd >= 0 && close(fd) != 0)
        rc = -1;
    if (rc != 0)
        *err = g_strdup_printf("cannot write %s: %s", path,
                               frame ? g_strerror(errno) : "zstd failed");
    if (frame)
        g_bytes_unref(frame);
    g_free(text);
    g_free(path);
    return rc;
}

int bundle_passfiles_write_slices(GPtrArray *jobs, const char *outdir,
                                  tk_diags *diags)
{
    /* Tasks: one per gzip pass file (its slices in order), one per slice of
     * a plain file. */
    GPtrArray *tasks = g_ptr_array_new();
    GHashTable *of_file = g_hash_table_new(NULL, NULL); /* gzip file -> task */
    GHashTable *plain = g_hash_table_new(NULL, NULL);
    for (guint i = 0; i < jobs->len; i++) {
        bundle_pass_slice *j = g_ptr_array_index(jobs, i);
        gboolean gz = FALSE;
        if (!g_hash_table_contains(plain, j->f) &&
            !g_hash_table_contains(of_file, j->f)) {
            if (bundle_gzip_is(j->f->path))
                g_hash_table_insert(of_file, (gpointer)j->f, NULL);
            else
                g_hash_table_add(plain, (gpointer)j->f);
        }
        gz = g_hash_table_contains(of_file, j->f);
        slice_task *t = gz ? g_hash_table_lookup(of_file, j->f) : NULL;
        if (!t) {
            t = g_new0(slice_task, 1);
            t->jobs = g_ptr_array_new();
            g_ptr_array_add(tasks, t);
            if (gz)
                g_hash_table_insert(of_file, (gpointer)j->f, t);
        }
        g_ptr_array_add(t->jobs, j);
    }
    g_hash_table_destroy(plain);
    g_hash_table_destroy(of_file);
    bundle_pass_claims claims;
    g_mutex_init(&claims.lock);
    claims.of = g_hash_table_new_full(g_bytes_hash, g_bytes_equal,
                                      (GDestroyNotify)g_bytes_unref, g_free);
    for (guint i = 0; i < jobs->len; i++)
        ((bundle_pass_slice *)g_ptr_array_index(jobs, i))->claims = &claims;
    run_tasks(tasks);
    for (guint i = 0; i < tasks->len; i++) {
        slice_task *t = g_ptr_array_index(tasks, i);
        g_ptr_array_free(t->jobs, TRUE);
        g_free(t);
    }
    g_ptr_array_free(tasks, TRUE);

    /* The pieces stored once each, in the order the slices were planned. */
    char *perr = NULL;
    int rc = bundle_pass_pool_write(jobs, &claims, &perr);
    ZSTD_CCtx *cc = rc == 0 ? ZSTD_createCCtx() : NULL;
    for (guint i = 0; cc && i < jobs->len && rc == 0; i++) {
        bundle_pass_slice *j = g_ptr_array_index(jobs, i);
        if (j->done)
            rc = write_index(j, cc, &perr);
    }
    ZSTD_freeCCtx(cc);
    for (guint i = 0; i < jobs->len; i++) {
        bundle_pass_slice *j = g_ptr_array_index(jobs, i);
        unlink(j->piece_path);
        j->claims = NULL;
    }
    g_hash_table_destroy(claims.of);
    g_mutex_clear(&claims.lock);
    if (rc != 0) {
        tk_diags_add(diags, TK_DIAG_ERROR, outdir, 0,
                     "cannot write the bundle: %s", perr);
        g_free(perr);
        return -1;
    }
    /* The outcomes, in the order the slices were planned. */
    for (guint i = 0; i < jobs->len && rc == 0; i++) {
        bundle_pass_slice *j = g_ptr_array_index(jobs, i);
        for (size_t x = 0; j->reads && x < tk_diags_count(j->reads); x++) {
            const tk_diag *d = tk_diags_get(j->reads, x);
            tk_diags_add(diags, d->severity, d->file, d->line, "%s",
                         d->message);
        }
        if (j->left_out) {
            tk_diags_add(diags, TK_DIAG_WARNING, j->f->path, 0,
                         "kernel %s (%.12s): its pass dumps from this "
                         "file are left out of the bundle",
                         j->k->name, j->k->hash);
        } else if (!j->done) {
            tk_diags_add(diags, TK_DIAG_ERROR, outdir, 0,
                         "cannot write the bundle: %s",
                         j->write_err ? j->write_err : "unknown error");
            rc = -1;
        } else {
            bundle_manifest_kernel *mk = j->mk;
            if (!mk->passes)
                mk->passes = g_array_new(FALSE, FALSE,
                                         sizeof(bundle_manifest_pass));
            bundle_manifest_pass mp = {g_strdup(j->rel), j->kind,
                                       j->seq->n_dumps, "refs",
                                       g_strdup(j->index_rel)};
            g_array_append_val(mk->passes, mp);
        }
    }
    return rc;
}

void bundle_passfiles_slices_free(GPtrArray *jobs)
{
    for (guint i = 0; jobs && i < jobs->len; i++) {
        bundle_pass_slice *j = g_ptr_array_index(jobs, i);
        if (j->reads)
            tk_diags_free(j->reads);
        g_free(j->write_err);
        g_free(j->rel);
        g_free(j->to);
        g_free(j->root);
        g_free(j->piece_path);
        if (j->pieces)
            g_array_free(j->pieces, TRUE);
        if (j->stored)
            g_string_free(j->stored, TRUE);
        g_free(j->index_rel);
        g_free(j);
    }
    if (jobs)
        g_ptr_array_free(jobs, TRUE);
}
