/* report.c - writing the whole report (html.h): stage the folder, write
 * the assets, each kernel's page and data, the file table and the index,
 * then rename it into place. */
#include "report.h"

#include <string.h>

#include "data_words.h"
#include "put_queue.h"
#include "tkdump/tk_bundle_write.h"
#include "tkdump/tk_compare.h"
#include "tkdump/tk_config.h"
#include "tkdump/tk_staged_dir.h"

#include "tkview-config.h"

/* A page name from the kernel's name: letters, digits, '_' and '-' only,
 * cut to 48 bytes, so the name is readable and can never be a path. */
static void page_name(char *out, size_t cap, const char *id, const char *name)
{
    GString *s = g_string_new(id);
    g_string_append_c(s, '-');
    size_t n = 0;
    for (const char *p = name; *p && n < 48; p++, n++)
        g_string_append_c(s, g_ascii_isalnum(*p) || *p == '_' ? *p : '_');
    g_string_append(s, ".html");
    g_strlcpy(out, s->str, cap);
    g_string_free(s, TRUE);
}

static int write_marker(html_report *r)
{
    GString *s = g_string_new("{\"generator\":\"tkview\",\"version\":\"" TKVIEW_VERSION
                              "\",\"format\":1}\n");
    int rc = html_outdir_write(r->out, HTML_REPORT_MARKER, s->str, s->len, r->diags);
    g_string_free(s, TRUE);
    return rc;
}

/* Every kernel's stage data and page (data_kernel.c, page_kernel.c), in
 * order.  They read the bundle and add to its location table and source
 * cache, and report to r->diags: each kernel's share holds r->lock, which
 * the pass threads take for the same table and diagnostics (data_passes.c);
 * what else those read (pass indexes, the kernels' stages and names) none
 * of this changes. */
typedef struct {
    html_report *r;
    int rc;
} stage_work;

static gpointer stage_data(gpointer data)
{
    stage_work *sw = data;
    html_report *r = sw->r;
    for (guint i = 0; i < r->kernels->len && sw->rc == 0; i++) {
        html_report_kernel *rk = &g_array_index(r->kernels, html_report_kernel, i);
        g_mutex_lock(&r->lock);
        sw->rc = html_report_kernel_data(r, rk);
        if (sw->rc == 0)
            sw->rc = html_report_kernel_write(r, rk);
        g_mutex_unlock(&r->lock);
    }
    return NULL;
}

int html_write(tk_bundle *bundle, const char *outdir,
                  const html_options *opts, html_stats *stats,
                  tk_diags *diags)
{
    static const html_options no_opts = {0};
    if (!opts)
        opts = &no_opts;
    gint64 t0 = g_get_monotonic_time();
    /* Never write where we read, --force or not: OUTDIR may not be the
     * input, lie in it or hold it (`--html IN IN --force` once replaced the
     * bundle by its report), nor the other side of --compare (`--html B A B
     * --compare K:K --force` replaced B), nor hold the note. */
    if (tk_bundle_check_output(bundle, outdir, diags) != 0 ||
        (opts->other && tk_bundle_check_output(opts->other, outdir, diags) != 0))
        return -1;
    if (opts->notes_path) {
        int rel = tk_staged_dir_overlap(outdir, opts->notes_path);
        if (rel == TK_STAGED_DIR_SAME || rel == TK_STAGED_DIR_CONTAINS) {
            tk_diags_add(diags, TK_DIAG_ERROR, outdir, 0,
                         "refusing to write here: it contains the note %s, "
                         "which replacing it would delete",
                         opts->notes_path);
            return -1;
        }
    }
    char *notes = NULL;
    if (opts->notes_path && !(notes = html_report_notes(opts->notes_path, diags)))
        return -1;
    html_report r = {
        .bundle = bundle,
        .diags = diags,
        .opts = opts,
        .sources = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free),
        .kernels = g_array_new(FALSE, TRUE, sizeof(html_report_kernel)),
        .compares = g_array_new(FALSE, TRUE, sizeof(html_report_compare)),
    };
    int rc = -1;
    g_mutex_init(&r.lock);
    if (!(r.out = html_outdir_begin(outdir, opts->force, diags)))
        goto done;
    r.queue = html_put_queue_new(r.out);
    if (html_outdir_mkdir(r.out, "assets", diags) || html_outdir_mkdir(r.out, "data", diags) ||
        html_outdir_mkdir(r.out, "data/src", diags) || html_report_assets(&r))
        goto fail;
    /* The compiler's messages (stdout.txt, stderr.txt beside the input),
     * read while nothing else uses the bundle. */
    r.diag = tk_diag_set_load(tk_bundle_path(bundle), bundle, NULL);
    size_t nk = tk_bundle_kernel_count(bundle);
    g_array_set_size(r.kernels, nk);
    /* Titles tell compiles of one kernel apart (the library's answer). */
    tk_config **apart = tk_config_apart_all(bundle, NULL);
    for (size_t i = 0; i < nk; i++) {
        html_report_kernel *rk = &g_array_index(r.kernels, html_report_kernel, i);
        rk->apart = tk_config_label(apart[i]);
        tk_config_free(apart[i]);
    }
    g_free(apart);
    for (size_t i = 0; i < nk; i++) {
        html_report_kernel *rk = &g_array_index(r.kernels, html_report_kernel, i);
        rk->kernel = tk_bundle_kernel(bundle, i);
        rk->n_passes = rk->n_changed = -1;
        g_snprintf(rk->id, sizeof rk->id, "k%03zu", i + 1);
        page_name(rk->page, sizeof rk->page, rk->id, tk_kernel_name(rk->kernel));
        char dir[32];
        g_snprintf(dir, sizeof dir, "data/%s", rk->id);
        if (html_outdir_mkdir(r.out, dir, diags))
            goto fail;
    }
    /* The pass timelines (two kernels at a time) and the kernels' stage
     * data and pages (on a thread of their own) at the same time: a
     * capture of one big kernel is a timeline on one thread, with a core
     * to spare. */
    if (html_report_compare_pairs(&r))
        goto fail;
    html_report_passes *plan = opts->no_passes ? NULL : html_report_passes_plan(&r);
    stage_work sw = {.r = &r};
    GThread *st = g_get_num_processors() > 1
                      ? g_thread_try_new("tkview-stages", stage_data, &sw, NULL)
                      : NULL;
    int prc = plan ? html_report_passes_run(&r, plan) : 0;
    if (st)
        g_thread_join(st);
    else
        stage_data(&sw);
    if (prc || sw.rc)
        goto fail;
    /* The compiler's messages, with the pass steps the timelines gave. */
    for (size_t i = 0; i < nk; i++)
        if (html_report_diag_data(&r, &g_array_index(r.kernels, html_report_kernel, i)))
            goto fail;
    if (html_report_compares(&r) || html_report_configs(&r) || html_report_files(&r) ||
        html_report_index(&r, notes) ||
        write_marker(&r))
        goto fail;
    int qrc = html_put_queue_finish(r.queue, diags);
    r.queue = NULL;
    if (qrc)
        goto fail;
    guint64 bytes = html_outdir_bytes(r.out);
    if (html_outdir_commit(r.out, diags) != 0) {
        r.out = NULL;
        goto done;
    }
    r.out = NULL;
    rc = 0;
    if (stats) {
        stats->bytes = bytes;
        stats->files = (guint)r.files;
        stats->kernels = nk;
    }
    goto done;
fail:
    html_put_queue_finish(r.queue, diags); /* before the folder goes */
    r.queue = NULL;
    html_outdir_abort(r.out);
    r.out = NULL;
done:
    html_report_words_forget();
    if (stats)
        stats->seconds = (double)(g_get_monotonic_time() - t0) / 1e6;
    g_hash_table_destroy(r.sources);
    for (guint i = 0; i < r.kernels->len; i++) {
        g_free(g_array_index(r.kernels, html_report_kernel, i).apart);
        g_free(g_array_index(r.kernels, html_report_kernel, i).diag_steps);
        tk_timeline_free(g_array_index(r.kernels, html_report_kernel, i).tl);
        tk_compare_digests_free(g_array_index(r.kernels, html_report_kernel, i).dig);
    }
    g_array_free(r.kernels, TRUE);
    g_array_free(r.compares, TRUE);
    tk_diag_set_free(r.diag);
    g_mutex_clear(&r.lock);
    g_free(notes);
    return rc;
}
