/* tkv_main.h - the viewer's program: its arguments, the message without a
 * display, and the application run.
 *
 * The installed tkview-viewer is this with no extension (app/main.c).  The
 * test build, tkview-viewer-test (testing/, never installed), runs the same
 * program with an extension: one more option (--bench) handled before
 * anything else, and a start-up callback that installs the test actions on
 * the real application.  This is the only way in that the test build has;
 * the application itself knows nothing of tests.
 */
#ifndef TKV_MAIN_H
#define TKV_MAIN_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct {
    /* More of the usage text, after the usage's first line; may be NULL. */
    const char *usage_line;
    const char *usage_option;
    /* ARGV holding OPTION ("--bench" or "--bench=..."): OPTION_MAIN(ARGC,
     * ARGV) is the program instead. */
    const char *option;
    int (*option_main)(int argc, char **argv);
    /* Connected to the application's "startup" signal: runs after the
     * application's own start-up (its actions, shortcuts and settings). */
    void (*startup)(GApplication *app, gpointer data);
} TkvMainExtension;

/* The program: ARGC and ARGV as main() has them, EXT NULL for the product.
 * Returns the exit status. */
int tkv_main(int argc, char **argv, const TkvMainExtension *ext);

G_END_DECLS

#endif
