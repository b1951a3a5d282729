/* cmd_view.c - `tkview [PATH]` without a command: the desktop viewer.
 *
 * The viewer is its own program, tkview-viewer (viewer/), so that tkview
 * itself never links GTK and keeps working on machines without it.  tkview
 * looks for it next to itself (installed side by side, or ../viewer/ in the
 * build tree), then in PATH, and replaces itself with it. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static gboolean have_display(void)
{
    const char *w = g_getenv("WAYLAND_DISPLAY"), *x = g_getenv("DISPLAY");
    return (w && *w) || (x && *x);
}

/* Caller frees; NULL when not found. */
static char *find_viewer(void)
{
    char *self = g_file_read_link("/proc/self/exe", NULL);
    if (self) {
        char *dir = g_path_get_dirname(self);
        const char *const beside[] = {"tkview-viewer", "../viewer/tkview-viewer"};
        for (size_t i = 0; i < G_N_ELEMENTS(beside); i++) {
            char *p = g_build_filename(dir, beside[i], NULL);
            if (g_file_test(p, G_FILE_TEST_IS_EXECUTABLE) && !g_file_test(p, G_FILE_TEST_IS_DIR)) {
                g_free(dir);
                g_free(self);
                return p;
            }
            g_free(p);
        }
        g_free(dir);
        g_free(self);
    }
    return g_find_program_in_path("tkview-viewer");
}

int cmd_view(int argc, char **argv)
{
    /* Only a PATH that exists (or the viewer's --source-dir) is the viewer's:
     * anything else is a mistyped command for the caller to report. */
    if (argc >= 2 && !g_file_test(argv[1], G_FILE_TEST_EXISTS) &&
        strncmp(argv[1], "--source-dir", 12) != 0)
        return -1;
    if (!have_display()) {
        if (argc < 2) {
            fputs("tkview: no display (DISPLAY and WAYLAND_DISPLAY are not set), so no desktop "
                  "viewer; in a terminal use the commands below.\n\n", stderr);
            return -1;
        }
        cli_error("no display (DISPLAY and WAYLAND_DISPLAY are not set) for the desktop "
                     "viewer.  In a terminal: tkview info PATH, tkview bind PATH --source "
                     "FILE:LINE, tkview passes PATH (tkview --help)");
        return CLI_EXIT_USAGE;
    }
    char *viewer = find_viewer();
    if (!viewer) {
        cli_error("the desktop viewer (tkview-viewer) is not installed: it is built when "
                     "GTK 4 and GtkSourceView 5 are found (meson -Dviewer=enabled).  In a "
                     "terminal: tkview info PATH (tkview --help)");
        return argc < 2 ? -1 : CLI_EXIT_USAGE;
    }
    char **args = g_new0(char *, (size_t)argc + 1);
    args[0] = (char *)"tkview-viewer";
    for (int i = 1; i < argc; i++)
        args[i] = argv[i];
    fflush(NULL);
    execv(viewer, args);
    cli_error("cannot run %s: %s", viewer, strerror(errno));
    g_free(args);
    g_free(viewer);
    return CLI_EXIT_USAGE;
}
