/* tkview.c - the tkview program: subcommand dispatch, --help, --version. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tkdump/tk_staged_dir.h"
#include "tkview-config.h"

static const char usage[] =
    "Usage: tkview COMMAND [OPTIONS] PATH ...\n"
    "       tkview [--source-dir DIR] [PATH]   the desktop viewer\n"
    "\n"
    "Shows what each line of a Triton kernel became at every compiler stage\n"
    "(TTIR, TTGIR, LLVM IR, PTX, SASS).  PATH is a tkview bundle, a capture\n"
    "folder, a Triton cache or TRITON_DUMP_DIR folder, or loose stage files.\n"
    "\n"
    "Commands:\n"
    "  info PATH [--json]                      kernels, stages, metadata, counts\n"
    "  bind PATH --source FILE:LINE [--kernel K] [--stage S] [--exact] [--json]\n"
    "           [--shared]\n"
    "                                          the IR lines a source line became\n"
    "  bind PATH --ir STAGE:LINE [--kernel K] [--json]\n"
    "                                          an IR line's inline stack and its\n"
    "                                          lines in the other stages\n"
    "  refs PATH [--kernel K] [--stage S] [--json]\n"
    "                                          the source lines each stage has\n"
    "                                          code for\n"
    "  diagnostics PATH [--kernel K] [--json]  what the compiler said (remarks,\n"
    "                                          ptxas's log, errors), each on its\n"
    "                                          source line, IR line and pass\n"
    "  check PATH RULES [--json] [--junit FILE]\n"
    "                                          check rules about what source lines\n"
    "                                          compiled to (exit 1 when one fails)\n"
    "  check PATH --write-baseline RULES       write RULES pinning today's facts\n"
    "  bundle PATH -o OUTDIR                   write a self-contained bundle of\n"
    "                                          PATH (stages, metadata, sources)\n"
    "  passes PATH [--kernel K] [--changed-only] [--json]\n"
    "                                          each compiler pass in order, its IR\n"
    "                                          level and the lines it changed\n"
    "  diff PATH --kernel K --pass N [--to M] [--context C] [--color WHEN]\n"
    "                                          what pass N (to M) changed, as a\n"
    "                                          unified diff\n"
    "  diff PATH_A [PATH_B] --kernel K [--kernel-b K2] --stage S\n"
    "                                          a final stage of two bundles or\n"
    "                                          two configurations\n"
    "  history PATH --source FILE:LINE [--kernel K] [--exact] [--json]\n"
    "                                          the passes that changed a source\n"
    "                                          line's IR\n"
    "  compare PATH --kernel K --kernel-b K2 [--json]\n"
    "  compare PATH_A PATH_B --kernel K [--kernel-b K2] [--json]\n"
    "                                          where two compilations of a kernel\n"
    "                                          part ways, pass by pass\n"
    "  configs PATH [--kernel K] [--json]        every compile of a kernel side\n"
    "                                          by side: what sets each apart,\n"
    "                                          resources, SASS, autotune time\n"
    "  hot PATH [--kernel K] [--metric M] [--top N] [--inclusive] [--json]\n"
    "                                          the source lines that cost most:\n"
    "                                          SASS instructions, or measured\n"
    "                                          samples with a profile\n"
    "  profile import BUNDLE FILE [--kernel K] [--force]\n"
    "                                          put an Nsight Compute export (the\n"
    "                                          source page as CSV) in a bundle\n"
    "  capture [-o BUNDLE] -- PROGRAM [ARGS...]  run a Triton program with the\n"
    "                                          dump knobs set; write a bundle\n"
    "  capture --profile [-o BUNDLE] -- PROGRAM  the same under Nsight Compute,\n"
    "                                          with its samples per instruction\n"
    "  capture --mlir FILE.mlir [-o BUNDLE]    the same with the MLIR/LLVM tools\n"
    "  --html OUTDIR PATH [--notes FILE.md] [--force]\n"
    "                                          write a static HTML report (opens\n"
    "                                          from file://, no network)\n"
    "\n";
/* The rest, apart: a C17 compiler need not take a string over 4095 bytes. */
static const char usage_end[] =
    "Every command takes --source-dir DIR (look for sources there too), --quiet,\n"
    "and --help.\n"
    "\n"
    "Exit status: 0 found, 1 the query matched nothing, 2 bad arguments,\n"
    "3 the input could not be loaded, 4 the source line is past the end of\n"
    "its file.\n";

int main(int argc, char **argv)
{
    if (argc < 2) {
        /* No command: the desktop viewer; -1 when it cannot start here. */
        int rc = cmd_view(argc, argv);
        if (rc >= 0)
            return rc;
        fputs(usage, stderr);
        fputs(usage_end, stderr);
        return CLI_EXIT_USAGE;
    }
    /* Ctrl-C, kill or a closed terminal while `bundle` or `--html` writes
     * removes the half-written folder beside the output (`capture` puts
     * its own handlers over these while the program runs). */
    tk_staged_dir_clean_on_signal();
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        fputs(usage, stdout);
        fputs(usage_end, stdout);
        return CLI_EXIT_OK;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
        printf("tkview %s\n", TKVIEW_VERSION);
        return CLI_EXIT_OK;
    }
    if (!strcmp(cmd, "info"))
        return cmd_info(argc - 1, argv + 1);
    if (!strcmp(cmd, "bind"))
        return cmd_bind(argc - 1, argv + 1);
    if (!strcmp(cmd, "refs"))
        return cmd_refs(argc - 1, argv + 1);
    if (!strcmp(cmd, "diagnostics"))
        return cmd_diagnostics(argc - 1, argv + 1);
    if (!strcmp(cmd, "check"))
        return cmd_check(argc - 1, argv + 1);
    if (!strcmp(cmd, "bundle"))
        return cmd_bundle(argc - 1, argv + 1);
    if (!strcmp(cmd, "passes"))
        return cmd_passes(argc - 1, argv + 1);
    if (!strcmp(cmd, "diff"))
        return cmd_diff(argc - 1, argv + 1);
    if (!strcmp(cmd, "history"))
        return cmd_history(argc - 1, argv + 1);
    if (!strcmp(cmd, "compare"))
        return cmd_compare(argc - 1, argv + 1);
    if (!strcmp(cmd, "configs"))
        return cmd_configs(argc - 1, argv + 1);
    if (!strcmp(cmd, "hot"))
        return cmd_hot(argc - 1, argv + 1);
    if (!strcmp(cmd, "profile"))
        return cmd_profile(argc - 1, argv + 1);
    if (!strcmp(cmd, "capture"))
        return cmd_capture(argc - 1, argv + 1);
    if (!strcmp(cmd, "--html") || !strcmp(cmd, "html"))
        return cmd_html(argc - 1, argv + 1);
    int view = cmd_view(argc, argv); /* tkview PATH: the desktop viewer */
    if (view >= 0)
        return view;
    cli_error("unknown command \"%s\" (try tkview --help)", cmd);
    return CLI_EXIT_USAGE;
}
