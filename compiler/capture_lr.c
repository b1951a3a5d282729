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

typedef struct {
    cap_capture *c;
    const char *const *tools;
    unsigned made, failed;
    GHashTable *used;     /* tool -> count of cubins it made */
    JsonArray *refusals;  /* "TOOL: its first line of complaint", distinct */
    GHashTable *seen;
} lr_run;

/* The first 300 bytes of ERR on one line. */
static char *one_line(const char *err)
{
    char *s = g_strndup(err && *err ? err : "no reason given", 300);
    for (char *p = s; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
    return g_strstrip(s);
}

static void lr_for_cubin(lr_run *r, const char *cubin)
{
    char *base = g_strndup(cubin, strlen(cubin) - strlen(".cubin"));
    char *out = g_strconcat(base, ".sass_lr", NULL);
    char *tmp = g_strconcat(base, ".sass_lr.tmp", NULL);
    gboolean ok = FALSE;
    for (size_t t = 0; r->tools[t] && !ok; t++) {
        char *argv[] = {(char *)r->tools[t], "--print-life-ranges",
                        "--life-range-mode", "count", "-c", (char *)cubin,
                        NULL};
        char *err = NULL;
        if (cap_tool_run(argv, tmp, LR_TIMEOUT_S, &err) == 0 &&
            rename(tmp, out) == 0) {
            ok = TRUE;
            gpointer n = g_hash_table_lookup(r->used, r->tools[t]);
            g_hash_table_replace(r->used, (gpointer)r->tools[t],
                                 GUINT_TO_POINTER(GPOINTER_TO_UINT(n) + 1));
        } else {
            unlink(tmp);
            char *why = one_line(err);
            char *line = g_strdup_printf("%s: %s", r->tools[t], why);
            if (!g_hash_table_contains(r->seen, line) &&
                json_array_get_length(r->refusals) < LR_REFUSALS_MAX) {
                json_array_add_string_element(r->refusals, line);
                g_hash_table_add(r->seen, g_strdup(line));
            }
            g_free(line);
            g_free(why);
        }
        g_free(err);
    }
    if (ok)
        r->made++;
    else
        r->failed++;
    g_free(base);
    g_free(out);
    g_free(tmp);
}

static void lr_for_folder(lr_run *r, const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    for (const char *e; d && (e = g_dir_read_name(d));) {
        if (!g_str_has_suffix(e, ".cubin") || e[0] == '.')
            continue;
        char *cubin = g_build_filename(dir, e, NULL);
        struct stat st;
        if (lstat(cubin, &st) == 0 && S_ISREG(st.st_mode))
            lr_for_cubin(r, cubin);
        g_free(cubin);
    }
    if (d)
        g_dir_close(d);
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

void cap_make_life_ranges(cap_capture *c, const char *const *tools,
                                 const char *const *dirs,
                                 const char *why_missing)
{
    if (!tools || !tools[0]) {
        cap_info_set_string(c, "life_ranges_missing", why_missing);
        return;
    }
    lr_run r = {c, tools, 0, 0, g_hash_table_new(g_str_hash, g_str_equal),
                json_array_new(),
                g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL)};
    for (size_t i = 0; dirs && dirs[i]; i++) {
        GDir *d = g_dir_open(dirs[i], 0, NULL);
        for (const char *e; d && (e = g_dir_read_name(d));) {
            char *sub = g_build_filename(dirs[i], e, NULL);
            struct stat st;
            if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
                lr_for_folder(&r, sub);
            g_free(sub);
        }
        if (d)
            g_dir_close(d);
    }
    /* The tool that made the most (the first in order on a tie). */
    const char *best = NULL;
    unsigned most = 0;
    for (size_t t = 0; tools[t]; t++) {
        unsigned n = GPOINTER_TO_UINT(g_hash_table_lookup(r.used, tools[t]));
        if (n > most) {
            most = n;
            best = tools[t];
        }
    }
    cap_info_set_string(c, "life_ranges_tool", best);
    if (best) {
        char *v = tool_version(c, best);
        cap_info_set_string(c, "life_ranges_tool_version", v);
        g_free(v);
    }
    cap_info_set_string(c, "life_ranges_flags",
                               "--print-life-ranges --life-range-mode count -c");
    cap_info_set_int(c, "life_ranges_made", r.made);
    cap_info_set_int(c, "life_ranges_failed", r.failed);
    if (json_array_get_length(r.refusals))
        json_object_set_array_member(c->info, "life_ranges_refused",
                                     json_array_ref(r.refusals));
    json_array_unref(r.refusals);
    g_hash_table_destroy(r.used);
    g_hash_table_destroy(r.seen);
}
