/* capture_sass.c - SASS with line info for every captured cubin.
 *
 * Triton keeps the cubin of each kernel but its own SASS (kernel_dump's
 * NAME.sass) has no line info.  `nvdisasm -c -gi NAME.cubin` prints the code
 * with "//## File ..., line N" comments and the inline frames ("inlined at"),
 * which is what binds SASS to source lines; it is written beside the cubin
 * as NAME.sass_gi, which the loader prefers over any other SASS.  Registers,
 * shared memory and spills need no tool: the loader reads them from the
 * cubin's ELF (docs/bundle.md), so cuobjdump is not needed.
 */
#include "capture.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NVDISASM_TIMEOUT_S 120.0

/* One cubin to disassemble.  The jobs are listed in folder order, run on
 * the machine's cores (one nvdisasm process each: a capture's cubins are
 * independent, and 37 of them one after another were seconds of the
 * capture's own time, issue 25), and their outcomes taken in list order,
 * so the manifest says what it said when they ran one by one. */
typedef struct {
    char *cubin, *name, *out, *tmp;
    const char *nvdisasm;
    int rc;    /* 0: made */
    char *err; /* cap_tool_run()'s reason */
} sass_job;

static void sass_job_run(gpointer data, gpointer user)
{
    (void)user;
    sass_job *j = data;
    char *argv[] = {(char *)j->nvdisasm, "-c", "-gi", j->cubin, NULL};
    j->rc = cap_tool_run(argv, j->tmp, NVDISASM_TIMEOUT_S, &j->err) == 0 &&
                    rename(j->tmp, j->out) == 0
                ? 0
                : -1;
    if (j->rc != 0)
        unlink(j->tmp);
}

static void sass_for_folder(const char *nvdisasm, const char *dir, GPtrArray *jobs)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    for (const char *e; d && (e = g_dir_read_name(d));) {
        if (!g_str_has_suffix(e, ".cubin") || e[0] == '.')
            continue;
        char *cubin = g_build_filename(dir, e, NULL);
        struct stat st;
        if (lstat(cubin, &st) != 0 || !S_ISREG(st.st_mode)) {
            g_free(cubin);
            continue;
        }
        sass_job *j = g_new0(sass_job, 1);
        char *base = g_strndup(cubin, strlen(cubin) - strlen(".cubin"));
        j->cubin = cubin;
        j->name = g_strndup(e, strlen(e) - strlen(".cubin"));
        j->out = g_strconcat(base, ".sass_gi", NULL);
        j->tmp = g_strconcat(base, ".sass_gi.tmp", NULL);
        j->nvdisasm = nvdisasm;
        g_free(base);
        g_ptr_array_add(jobs, j);
    }
    if (d)
        g_dir_close(d);
}

static void run_jobs(GPtrArray *jobs)
{
    guint cores = g_get_num_processors();
    GThreadPool *pool = NULL;
    if (cores > 1 && jobs->len > 1)
        pool = g_thread_pool_new(sass_job_run, NULL, (gint)MIN(cores, jobs->len),
                                 FALSE, NULL);
    for (guint i = 0; i < jobs->len; i++)
        if (!pool || !g_thread_pool_push(pool, g_ptr_array_index(jobs, i), NULL))
            sass_job_run(g_ptr_array_index(jobs, i), NULL);
    if (pool)
        g_thread_pool_free(pool, FALSE, TRUE); /* waits for every job */
}

void cap_make_sass(cap_capture *c, const char *nvdisasm,
                          const char *const *dirs, const char *why_missing)
{
    if (!nvdisasm) {
        g_free(c->sass_missing_all);
        c->sass_missing_all = g_strdup(why_missing);
        cap_info_set_string(c, "sass_tool", NULL);
        cap_info_set_string(c, "sass_missing", why_missing);
        return;
    }
    unsigned made = 0, failed = 0;
    GPtrArray *jobs = g_ptr_array_new();
    for (size_t i = 0; dirs && dirs[i]; i++) {
        GDir *d = g_dir_open(dirs[i], 0, NULL);
        for (const char *e; d && (e = g_dir_read_name(d));) {
            char *sub = g_build_filename(dirs[i], e, NULL);
            struct stat st;
            if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
                sass_for_folder(nvdisasm, sub, jobs);
            g_free(sub);
        }
        if (d)
            g_dir_close(d);
    }
    run_jobs(jobs);
    for (guint i = 0; i < jobs->len; i++) {
        sass_job *j = g_ptr_array_index(jobs, i);
        if (j->rc == 0) {
            made++;
        } else {
            failed++;
            const char *cubin_name = strrchr(j->cubin, '/');
            cubin_name = cubin_name ? cubin_name + 1 : j->cubin;
            char *why = g_strdup_printf("nvdisasm failed on %s: %s", cubin_name,
                                        j->err && *j->err ? j->err
                                                          : "no reason given");
            g_hash_table_replace(c->sass_missing, g_strdup(j->name), why);
        }
        g_free(j->cubin);
        g_free(j->name);
        g_free(j->out);
        g_free(j->tmp);
        g_free(j->err);
        g_free(j);
    }
    g_ptr_array_free(jobs, TRUE);
    cap_info_set_string(c, "sass_tool", nvdisasm);
    cap_info_set_string(c, "sass_flags", "-c -gi");
    cap_info_set_int(c, "sass_made", made);
    cap_info_set_int(c, "sass_failed", failed);
}
