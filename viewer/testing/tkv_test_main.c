/* tkv_test_main.c - tkview-viewer-test: the viewer as installed, plus what
 * only the tests and benchmarks use.  Built in the build folder, never
 * installed (meson.build).
 *
 *   tkview-viewer-test [--source-dir DIR]... [PATH...]   the viewer; with
 *       TKVIEW_TEST_HOOKS=1 its application has the test actions
 *       (tkv_test_hooks.h), which the tests in tests/viewer/ drive
 *   tkview-viewer-test --bench PATH [--kernel K] [--json]  timings
 *       (tkv_bench.h)
 *
 * It is the real program (tkv_main.h) with an extension: nothing of the
 * application is replaced.
 */
#include "app/tkv_main.h"
#include "testing/tkv_bench.h"
#include "testing/tkv_test_hooks.h"

/* After the application's own start-up, as the hooks were installed
 * before they moved out of the product. */
static void on_startup(GApplication *app, gpointer data)
{
    if (g_strcmp0(g_getenv("TKVIEW_TEST_HOOKS"), "1") == 0)
        tkv_test_hooks_install(GTK_APPLICATION(app));
}

int main(int argc, char **argv)
{
    static const TkvMainExtension test_build = {
        .usage_line = "       tkview-viewer --bench PATH [--kernel K] [--json]\n",
        .usage_option = "  --bench PATH       time the first view and selections on PATH, then exit\n",
        .option = "--bench",
        .option_main = tkv_bench_main,
        .startup = on_startup,
    };
    return tkv_main(argc, argv, &test_build);
}
