/* tkv_main.c - the viewer's program (tkv_main.h).
 *
 *   tkview-viewer [--source-dir DIR]... [PATH...]   open PATH (a bundle,
 *       capture, Triton cache or dump folder, or a stage file) in a window;
 *       no PATH: the welcome window
 *
 * `tkview PATH` (and `tkview` alone) run this program.  Without a display it
 * says so and exits 2 instead of aborting inside GTK.
 */
#include "app/tkv_main.h"

#include <stdio.h>
#include <string.h>

#include "app/tkv_application.h"
#include "app/tkv_renderer.h"
#include "tkview-config.h"

static const char usage_first[] = "Usage: tkview-viewer [--source-dir DIR]... [PATH...]\n";

static const char usage_about[] =
    "\n"
    "The tkview desktop viewer: click a source line, see what it became in every\n"
    "compiler stage (TTIR, TTGIR, LLVM IR, PTX, SASS); step through the compiler's\n"
    "passes side by side.  PATH is a tkview bundle, a capture folder, a Triton cache\n"
    "or TRITON_DUMP_DIR folder, or loose stage files.  A running viewer opens PATH\n"
    "in a new window (one window per bundle).\n"
    "\n"
    "  --source-dir DIR   also look for source files in DIR (repeatable)\n";

static const char usage_last[] =
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

static gboolean is_option(const char *arg, const char *option)
{
    size_t n = strlen(option);
    return !strcmp(arg, option) || (!strncmp(arg, option, n) && arg[n] == '=');
}

int tkv_main(int argc, char **argv, const TkvMainExtension *ext)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage_first, stdout);
            if (ext && ext->usage_line)
                fputs(ext->usage_line, stdout);
            fputs(usage_about, stdout);
            if (ext && ext->usage_option)
                fputs(ext->usage_option, stdout);
            fputs(usage_last, stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--version")) {
            printf("tkview-viewer %s\n", TKVIEW_VERSION);
            return 0;
        }
        if (ext && ext->option && is_option(argv[i], ext->option))
            return ext->option_main(argc, argv);
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
    if (ext && ext->startup)
        g_signal_connect(app, "startup", G_CALLBACK(ext->startup), NULL);
    int rc = g_application_run(G_APPLICATION(app), argc, argv);
    g_object_unref(app);
    return rc;
}
