/* bench_bind.c - load a capture and bind every stage of every kernel, the
 * same work `tkview info` does before printing, and report the time against
 * counting the lines of the same files in the same process (what `wc -l`
 * does), so the ratio does not depend on the machine.
 *
 * Usage: bench_bind [--repeat N] PATH...
 *        bench_bind [--repeat N] --stage KIND FILE
 * Prints one line per PATH: bytes of stage text, best seconds of load+bind,
 * MB/s, best seconds of the line count, the ratio, and peak RSS / input.
 * With --stage, reads FILE as one stage of KIND (a big pass dump read as one
 * text shows the readers' speed and memory at scale).
 */
#include <fcntl.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tkdump/tk_bind.h"
#include "tkdump/tk_bundle.h"
#include "tkdump/tk_bundle_load.h"

static double now(void)
{
    return (double)g_get_monotonic_time() / 1e6;
}

/* What wc -l does: read each file and count newlines with memchr. */
static size_t count_lines(GPtrArray *paths, size_t *bytes)
{
    static char buf[1 << 16];
    size_t lines = 0;
    *bytes = 0;
    for (guint i = 0; i < paths->len; i++) {
        int fd = open(g_ptr_array_index(paths, i), O_RDONLY);
        if (fd < 0)
            continue;
        for (ssize_t r; (r = read(fd, buf, sizeof buf)) > 0;) {
            *bytes += (size_t)r;
            for (char *p = buf, *end = buf + r; (p = memchr(p, '\n', (size_t)(end - p))); p++)
                lines++;
        }
        close(fd);
    }
    return lines;
}

static int bench_stage(const char *kind_name, const char *path, int repeat)
{
    tk_stage_kind kind = tk_stage_kind_parse(kind_name);
    if (kind == TK_STAGE_UNKNOWN) {
        fprintf(stderr, "%s: not a stage kind\n", kind_name);
        return 2;
    }
    double best = 1e9, best_wc = 1e9;
    size_t bytes = 0;
    uint32_t located = 0;
    for (int r = 0; r < repeat; r++) {
        double t0 = now();
        tk_loctab *tab = tk_loctab_new();
        tk_stage *st = tk_stage_read(kind, path, tab, NULL);
        if (!st) {
            fprintf(stderr, "%s: cannot read\n", path);
            return 3;
        }
        located = tk_stage_located_line_count(st);
        tk_stage_free(st);
        tk_loctab_free(tab);
        double t = now() - t0;
        if (t < best)
            best = t;
    }
    GPtrArray *paths = g_ptr_array_new();
    g_ptr_array_add(paths, (char *)path);
    for (int r = 0; r < repeat; r++) {
        double t0 = now();
        count_lines(paths, &bytes);
        double t = now() - t0;
        if (t < best_wc)
            best_wc = t;
    }
    g_ptr_array_free(paths, TRUE);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double mb = (double)bytes / 1e6;
    printf("%-28s %8.2f %8.4f %9.1f %9.5f %6.1fx %8.2fx  (%u located lines)\n",
           kind_name, mb, best, mb / best, best_wc, best / best_wc,
           (double)ru.ru_maxrss * 1024.0 / (double)bytes, located);
    return 0;
}

int main(int argc, char **argv)
{
    int repeat = 5, first = 1;
    if (argc > 2 && strcmp(argv[1], "--repeat") == 0) {
        repeat = atoi(argv[2]);
        first = 3;
    }
    if (argc == first + 3 && strcmp(argv[first], "--stage") == 0) {
        printf("%-28s %8s %8s %9s %9s %7s %9s\n", "stage read as one text", "MB",
               "read s", "MB/s", "wc -l s", "ratio", "RSS/in");
        return bench_stage(argv[first + 1], argv[first + 2], repeat);
    }
    if (first >= argc) {
        fprintf(stderr, "usage: bench_bind [--repeat N] PATH...\n");
        return 2;
    }
    printf("%-28s %8s %8s %9s %9s %7s %9s\n", "input", "MB", "bind s", "MB/s",
           "wc -l s", "ratio", "RSS/in");
    for (int a = first; a < argc; a++) {
        double best = 1e9, best_wc = 1e9;
        GPtrArray *paths = g_ptr_array_new_with_free_func(g_free);
        size_t bytes = 0, n_kernels = 0;
        for (int r = 0; r < repeat; r++) {
            double t0 = now();
            tk_diags *d = tk_diags_new();
            tk_bundle *b = tk_bundle_load(argv[a], NULL, d);
            if (!b) {
                fprintf(stderr, "%s: nothing loaded\n", argv[a]);
                return 3;
            }
            n_kernels = tk_bundle_kernel_count(b);
            for (size_t k = 0; k < n_kernels; k++) {
                const tk_kernel *kern = tk_bundle_kernel(b, k);
                tk_bind *ix = tk_bind_new(kern, tk_bundle_loctab(b));
                tk_bind_free(ix);
                if (r == 0)
                    for (tk_stage_kind s = 0; s < TK_STAGE_COUNT; s++)
                        if (tk_kernel_stage(kern, s))
                            g_ptr_array_add(paths, g_strdup(tk_stage_path(tk_kernel_stage(kern, s))));
            }
            tk_bundle_free(b);
            tk_diags_free(d);
            double t = now() - t0;
            if (t < best)
                best = t;
        }
        for (int r = 0; r < repeat; r++) {
            double t0 = now();
            count_lines(paths, &bytes);
            double t = now() - t0;
            if (t < best_wc)
                best_wc = t;
        }
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        double mb = (double)bytes / 1e6;
        const char *name = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
        printf("%-20s (%2zu k) %8.2f %8.4f %9.1f %9.5f %6.1fx %8.2fx\n", name,
               n_kernels, mb, best, mb / best, best_wc, best / best_wc,
               (double)ru.ru_maxrss * 1024.0 / (double)bytes);
        g_ptr_array_free(paths, TRUE);
    }
    return 0;
}
