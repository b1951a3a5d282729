/* slice.c - a kernel's slice of its pass dump file written into a bundle
 * (bundle_passfiles_write_kernel(), called by write/): its sequence,
 * headers included, in file order, gzip-compressed. */
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

int bundle_passfiles_write_kernel(tk_bundle *b, const tk_kernel *k,
                                  const char *tmp, bundle_manifest_kernel *mk,
                                  const char *outdir, tk_diags *diags)
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
        char *rel = g_strdup_printf("%s/passes/%s", mk->folder, name);
        char *to = g_build_filename(tmp, rel, NULL);
        char *err = NULL;
        bundle_gzip_writer *w = bundle_gzip_create(to, &err);
        if (!w) {
            tk_diags_add(diags, TK_DIAG_ERROR, outdir, 0,
                         "cannot write the bundle: %s", err);
            g_free(err);
            rc = -1;
        } else {
            /* A read error is about the input: the slice is left out and
             * the bundle written.  A write error loses the bundle. */
            tk_diags *reads = tk_diags_new();
            int copied = copy_seq(f->ix, seq, w, reads);
            gboolean read_failed = tk_diags_count(reads) > 0;
            for (size_t x = 0; x < tk_diags_count(reads); x++) {
                const tk_diag *d = tk_diags_get(reads, x);
                tk_diags_add(diags, d->severity, d->file, d->line, "%s",
                             d->message);
            }
            tk_diags_free(reads);
            if (copied != 0 && read_failed) {
                bundle_gzip_finish(w, FALSE, NULL);
                tk_diags_add(diags, TK_DIAG_WARNING, f->path, 0,
                             "kernel %s (%.12s): its pass dumps from this "
                             "file are left out of the bundle",
                             k->name, k->hash);
            } else if (bundle_gzip_finish(w, TRUE, &err) != 0) {
                tk_diags_add(diags, TK_DIAG_ERROR, outdir, 0,
                             "cannot write the bundle: %s", err);
                g_free(err);
                rc = -1;
            } else {
                if (!mk->passes)
                    mk->passes = g_array_new(FALSE, FALSE,
                                             sizeof(bundle_manifest_pass));
                bundle_manifest_pass mp = {g_strdup(rel), kind, seq->n_dumps};
                g_array_append_val(mk->passes, mp);
            }
        }
        g_free(to);
        g_free(rel);
    }
    g_hash_table_destroy(used);
    return rc;
}
