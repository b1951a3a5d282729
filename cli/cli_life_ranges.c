/* cli_life_ranges.c - live registers for inputs capture did not make: the
 * commands that show them (info, hot --metric live_registers, bind) have
 * the library make the NAME.sass_lr a kernel lacks (tk_bundle.h: which
 * nvdisasm, where the file goes), running the programs it asks for with
 * capture's runner, and say what was done, or plainly that no nvdisasm was
 * found. */
#include "cli.h"
#include "tkdump/tk_life_ranges.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "capture.h"

#define LR_RUN_TIMEOUT_S 120.0

/* A question asked of Python (`python3 -c ...`: where Triton's nvdisasm
 * is) costs a Python start and Triton's import, 0.1-2 s, far more than
 * the command; on a machine without nvdisasm nothing is cached for the
 * kernels, so it was asked again by every info and bind.  Its answer is
 * kept for LR_MEMO_S in the user's cache folder, under the SHA-256 of the
 * question, the folder it runs in and what picks the Python (PATH and
 * the Python variables): a new venv or PATH asks again at once. */
#define LR_MEMO_S 3600

static const char *const memo_env[] = {
    "PATH", "VIRTUAL_ENV", "CONDA_PREFIX", "PYTHONPATH", "PYTHONHOME",
    "PYTHONUSERBASE", "PYENV_VERSION", NULL,
};

static char *memo_path(const char *const *argv)
{
    GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
    for (size_t i = 0; argv[i]; i++)
        g_checksum_update(sum, (const guchar *)argv[i], (gssize)strlen(argv[i]) + 1);
    for (size_t i = 0; memo_env[i]; i++) {
        const char *v = g_getenv(memo_env[i]);
        g_checksum_update(sum, (const guchar *)memo_env[i], -1);
        g_checksum_update(sum, (const guchar *)(v ? v : ""), (gssize)(v ? strlen(v) : 0) + 1);
    }
    char *cwd = g_get_current_dir();
    g_checksum_update(sum, (const guchar *)cwd, -1);
    g_free(cwd);
    char *name = g_strconcat(g_checksum_get_string(sum), ".txt", NULL);
    char *path = g_build_filename(g_get_user_cache_dir(), "tkview", "python", name, NULL);
    g_free(name);
    g_checksum_free(sum);
    return path;
}

/* The kept answer ("RC\nSTDOUT") written to STDOUT_PATH; its RC, or -1
 * when none is kept or it is older than LR_MEMO_S. */
static int memo_read(const char *memo, const char *stdout_path)
{
    GStatBuf st;
    if (g_stat(memo, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > 65536 ||
        (double)(time(NULL) - st.st_mtime) > LR_MEMO_S || st.st_mtime > time(NULL))
        return -1;
    char *text = NULL;
    gsize len = 0;
    int rc = -1;
    if (g_file_get_contents(memo, &text, &len, NULL)) {
        char *nl = memchr(text, '\n', len);
        char *end;
        long v = nl ? strtol(text, &end, 10) : -1;
        if (nl && end == nl && (v == 0 || v == 1) &&
            g_file_set_contents(stdout_path, nl + 1, (gssize)(len - (gsize)(nl + 1 - text)),
                                NULL))
            rc = (int)v;
    }
    g_free(text);
    return rc;
}

/* Keeps RC (0, or 1 for any failure) and, when 0, what it printed. */
static void memo_write(const char *memo, int rc, const char *stdout_path)
{
    char *out = NULL;
    gsize len = 0;
    if (rc == 0 && (!g_file_get_contents(stdout_path, &out, &len, NULL) || len > 60000)) {
        g_free(out);
        return;
    }
    char *dir = g_path_get_dirname(memo);
    if (g_mkdir_with_parents(dir, 0700) == 0) {
        GString *g = g_string_new(rc == 0 ? "0\n" : "1\n");
        if (out)
            g_string_append_len(g, out, (gssize)len);
        g_file_set_contents(memo, g->str, (gssize)g->len, NULL); /* atomic */
        g_string_free(g, TRUE);
    }
    g_free(dir);
    g_free(out);
}

static int run(const char *const *argv, const char *stdout_path, char **err,
               void *user)
{
    (void)user;
    gboolean ask = argv[0] && argv[1] && strcmp(argv[1], "-c") == 0;
    char *memo = ask ? memo_path(argv) : NULL;
    int rc = memo ? memo_read(memo, stdout_path) : -1;
    if (rc >= 0) {
        *err = NULL;
        g_free(memo);
        return rc;
    }
    char *e = NULL;
    rc = cap_tool_run((char **)argv, stdout_path, LR_RUN_TIMEOUT_S, &e);
    *err = e ? strdup(e) : NULL;
    g_free(e);
    if (memo)
        memo_write(memo, rc, stdout_path);
    g_free(memo);
    return rc;
}

void cli_life_ranges(tk_bundle *b, gboolean quiet)
{
    tk_life_ranges_made m;
    tk_bundle_make_life_ranges(b, run, NULL, &m);
    if (!quiet && m.made)
        cli_error("made the register life ranges of %u kernel%s with %s "
                  "(nvdisasm --print-life-ranges), kept in %s",
                  m.made, m.made == 1 ? "" : "s", m.tool, m.cache);
    if (!quiet && m.no_tool)
        cli_error("%u kernel%s no NAME.sass_lr and no nvdisasm was found "
                  "(looked at TKVIEW_NVDISASM, else Triton's backends/nvidia/bin "
                  "through python3, TRITON_NVDISASM_PATH, PATH, CUDA_HOME/bin "
                  "and /usr/local/cuda/bin): live registers unknown there",
                  m.no_tool, m.no_tool == 1 ? " has" : "s have");
    if (!quiet && m.failed)
        cli_error("nvdisasm could not make the register life ranges of %u "
                  "kernel%s: %s", m.failed, m.failed == 1 ? "" : "s",
                  m.why ? m.why : "no reason given");
    tk_life_ranges_made_clear(&m);
}
