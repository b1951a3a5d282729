/* cli_life_ranges.c - live registers for inputs capture did not make: the
 * commands that show them (info, hot --metric live_registers, bind) have
 * the library make the NAME.sass_lr a kernel lacks (tk_bundle.h: which
 * nvdisasm, where the file goes), running the programs it asks for with
 * capture's runner, and say what was done, or plainly that no nvdisasm was
 * found. */
#include "cli.h"
#include "tkdump/tk_life_ranges.h"

#include <stdlib.h>

#include "capture.h"

#define LR_RUN_TIMEOUT_S 120.0

static int run(const char *const *argv, const char *stdout_path, char **err,
               void *user)
{
    (void)user;
    char *e = NULL;
    int rc = cap_tool_run((char **)argv, stdout_path, LR_RUN_TIMEOUT_S, &e);
    *err = e ? strdup(e) : NULL;
    g_free(e);
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
