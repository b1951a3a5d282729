/* cli_life_ranges.c - live registers for inputs capture did not make: the
 * commands that show them (info, hot --metric live_registers, bind) have
 * nvdisasm make the NAME.sass_lr a kernel lacks, into tkview's cache
 * (compiler/capture_lr_made.c says where and with which nvdisasm), and
 * say what they did, or plainly that no nvdisasm was found. */
#include "cli.h"

#include "capture.h"

void cli_life_ranges(tk_bundle *b, gboolean quiet)
{
    cap_lr_made m;
    cap_lr_made_for_bundle(b, &m);
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
    if (!quiet && !m.made && !m.failed && !m.no_tool && m.why)
        cli_error("%s", m.why);
    cap_lr_made_clear(&m);
}
