/* slice.c - a kernel's slice of its pass dump file written into a bundle
 * (bundle_passfiles_write_kernel() then bundle_passfiles_write_slices(),
 * called by write/): its sequence, headers included, in file order,
 * gzip-compressed.  The slices are compressed on the machine's cores: on a
 * capture of 500 MB of dumps compressing them one after another was most of
 * what capture did after the program ended (issue 25). */
#include "passfiles/internal.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define COPY_CHUNK ((uint64_t)1 << 20)

/* ---- bundles: each kernel's slice ------------------------------------------ */

/* Copies the dumps of sequence S of P, header through body, into W, a chunk
 * at a time.  Returns 0, or -1 when P cannot be read (reported in DIAGS) or
 * W failed. */
static int copy_seq(const tk_passes *p, const tk_pass_seq *s,
                    bundle_gzip_writer *w, tk_diags *diags)
{
    for (size_t j = 0; j < s->n_dumps; j++) {
        const tk_pass_dump *d = tk_passes_get(p, s->dumps[j]);
        uint64_t off = d->header_offset;
        uint64_t end = d->body_offset + d->body_len;
        char last = '\n';
        while (off < end) {
            uint64_t n = end - off < COPY_CHUNK ? end - off : COPY_CHUNK;
            char *chunk = tk_passes_read_range(p, off, n, diags);
            if (!chunk)
                return -1;
            int rc = bundle_gzip_write(w, chunk, (size_t)n);
            last = chunk[n - 1];
            g_free(chunk);
            if (rc != 0)
                return -1;
            off += n;
        }
        /* The body's last line may lack its line end (the end of the
         * file); then a blank line, as the printers leave between dumps. */
        if (bundle_gzip_write(w, "\n\n", last == '\n' ? 1 : 2) != 0)
            return -1;
    }
    return 0;
}

/* One slice to write: sequence SEQ of pass file F, as TO.  Filled on the
 * calling thread (names, folders), run on a worker (read and compress), and
 * its outcome merged on the calling thread in the order the slices were
 * planned, so the manifest and the diagnostics are as if written one by
 * one. */
struct bundle_pass_slice {
    const bundle_pass_file *f;
    const tk_pass_seq *seq;
    const tk_kernel *k;
    bundle_manifest_kernel *mk;
    const char *kind;
    char *rel, *to;
    /* outcome */
    tk_diags *reads;   /* what could not be read of F */
    char *write_err;   /* why the slice could not be written */
    gboolean done;     /* written and kept */
    gboolean left_out; /* F could not be read: no slice */
};

/* Reads and compresses one slice (a worker's task, or the caller's). */
static void slice_run(bundle_pass_slice *j)
{
    j->reads = tk_diags_new();
    bundle_gzip_writer *w = bundle_gzip_create(j->to, &j->write_err);
    if (!w)
        return;
    /* A read error is about the input: the slice is left out and the
     * bundle written.  A write error loses the bundle. */
    int copied = copy_seq(j->f->ix, j->seq, w, j->reads);
    if (copied != 0 && tk_diags_count(j->reads) > 0) {
        bundle_gzip_finish(w, FALSE, NULL);
        j->left_out = TRUE;
    } else if (bundle_gzip_finish(w, TRUE, &j->write_err) == 0) {
        j->done = TRUE;
    }
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
        const tk_pass_seq *seq = tk_passes_seq(f->ix, (size_t)s);
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
        char *name = g_strdup_printf("%s.txt.gz", kind);
        for (int c = 2; g_hash_table_contains(used, name); c++) {
            g_free(name);
            name = g_strdup_printf("%s-%d.txt.gz", kind, c);
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
    run_tasks(tasks);
    for (guint i = 0; i < tasks->len; i++) {
        slice_task *t = g_ptr_array_index(tasks, i);
        g_ptr_array_free(t->jobs, TRUE);
        g_free(t);
    }
    g_ptr_array_free(tasks, TRUE);

    /* The outcomes, in the order the slices were planned. */
    int rc = 0;
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
                                       j->seq->n_dumps};
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
        g_free(j);
    }
    if (jobs)
        g_ptr_array_free(jobs, TRUE);
}
