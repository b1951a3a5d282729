/* main.c - tkview-viewer: the GTK 4 desktop viewer.
 *
 *   tkview-viewer [--source-dir DIR]... [PATH...]   open PATH (a bundle,
 *       capture, Triton cache or dump folder, or a stage file) in a window;
 *       no PATH: the welcome window
 *   tkview-viewer --bench PATH [--kernel K] [--json]  timings (tkv_bench.h)
 *
 * `tkview PATH` (and `tkview` alone) run this program.  Without a display it
 * says so and exits 2 instead of aborting inside GTK.
 */
#include <stdio.h>
#include <string.h>

#include <gtk/gtk.h>

#include "tkv_application.h"
#include "tkv_bench.h"
#include "tkv_renderer.h"
#include "tkview-config.h"

static const char usage[] =
    "Usage: tkview-viewer [--source-dir DIR]... [PATH...]\n"
    "       tkview-viewer --bench PATH [--kernel K] [--json]\n"
    "\n"
    "The tkview desktop viewer: click a source line, see what it became in every\n"
    "compiler stage (TTIR, TTGIR, LLVM IR, PTX, SASS); step through the compiler's\n"
    "passes side by side.  PATH is a tkview bundle, a capture folder, a Triton cache\n"
    "or TRITON_DUMP_DIR folder, or loose stage files.  A running viewer opens PATH\n"
    "in a new window (one window per bundle).\n"
    "\n"
    "  --source-dir DIR   also look for source files in DIR (repeatable)\n"
    "  --bench PATH       time the first view and selections on PATH, then exit\n"
    "  --version          print the version\n"
    "\n"
    "Without a graphical session use the command line: tkview info PATH,\n"
    "tkview bind PATH --source FILE:LINE (tkview --help).\n";

static const char no_display[] =
    "tkview-viewer: cannot open a display%s%s%s.\n"
    "The viewer is a desktop application and needs a graphical session\n"
    "(or a virtual one: xvfb-run tkview PATH).  Without one, ask the command line:\n"
    "  tkview info PATH                        kernels, stages, metadata\n"
    "  tkview bind PATH --source FILE:LINE     what a source line became\n"
    "  tkview --help                           everything else\n";

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--version")) {
            printf("tkview-viewer %s\n", TKVIEW_VERSION);
            return 0;
        }
        if (!strcmp(argv[i], "--bench") || !strncmp(argv[i], "--bench=", 8))
            return tkv_bench_main(argc, argv);
    }
    if (!gtk_init_check()) {
        const char *d = g_getenv("WAYLAND_DISPLAY");
        if (!d || !*d)
            d = g_getenv("DISPLAY");
        fprintf(stderr, no_display, d && *d ? " (\"" : " (DISPLAY and WAYLAND_DISPLAY are not set",
                d && *d ? d : "", d && *d ? "\" cannot be reached)" : ")");
        return 2;
    }
    tkv_renderer_choose();
    TkvApplication *app = tkv_application_new(0);
    int rc = g_application_run(G_APPLICATION(app), argc, argv);
    g_object_unref(app);
    return rc;
}
