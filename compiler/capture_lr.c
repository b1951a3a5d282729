/* capture_lr.c - register life ranges for every captured cubin.
 *
 * `nvdisasm --print-life-ranges --life-range-mode count -c NAME.cubin`
 * prints, after every SASS instruction, how many general, predicate and
 * uniform registers are live there; it is written beside the cubin as
 * NAME.sass_lr, where the loader finds it (tk_cost.h: the live register
 * metrics).  Not every nvdisasm can: CUDA 13.0's refuses Triton 3.6's
 * cubins ("Disassembling Std Elf to Old format or Old Elf to Std format not
 * supported yet ... Cannot print life ranges as flow analysis is
 * disabled"), while the CUDA 12.8 nvdisasm Triton ships in
 * backends/nvidia/bin does them all (sample_dumps/raw/README.md).  So the
 * tools are tried in the caller's order (Triton's first), each cubin by
 * the first that succeeds, and every refusal is recorded in the manifest.
 */
#include "capture.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tkdump/tk_input_file.h"

#define LR_TIMEOUT_S 120.0
#define LR_REFUSALS_MAX 8

/* One cubin: each tool tried in order until one makes its file
 * (capture_jobs.c runs them on the machine's cores, each distinct cubin
 * once); outcomes are taken in folder order, so the manifest says what it
 * said when they ran one by one. */
typedef struct {
    cap_job job;
    const char *const *tools;
    int made_by;      /* index in tools, -1: none */
    GPtrArray *why;   /* per tool tried and refused: its complaint (g_free) */
} lr_job;

/* The first 300 bytes of ERR on one line. */
static char *one_line(const char *err)
{
    char *s = g_strndup(err && *err ? err : "no reason given", 300);
    for (char *p = s; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
    return g_strstrip(s);
}

static void lr_job_run(cap_job *base)
{
    lr_job *j = (lr_job *)base;
    char *tmp = g_strconcat(base->out, ".tmp", NULL);
    j->made_by = -1;
    for (size_t t = 0; j->tools[t] && j->made_by < 0; t++) {
        char *argv[] = {(char *)j->tools[t], "--print-life-ranges",
                        "--life-range-mode", "count", "-c", base->cubin, NULL};
        char *err = NULL;
        if (cap_tool_run_beside(argv, tmp, LR_TIMEOUT_S, base->beside, &err) == 0 &&
            rename(tmp, base->out) == 0) {
            j->made_by = (int)t;
        } else {
            unlink(tmp);
            char *why = one_line(err);
            g_ptr_array_add(j->why, g_strdup_printf("%s: %s", j->tools[t], why));
            g_free(why);
        }
        g_free(err);
    }
    base->rc = j->made_by >= 0 ? 0 : -1;
    g_free(tmp);
}

/* The same bytes, the same tools: the same answers (the refusals name the
 * leader's cubin, as the tool would have named this one's). */
static void lr_job_adopt(cap_job *base, const cap_job *leader)
{
    lr_job *j = (lr_job *)base;
    const lr_job *l = (const lr_job *)leader;
    j->made_by = base->rc == 0 ? l->made_by : -1;
    for (guint i = 0; i < l->why->len; i++)
        g_ptr_array_add(j->why, cap_job_retell(base, leader,
                                               g_ptr_array_index(l->why, i)));
}

static void lr_job_destroy(cap_job *base)
{
    lr_job *j = (lr_job *)base;
    cap_job_clear(base);
    g_ptr_array_free(j->why, TRUE);
    g_free(j);
}

cap_job *cap_lr_job_new(const char *const *tools, const char *cubin,
                        const char *out)
{
    lr_job *j = g_new0(lr_job, 1);
    cap_job_init(&j->job, "lr", cubin, out, lr_job_run, lr_job_adopt);
    j->job.destroy = lr_job_destroy;
    j->tools = tools;
    j->why = g_ptr_array_new_with_free_func(g_free);
    return &j->job;
}

static void lr_for_folder(GPtrArray *jobs, const char *const *tools,
                          const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    for (const char *e; d && (e = g_dir_read_name(d));) {
        if (!g_str_has_suffix(e, ".cubin") || e[0] == '.')
            continue;
        char *cubin = g_build_filename(dir, e, NULL);
        struct stat st;
        if (lstat(cubin, &st) == 0 && S_ISREG(st.st_mode)) {
            char *base = g_strndup(cubin, strlen(cubin) - strlen(".cubin"));
            char *out = g_strconcat(base, ".sass_lr", NULL);
            g_ptr_array_add(jobs, cap_lr_job_new(tools, cubin, out));
            g_free(out);
            g_free(base);
        }
        g_free(cubin);
    }
    if (d)
        g_dir_close(d);
}

typedef struct {
    GPtrArray *jobs;
    const char *const *tools;
} lr_plan;

static void plan_folder(const char *folder, void *user)
{
    lr_plan *p = user;
    lr_for_folder(p->jobs, p->tools, folder);
}

GPtrArray *cap_lr_plan(const char *const *tools, const char *const *dirs)
{
    lr_plan p = {g_ptr_array_new(), tools};
    if (tools && tools[0])
        cap_each_kernel_folder(dirs, plan_folder, &p);
    return p.jobs;
}

/* The last non-empty line of `TOOL --version` ("Build cuda_12.8.r12.8/
 * compiler.35351055_0"), or NULL.  Caller frees. */
static char *tool_version(cap_capture *c, const char *tool)
{
    char *out = g_build_filename(c->work, "nvdisasm-version.txt", NULL);
    char *argv[] = {(char *)tool, "--version", NULL};
    char *text = NULL, *v = NULL;
    if (cap_tool_run(argv, out, 30, NULL) == 0 &&
        (text = tk_input_file_read(out, TK_INPUT_FILE_STAGE, NULL, NULL))) {
        gchar **lines = g_strsplit(text, "\n", -1);
        for (gchar **l = lines; *l; l++)
            if (*g_strstrip(*l)) {
                g_free(v);
                v = g_strdup(*l);
            }
        g_strfreev(lines);
    }
    g_free(text);
    unlink(out);
    g_free(out);
    return v;
}

void cap_lr_record(cap_capture *c, const char *const *tools, GPtrArray *jobs,
                   const char *why_missing)
{
    if (!tools || !tools[0]) {
        cap_info_set_string(c, "life_ranges_missing", why_missing);
        g_ptr_array_free(jobs, TRUE);
        return;
    }
    size_t ntools = g_strv_length((char **)tools);
    unsigned *used = g_new0(unsigned, ntools);
    unsigned made = 0, failed = 0;
    JsonArray *refusals = json_array_new();
    GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
    for (guint i = 0; i < jobs->len; i++) {
        lr_job *j = g_ptr_array_index(jobs, i);
        for (guint w = 0; w < j->why->len; w++) {
            const char *line = g_ptr_array_index(j->why, w);
            if (!g_hash_table_contains(seen, line) &&
                json_array_get_length(refusals) < LR_REFUSALS_MAX) {
                json_array_add_string_element(refusals, line);
                g_hash_table_add(seen, (gpointer)line);
            }
        }
        if (j->made_by >= 0) {
            made++;
            used[j->made_by]++;
        } else {
            failed++;
        }
    }
    /* The tool that made the most (the first in order on a tie). */
    const char *best = NULL;
    unsigned most = 0;
    for (size_t t = 0; t < ntools; t++)
        if (used[t] > most) {
            most = used[t];
            best = tools[t];
        }
    cap_info_set_string(c, "life_ranges_tool", best);
    if (best) {
        char *v = tool_version(c, best);
        cap_info_set_string(c, "life_ranges_tool_version", v);
        g_free(v);
    }
    cap_info_set_string(c, "life_ranges_flags",
                               "--print-life-ranges --life-range-mode count -c");
    cap_info_set_int(c, "life_ranges_made", made);
    cap_info_set_int(c, "life_ranges_failed", failed);
    if (json_array_get_length(refusals))
        json_object_set_array_member(c->info, "life_ranges_refused",
                                     json_array_ref(refusals));
    json_array_unref(refusals);
    g_hash_table_destroy(seen); /* its keys are the jobs' */
    for (guint i = 0; i < jobs->len; i++) {
        cap_job *j = g_ptr_array_index(jobs, i);
        j->destroy(j);
    }
    g_ptr_array_free(jobs, TRUE);
    g_free(used);
}

void cap_make_life_ranges(cap_capture *c, const char *const *tools,
                          const char *const *dirs, const char *why_missing)
{
    GPtrArray *jobs = cap_lr_plan(tools, dirs);
    cap_jobs_run(jobs, NULL);
    cap_lr_record(c, tools, jobs, why_missing);
}
