/* capture_lr_made.c - register life ranges made for inputs capture did not
 * make (a raw capture folder, a Triton cache): the front ends' half of
 * tk_bundle.h's "life ranges made afterwards".
 *
 * The library says which kernels lack NAME.sass_lr, the nvdisasm
 * arguments and the cache name (the SHA-256 of the cubin); this file finds
 * nvdisasm and runs it, because the library runs no programs.  The file
 * made goes to a cache folder of the user's, never into the input folder
 * (a stranger's bundle is read-only; a raw folder is the user's own data):
 * $XDG_CACHE_HOME/tkview/sass_lr/HASH.sass_lr.  A file already there is
 * used without running anything.
 *
 * Which nvdisasm: Triton's own first (triton/backends/nvidia/bin/, found by
 * asking `python3 -c "import triton"`), since CUDA 13.0's refuses Triton
 * 3.6's cubins ("Disassembling Std Elf to Old format ... Cannot print life
 * ranges", sample_dumps/raw/README.md); then TRITON_NVDISASM_PATH, PATH,
 * CUDA_HOME/bin and /usr/local/cuda/bin.  Each cubin is tried with each
 * tool in that order until one succeeds, as capture does
 * (capture_lr.c).  TKVIEW_NVDISASM, when set, is the only one tried
 * ("none" or empty: none at all): a user's choice, and the tests' fake.
 */
#include "capture.h"

#include <string.h>
#include <unistd.h>

#include "tkdump/tk_input_file.h"

#define LR_MADE_TIMEOUT_S 120.0

/* PY -c "import triton": Triton's backends/nvidia/bin/nvdisasm, or NULL.
 * SCRATCH is a file the answer is written to.  Caller frees. */
static char *tritons_nvdisasm(const char *py, const char *scratch)
{
    char *argv[] = {(char *)py, "-c",
                    "import os, triton; print(os.path.join(os.path.dirname("
                    "triton.__file__), 'backends', 'nvidia', 'bin'))",
                    NULL};
    char *text = NULL, *found = NULL;
    if (cap_tool_run(argv, scratch, 60, NULL) == 0 &&
        (text = tk_input_file_read(scratch, TK_INPUT_FILE_STAGE, NULL, NULL))) {
        g_strstrip(text);
        if (*text && !strchr(text, '\n') && g_path_is_absolute(text)) {
            char *p = g_build_filename(text, "nvdisasm", NULL);
            if (access(p, X_OK) == 0)
                found = p;
            else
                g_free(p);
        }
    }
    g_free(text);
    unlink(scratch);
    return found;
}

static void add_tool(GPtrArray *tools, char *path)
{
    if (!path)
        return;
    for (guint i = 0; i < tools->len; i++)
        if (strcmp(tools->pdata[i], path) == 0) {
            g_free(path);
            return;
        }
    g_ptr_array_add(tools, path);
}

/* Every nvdisasm found, in the order tried (above). */
static GPtrArray *find_tools(const char *scratch)
{
    GPtrArray *tools = g_ptr_array_new_with_free_func(g_free);
    const char *only = g_getenv("TKVIEW_NVDISASM");
    if (only) {
        if (*only && strcmp(only, "none") != 0 && access(only, X_OK) == 0)
            add_tool(tools, g_strdup(only));
        return tools;
    }
    add_tool(tools, tritons_nvdisasm("python3", scratch));
    const char *env = g_getenv("TRITON_NVDISASM_PATH");
    if (env && *env && access(env, X_OK) == 0)
        add_tool(tools, g_strdup(env));
    const char *names[] = {"nvdisasm", NULL};
    const char *cuda_home = g_getenv("CUDA_HOME");
    char *cuda_bin = cuda_home ? g_build_filename(cuda_home, "bin", NULL) : g_strdup("");
    const char *dirs[] = {cuda_bin, "/usr/local/cuda/bin", NULL};
    add_tool(tools, cap_tool_find(names, NULL));
    for (size_t i = 0; i < 2; i++) {
        char *p = *dirs[i] ? g_build_filename(dirs[i], "nvdisasm", NULL) : NULL;
        if (p && access(p, X_OK) == 0)
            add_tool(tools, p);
        else
            g_free(p);
    }
    g_free(cuda_bin);
    return tools;
}

char *cap_lr_cache_dir(void)
{
    return g_build_filename(g_get_user_cache_dir(), "tkview", "sass_lr", NULL);
}

/* Runs the tools on kernel I's cubin into CACHE/NAME; returns the tool
 * that made it, or NULL with *WHY (caller frees) the last refusal. */
static const char *make_one(tk_bundle *b, size_t i, GPtrArray *tools,
                            const char *path, char **why)
{
    char *tmp = g_strdup_printf("%s.%d.tmp", path, (int)getpid());
    const char *args[8];
    size_t n = tk_bundle_life_ranges_args(tk_bundle_kernel_cubin(b, i), args, 8);
    for (guint t = 0; t < tools->len; t++) {
        char *argv[8] = {tools->pdata[t]};
        for (size_t a = 0; a < n; a++)
            argv[a + 1] = (char *)args[a];
        argv[n + 1] = NULL;
        char *err = NULL;
        if (cap_tool_run(argv, tmp, LR_MADE_TIMEOUT_S, &err) == 0 &&
            rename(tmp, path) == 0) {
            g_free(err);
            g_free(tmp);
            return tools->pdata[t];
        }
        unlink(tmp);
        g_free(*why);
        *why = g_strdup_printf("%s: %s", (char *)tools->pdata[t],
                               err && *err ? g_strstrip(err) : "failed");
        g_free(err);
    }
    g_free(tmp);
    return NULL;
}

/* A scratch file for Python's answer (caller frees; unlink it). */
static char *scratch_file(void)
{
    char *path = NULL;
    int fd = g_file_open_tmp("tkview-triton-XXXXXX.txt", &path, NULL);
    if (fd < 0)
        return NULL;
    close(fd);
    return path;
}

void cap_lr_made_for_bundle(tk_bundle *b, cap_lr_made *out)
{
    memset(out, 0, sizeof *out);
    GPtrArray *tools = NULL;
    char *cache = cap_lr_cache_dir();
    gboolean made_dir = FALSE;
    for (size_t i = 0; i < tk_bundle_kernel_count(b); i++) {
        if (!tk_bundle_kernel_lacks_life_ranges(b, i))
            continue;
        char *name = tk_bundle_kernel_life_ranges_name(b, i, NULL);
        if (!name)
            continue;
        char *path = g_build_filename(cache, name, NULL);
        free(name);
        if (g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
            tk_bundle_kernel_set_life_ranges(b, i, path);
            out->cached++;
            if (!out->cache)
                out->cache = g_strdup(cache);
            g_free(path);
            continue;
        }
        if (!tools) {
            char *scratch = scratch_file();
            tools = scratch ? find_tools(scratch) : g_ptr_array_new();
            if (scratch)
                unlink(scratch);
            g_free(scratch);
        }
        if (!tools->len) {
            out->no_tool++;
            g_free(path);
            continue;
        }
        if (!made_dir && g_mkdir_with_parents(cache, 0700) != 0) {
            if (!out->why)
                out->why = g_strdup_printf("cannot make the cache folder %s", cache);
            out->failed++;
            g_free(path);
            continue;
        }
        made_dir = TRUE;
        if (!out->cache)
            out->cache = g_strdup(cache);
        char *why = NULL;
        const char *tool = make_one(b, i, tools, path, &why);
        if (tool) {
            tk_bundle_kernel_set_life_ranges(b, i, path);
            out->made++;
            if (!out->tool)
                out->tool = g_strdup(tool);
        } else {
            out->failed++;
            if (!out->why) {
                out->why = why;
                why = NULL;
            }
        }
        g_free(why);
        g_free(path);
    }
    if (tools)
        g_ptr_array_unref(tools);
    g_free(cache);
}

void cap_lr_made_clear(cap_lr_made *m)
{
    g_free(m->cache);
    g_free(m->tool);
    g_free(m->why);
    memset(m, 0, sizeof *m);
}
