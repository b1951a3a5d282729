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

/* One cubin to disassemble (capture_jobs.c runs them on the machine's
 * cores, each distinct cubin once: 37 of them one after another were
 * seconds of the capture's own time, issue 25). */
typedef struct {
    cap_job job;
    char *name, *tmp;
    const char *nvdisasm;
    char *err; /* cap_tool_run()'s reason */
} sass_job;

static void sass_job_run(cap_job *base)
{
    sass_job *j = (sass_job *)base;
    char *argv[] = {(char *)j->nvdisasm, "-c", "-gi", base->cubin, NULL};
    base->rc = cap_tool_run_beside(argv, j->tmp, NVDISASM_TIMEOUT_S,
                                   base->beside, &j->err) == 0 &&
                       rename(j->tmp, base->out) == 0
                   ? 0
                   : -1;
    if (base->rc != 0)
        unlink(j->tmp);
}

static void sass_job_adopt(cap_job *base, const cap_job *leader)
{
    sass_job *j = (sass_job *)base;
    j->err = cap_job_retell(base, leader, ((const sass_job *)leader)->err);
}

static void sass_job_destroy(cap_job *base)
{
    sass_job *j = (sass_job *)base;
    cap_job_clear(base);
    g_free(j->name);
    g_free(j->tmp);
    g_free(j->err);
    g_free(j);
}

cap_job *cap_sass_job_new(const char *nvdisasm, const char *cubin, const char *out)
{
    sass_job *j = g_new0(sass_job, 1);
    cap_job_init(&j->job, "sass", cubin, out, sass_job_run, sass_job_adopt);
    j->job.destroy = sass_job_destroy;
    char *base = g_path_get_basename(cubin);
    j->name = g_strndup(base, strlen(base) - MIN(strlen(base), strlen(".cubin")));
    g_free(base);
    j->tmp = g_strconcat(out, ".tmp", NULL);
    j->nvdisasm = nvdisasm;
    return &j->job;
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
        char *base = g_strndup(cubin, strlen(cubin) - strlen(".cubin"));
        char *out = g_strconcat(base, ".sass_gi", NULL);
        cap_job *j = cap_sass_job_new(nvdisasm, cubin, out);
        g_free(out);
        g_free(base);
        g_free(cubin);
        g_ptr_array_add(jobs, j);
    }
    if (d)
        g_dir_close(d);
}

typedef struct {
    GPtrArray *jobs;
    const char *nvdisasm;
} sass_plan;

static void plan_folder(const char *folder, void *user)
{
    sass_plan *p = user;
    sass_for_folder(p->nvdisasm, folder, p->jobs);
}

GPtrArray *cap_sass_plan(const char *nvdisasm, const char *const *dirs)
{
    sass_plan p = {g_ptr_array_new(), nvdisasm};
    if (nvdisasm)
        cap_each_kernel_folder(dirs, plan_folder, &p);
    return p.jobs;
}

void cap_sass_record(cap_capture *c, const char *nvdisasm, GPtrArray *jobs,
                     const char *why_missing)
{
    if (!nvdisasm) {
        g_free(c->sass_missing_all);
        c->sass_missing_all = g_strdup(why_missing);
        cap_info_set_string(c, "sass_tool", NULL);
        cap_info_set_string(c, "sass_missing", why_missing);
    }
    unsigned made = 0, failed = 0;
    for (guint i = 0; i < jobs->len; i++) {
        sass_job *j = g_ptr_array_index(jobs, i);
        if (j->job.rc == 0) {
            made++;
        } else {
            failed++;
            const char *cubin_name = strrchr(j->job.cubin, '/');
            cubin_name = cubin_name ? cubin_name + 1 : j->job.cubin;
            char *why = g_strdup_printf("nvdisasm failed on %s: %s", cubin_name,
                                        j->err && *j->err ? j->err
                                                          : "no reason given");
            g_hash_table_replace(c->sass_missing, g_strdup(j->name), why);
        }
        j->job.destroy(&j->job);
    }
    g_ptr_array_free(jobs, TRUE);
    if (!nvdisasm)
        return;
    cap_info_set_string(c, "sass_tool", nvdisasm);
    cap_info_set_string(c, "sass_flags", "-c -gi");
    cap_info_set_int(c, "sass_made", made);
    cap_info_set_int(c, "sass_failed", failed);
}

void cap_make_sass(cap_capture *c, const char *nvdisasm,
                   const char *const *dirs, const char *why_missing)
{
    GPtrArray *jobs = cap_sass_plan(nvdisasm, dirs);
    cap_jobs_run(jobs, NULL);
    cap_sass_record(c, nvdisasm, jobs, why_missing);
}
