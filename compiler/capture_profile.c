/* capture_profile.c - `tkview capture --profile`: the program runs under
 * Nsight Compute, and each profiled kernel's samples per SASS instruction
 * go into the bundle with its stages.
 *
 * The program is started as
 *
 *   ncu --set none --section SourceCounters --section WarpStateStats
 *       --kernel-id :::1 -o WORK/run/profile -f [--ncu-arg ...] PROGRAM ARGS
 *
 * SourceCounters is the section with the per-instruction counters (warp
 * stall sampling by reason, instructions executed); WarpStateStats its
 * kernel-wide summary.  "--kernel-id :::1" profiles the first launch of
 * every kernel (context, stream and name left open, invocation 1), or of
 * --kernel NAME only ("::NAME:1"): one profile per kernel, and a program
 * that launches a kernel a thousand times is not replayed a thousand
 * times.  Once the program has ended, ncu's own command line exports the
 * report's source page (never tkview reading the binary report):
 *
 *   ncu --import WORK/run/profile.ncu-rep --page source --csv
 *       --print-source sass > WORK/run/profile_source.csv
 *
 * and after the bundle is written, each kernel section of the export is
 * matched to the kernel whose SASS it is and saved as its profile (the
 * sections of kernels the bundle does not hold, PyTorch's, are left out)
 * (tk_ncu_export_match(), tk_profile_save()), exactly as `tkview profile
 * import` does with an export made elsewhere.  The manifest's
 * capture.profile says what happened (docs/capture.md).
 */
#include "capture.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tkdump/tk_bundle.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_profile.h"

#define EXPORT_TIMEOUT_S 600.0

char *cap_find_ncu(const char *given)
{
    if (given)
        return access(given, X_OK) == 0 ? g_strdup(given) : NULL;
    const char *cuda_home = g_getenv("CUDA_HOME");
    char *cuda_bin = cuda_home ? g_build_filename(cuda_home, "bin", NULL)
                               : g_strdup("");
    const char *names[] = {"ncu", NULL};
    const char *dirs[] = {cuda_bin, "/usr/local/cuda/bin", NULL};
    char *found = cap_tool_find(names, dirs);
    g_free(cuda_bin);
    return found;
}

char **cap_profile_argv(cap_capture *c, const char *ncu,
                               const char *kernel, char **extra,
                               char **program)
{
    GPtrArray *a = g_ptr_array_new();
    c->profile_report = g_build_filename(c->run, "profile.ncu-rep", NULL);
    char *out = g_build_filename(c->run, "profile", NULL);
    char *id = kernel ? g_strdup_printf("::%s:1", kernel) : g_strdup(":::1");
    const char *fixed[] = {ncu, "--set", "none", "--section", "SourceCounters",
                           "--section", "WarpStateStats", "--kernel-id", id,
                           "-o", out, "-f"};
    for (size_t i = 0; i < G_N_ELEMENTS(fixed); i++)
        g_ptr_array_add(a, g_strdup(fixed[i]));
    for (size_t i = 0; extra && extra[i]; i++)
        g_ptr_array_add(a, g_strdup(extra[i]));
    for (size_t i = 0; program[i]; i++)
        g_ptr_array_add(a, g_strdup(program[i]));
    g_ptr_array_add(a, NULL);
    g_free(id);
    g_free(out);
    char **argv = (char **)g_ptr_array_free(a, FALSE);
    JsonObject *p = json_object_new();
    json_object_set_string_member(p, "tool", "ncu");
    json_object_set_string_member(p, "ncu", ncu);
    JsonArray *cmd = json_array_new();
    for (size_t i = 0; argv[i]; i++) {
        char *valid = g_utf8_make_valid(argv[i], -1);
        json_array_add_string_element(cmd, valid);
        g_free(valid);
    }
    json_object_set_array_member(p, "command", cmd);
    json_object_set_object_member(c->info, "profile", p);
    c->ncu = g_strdup(ncu);
    return argv;
}

static JsonObject *profile_info(cap_capture *c)
{
    JsonNode *n = json_object_get_member(c->info, "profile");
    return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

/* Records why there is no profile: in the manifest and on stderr. */
static void no_profile(cap_capture *c, const char *why)
{
    JsonObject *p = profile_info(c);
    if (p)
        json_object_set_string_member(p, "error", why);
    fprintf(stderr, "tkview: no profile: %s\n", why);
    c->profile_failed = TRUE;
}

void cap_profile_export(cap_capture *c)
{
    struct stat st;
    if (stat(c->profile_report, &st) != 0 || !S_ISREG(st.st_mode)) {
        no_profile(c, "ncu wrote no report (its messages above say why: "
                      "no kernel launched, or no permission to read the GPU's "
                      "performance counters)");
        return;
    }
    c->profile_csv = g_build_filename(c->run, "profile_source.csv", NULL);
    char *argv[] = {c->ncu, "--import", c->profile_report, "--page", "source",
                    "--csv", "--print-source", "sass", NULL};
    char *err = NULL;
    if (cap_tool_run(argv, c->profile_csv, EXPORT_TIMEOUT_S, &err) != 0) {
        char *why = g_strdup_printf("ncu could not export the report's source "
                                    "page: %s",
                                    err && *err ? err : "no reason given");
        no_profile(c, why);
        g_free(why);
        g_free(c->profile_csv);
        c->profile_csv = NULL;
    }
    g_free(err);
}

void cap_profile_import(cap_capture *c, const char *built)
{
    JsonObject *info = profile_info(c);
    if (!c->profile_csv || !info)
        return;
    tk_diags *d = tk_diags_new();
    tk_bundle *b = tk_bundle_load(built, NULL, d);
    tk_ncu_export *x = b ? tk_ncu_export_read(c->profile_csv, d) : NULL;
    JsonArray *done = json_array_new();
    size_t sections = x ? tk_ncu_export_count(x) : 0, imported = 0, others = 0;
    for (size_t i = 0; i < sections; i++) {
        /* PyTorch's own kernels were profiled too: not the bundle's */
        if (tk_ncu_export_candidates(x, i, b) == 0) {
            others++;
            continue;
        }
        const tk_kernel *k = NULL;
        tk_profile *p = tk_ncu_export_match(x, i, b, NULL, &k, d);
        char *rel = NULL;
        if (p && tk_profile_save(p, b, k, 0, &rel, d) == 0) {
            JsonObject *o = json_object_new();
            json_object_set_string_member(o, "name", tk_kernel_name(k));
            json_object_set_string_member(o, "hash", tk_kernel_hash(k));
            json_object_set_int_member(o, "instructions",
                                       (gint64)tk_profile_row_count(p));
            json_object_set_string_member(o, "file", rel);
            json_array_add_object_element(done, o);
            imported++;
        }
        g_free(rel);
        tk_profile_free(p);
    }
    json_object_set_int_member(info, "sections", (gint64)sections);
    json_object_set_int_member(info, "other_kernels", (gint64)others);
    json_object_set_array_member(info, "kernels", done);
    /* What went wrong, in the manifest and on stderr. */
    for (size_t i = 0; i < tk_diags_count(d); i++) {
        const tk_diag *g = tk_diags_get(d, i);
        if (g->severity < TK_DIAG_WARNING)
            continue;
        if (!c->quiet || g->severity == TK_DIAG_ERROR)
            fprintf(stderr, "tkview: %s: %s\n", g->file, g->message);
    }
    if (!x || imported == 0) {
        const tk_diag *first = NULL;
        for (size_t i = 0; i < tk_diags_count(d) && !first; i++)
            if (tk_diags_get(d, i)->severity == TK_DIAG_ERROR)
                first = tk_diags_get(d, i);
        no_profile(c, first ? first->message
                     : sections ? "no profiled kernel is one of the bundle's (only "
                                  "other programs' kernels were profiled)"
                                : "the export holds no kernel section");
    } else if (!c->quiet) {
        fprintf(stderr, "tkview: profile: %zu kernel%s of the bundle profiled "
                        "(tkview hot shows the lines)%s\n",
                imported, imported == 1 ? "" : "s",
                others ? "; other kernels profiled with them are left out" : "");
    }
    tk_ncu_export_free(x);
    tk_bundle_free(b);
    tk_diags_free(d);
}
