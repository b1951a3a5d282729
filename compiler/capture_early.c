/* capture_early.c - nvdisasm on each cubin while the program still runs.
 *
 * SASS and life ranges (capture_sass.c, capture_lr.c) used to start when
 * the program had ended: on a torch.compile training step that was 4 s of
 * 16 cores after a 33 s program that kept about 2 of them busy (issue 25).
 * So while the program runs, one thread watches Triton's cache folder: a
 * compile's NAME.json is written after its stages and cubin, so a cubin
 * beside its NAME.json is final.  Its bytes are copied to
 * WORK/early/SUM/NAME.cubin (a later compile of the same hash may replace
 * the cache's file, and the kernel dump's folder is shared by a kernel's
 * configurations) and both
 * kinds of job run on that copy, on a pool, each tool niced and out of the
 * terminal's process group (cap_tool_run_beside()).  After the program,
 * cap_jobs_run() finds each cubin's outcome here by its bytes' key and
 * runs only what is left; capture_jobs.c retells the copy's path.
 *
 * TKVIEW_CAPTURE_LATE=1 in tkview's environment turns this off (every
 * cubin then after the program, as before): for bench/capture_bench.py's
 * same-build comparison.
 *
 * The tools are looked for on the first cubin seen (an AMD capture has
 * none, and asks no Python where Triton is), as they would be after it.
 */
#include "capture.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tkdump/tk_input_file.h"
#include "tkdump/tk_life_ranges.h"

#define SCAN_INTERVAL_US (250 * 1000)

/* tk_run_fn over cap_tool_run_beside(), bounded by 120 s: how the library
 * asks the program's Python where Triton is (tk_triton_nvidia_bin()).
 * USER points at a gboolean: beside the program. */
static int run_bounded(const char *const *argv, const char *stdout_path,
                       char **err, void *user)
{
    char *e = NULL;
    int rc = cap_tool_run_beside((char **)argv, stdout_path, 120,
                                 *(const gboolean *)user, &e);
    if (err)
        *err = e ? strdup(e) : NULL;
    g_free(e);
    return rc;
}

/* The nvdisasm for SASS: TRITON_NVDISASM_PATH, PATH, CUDA_HOME/bin,
 * /usr/local/cuda/bin, then Triton's bin folder TDIR (may be NULL). */
char *cap_nvdisasm_find(const char *tdir)
{
    const char *env = g_getenv("TRITON_NVDISASM_PATH");
    if (env && *env && access(env, X_OK) == 0)
        return g_strdup(env);
    const char *cuda_home = g_getenv("CUDA_HOME");
    char *cuda_bin = cuda_home ? g_build_filename(cuda_home, "bin", NULL)
                               : g_strdup("");
    const char *names[] = {"nvdisasm", NULL};
    const char *dirs[] = {cuda_bin, "/usr/local/cuda/bin", NULL};
    char *found = cap_tool_find(names, dirs);
    g_free(cuda_bin);
    if (found || !tdir)
        return found;
    char *p = g_build_filename(tdir, "nvdisasm", NULL);
    if (access(p, X_OK) == 0)
        return p;
    g_free(p);
    return NULL;
}

void cap_nv_tools_find(cap_nv_tools *t, char **argv, gboolean beside)
{
    memset(t, 0, sizeof *t);
    /* Triton's own copy of the CUDA tools, asked of the program's Python
     * (ARGV[0] when it is a python, else python3). */
    char *base = g_path_get_basename(argv[0]);
    const char *py = g_str_has_prefix(base, "python") ? argv[0] : NULL;
    t->tdir = tk_triton_nvidia_bin(py, run_bounded, &beside);
    g_free(base);
    t->nvdisasm = cap_nvdisasm_find(t->tdir);
    /* Life ranges: Triton's own nvdisasm first, the one its ptxas
     * matches (a newer CUDA's may refuse its cubins, capture_lr.c). */
    t->tnv = t->nvdisasm && t->tdir ? g_build_filename(t->tdir, "nvdisasm", NULL)
                                    : NULL;
    size_t nt = 0;
    if (t->tnv && access(t->tnv, X_OK) == 0)
        t->tools[nt++] = t->tnv;
    if (t->nvdisasm && (!nt || strcmp(t->tools[0], t->nvdisasm) != 0))
        t->tools[nt++] = t->nvdisasm;
}

void cap_nv_tools_clear(cap_nv_tools *t)
{
    g_free(t->tdir);
    g_free(t->nvdisasm);
    g_free(t->tnv);
    memset(t, 0, sizeof *t);
}

struct cap_early {
    char *dir, *cache;
    char **argv;
    GThread *scanner;
    GMutex lock;
    GCond wake;
    gboolean stop;        /* under LOCK */
    GThreadPool *pool;
    GHashTable *seen;     /* "PATH/NAME.json mtime size" looked at */
    GHashTable *done;     /* key -> cap_job, both kinds */
    GPtrArray *jobs;      /* every job, to free */
    cap_nv_tools tools;
    gboolean tools_known;
    unsigned cubins;
};

static void pool_run(gpointer data, gpointer user)
{
    (void)user;
    cap_job *j = data;
    j->run(j);
}

static void add_job(cap_early *e, cap_job *j, const char *sum)
{
    j->beside = TRUE;
    j->key = g_strconcat(j->kind, ":", sum, NULL);
    g_hash_table_insert(e->done, j->key, j);
    g_ptr_array_add(e->jobs, j);
    if (!e->pool)
        e->pool = g_thread_pool_new(pool_run, NULL,
                                    (gint)MAX(1, g_get_num_processors()), FALSE,
                                    NULL);
    if (!e->pool || !g_thread_pool_push(e->pool, j, NULL))
        pool_run(j, NULL);
}

/* The cubin CUBIN, final: its bytes copied and both jobs begun, unless
 * bytes with the same sum were seen. */
static void take_cubin(cap_early *e, const char *cubin)
{
    size_t len = 0;
    char *data = tk_input_file_read(cubin, TK_INPUT_FILE_CUBIN, &len, NULL);
    if (!data)
        return;
    char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
                                            (const guchar *)data, len);
    char *sass_key = g_strconcat("sass:", sum, NULL);
    if (!g_hash_table_contains(e->done, sass_key)) {
        if (!e->tools_known) {
            cap_nv_tools_find(&e->tools, e->argv, TRUE);
            e->tools_known = TRUE;
        }
        /* WORK/early/SUM/NAME.cubin: the cubin's own name, for a tool
         * that tells by it. */
        char *dir = g_build_filename(e->dir, sum, NULL);
        char *name = g_path_get_basename(cubin);
        char *copy = g_build_filename(dir, name, NULL);
        size_t stem = strlen(copy) - strlen(".cubin");
        if (e->tools.nvdisasm && g_mkdir_with_parents(dir, 0755) == 0 &&
            g_file_set_contents(copy, data, (gssize)len, NULL)) {
            char *lr = g_strdup_printf("%.*s.sass_lr", (int)stem, copy);
            char *gi = g_strdup_printf("%.*s.sass_gi", (int)stem, copy);
            if (e->tools.tools[0]) /* the longer first, as after the program */
                add_job(e, cap_lr_job_new(e->tools.tools, copy, lr), sum);
            add_job(e, cap_sass_job_new(e->tools.nvdisasm, copy, gi), sum);
            e->cubins++;
            g_free(lr);
            g_free(gi);
        }
        g_free(name);
        g_free(dir);
        g_free(copy);
    }
    g_free(sass_key);
    g_free(sum);
    g_free(data);
}

/* One cache entry FOLDER: each NAME.cubin whose NAME.json is there and
 * was not looked at as it is now. */
static void scan_folder(cap_early *e, const char *folder)
{
    GDir *d = g_dir_open(folder, 0, NULL);
    for (const char *name; d && (name = g_dir_read_name(d));) {
        if (!g_str_has_suffix(name, ".json") || g_str_has_prefix(name, "__grp__"))
            continue;
        char *json = g_build_filename(folder, name, NULL);
        struct stat st;
        char *seen = lstat(json, &st) == 0
                         ? g_strdup_printf("%s %lld.%09ld %lld", json,
                                           (long long)st.st_mtim.tv_sec,
                                           st.st_mtim.tv_nsec, (long long)st.st_size)
                         : NULL;
        if (seen && !g_hash_table_contains(e->seen, seen)) {
            g_hash_table_add(e->seen, seen);
            seen = NULL;
            char *cubin = g_strdup_printf("%.*s.cubin",
                                          (int)(strlen(json) - strlen(".json")), json);
            if (lstat(cubin, &st) == 0 && S_ISREG(st.st_mode))
                take_cubin(e, cubin);
            g_free(cubin);
        }
        g_free(seen);
        g_free(json);
    }
    if (d)
        g_dir_close(d);
}

static gpointer scanner(gpointer data)
{
    cap_early *e = data;
    for (;;) {
        GDir *d = g_dir_open(e->cache, 0, NULL);
        for (const char *name; d && (name = g_dir_read_name(d));) {
            char *folder = g_build_filename(e->cache, name, NULL);
            struct stat st;
            if (name[0] != '.' && lstat(folder, &st) == 0 && S_ISDIR(st.st_mode))
                scan_folder(e, folder);
            g_free(folder);
        }
        if (d)
            g_dir_close(d);
        g_mutex_lock(&e->lock);
        gint64 until = g_get_monotonic_time() + SCAN_INTERVAL_US;
        while (!e->stop && g_cond_wait_until(&e->wake, &e->lock, until))
            ;
        gboolean stop = e->stop;
        g_mutex_unlock(&e->lock);
        if (stop)
            return NULL;
    }
}

cap_early *cap_early_start(const char *work, const char *cache, char **argv)
{
    cap_early *e = g_new0(cap_early, 1);
    e->dir = g_build_filename(work, "early", NULL);
    e->cache = g_strdup(cache);
    e->argv = g_strdupv(argv);
    g_mutex_init(&e->lock);
    g_cond_init(&e->wake);
    e->seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    e->done = g_hash_table_new(g_str_hash, g_str_equal); /* keys: the jobs' */
    e->jobs = g_ptr_array_new();
    const char *late = g_getenv("TKVIEW_CAPTURE_LATE");
    if ((!late || !*late || *late == '0') && g_mkdir_with_parents(e->dir, 0755) == 0)
        e->scanner = g_thread_try_new("tkview-early", scanner, e, NULL);
    return e;
}

GHashTable *cap_early_finish(cap_early *e, const cap_nv_tools **tools)
{
    if (e->scanner) {
        g_mutex_lock(&e->lock);
        e->stop = TRUE;
        g_cond_signal(&e->wake);
        g_mutex_unlock(&e->lock);
        g_thread_join(e->scanner);
        e->scanner = NULL;
    }
    if (e->pool) {
        g_thread_pool_free(e->pool, FALSE, TRUE); /* waits for every job */
        e->pool = NULL;
    }
    if (e->tools_known)
        *tools = &e->tools;
    return e->done;
}

unsigned cap_early_cubins(const cap_early *e)
{
    return e->cubins;
}

void cap_early_free(cap_early *e)
{
    if (!e)
        return;
    const cap_nv_tools *unused = NULL;
    cap_early_finish(e, &unused);
    g_hash_table_destroy(e->done);
    for (guint i = 0; i < e->jobs->len; i++) {
        cap_job *j = g_ptr_array_index(e->jobs, i);
        j->destroy(j);
    }
    g_ptr_array_free(e->jobs, TRUE);
    g_hash_table_destroy(e->seen);
    cap_nv_tools_clear(&e->tools);
    g_mutex_clear(&e->lock);
    g_cond_clear(&e->wake);
    g_strfreev(e->argv);
    g_free(e->cache);
    g_free(e->dir);
    g_free(e);
}
