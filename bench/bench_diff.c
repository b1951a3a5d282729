/* bench_diff.c - split pass dump files into dumps, normalize every dump and
 * diff every consecutive pair, the work a pass timeline needs; report the
 * time against counting the lines of the same file in the same process (what
 * `wc -l` does), so the ratio does not depend on the machine.
 *
 * Usage: bench_diff [--repeat N] [--myers] [--write-dumps DIR] FILE...
 * FILE is an MLIR_DUMP_PATH file ("// -----// IR Dump Before ...") or a
 * captured stderr with LLVM print-after-all dumps ("*** IR Dump After ...").
 * A dump runs from the line after its header to the next header, or to the
 * first line of the pass manager's own chatter ("Running pass: ..."), which
 * sits between dumps.  The split here is the simplest that works on the
 * shared captures; the library's splitter is another module.
 *
 * Prints one line per FILE: MB, dumps, best seconds of read / split /
 * normalize / diff and their total, MB/s, the wc -l time and ratio, lines
 * changed over all pairs, and the process's peak RSS so far over the file's
 * size (give one FILE per run for a figure about that file alone).  With
 * --write-dumps, also writes dump I as DIR/NNNNN.txt (byte for byte), for
 * bench/diff_vs_git.sh to run git over the same pairs.
 */
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tkdump/tk_diff.h"
#include "tkdump/tk_normalize.h"

typedef struct {
    size_t off, len;
} span;

static double now(void)
{
    return (double)g_get_monotonic_time() / 1e6;
}

static int has(const char *p, const char *e, const char *lit)
{
    size_t n = strlen(lit);
    return (size_t)(e - p) >= n && memmem(p, (size_t)(e - p), lit, n) != NULL;
}

static int starts(const char *p, const char *e, const char *lit)
{
    size_t n = strlen(lit);
    return (size_t)(e - p) >= n && memcmp(p, lit, n) == 0;
}

/* Pass manager chatter that ends a dump. */
static int is_chatter(const char *p, const char *e)
{
    if (e == p || (*p != 'R' && *p != 'I' && *p != 'C' && *p != 'S'))
        return 0;
    return starts(p, e, "Running pass: ") ||
           starts(p, e, "Running analysis: ") ||
           starts(p, e, "Invalidating analysis: ") ||
           starts(p, e, "Invalidating all analyses") ||
           starts(p, e, "Clearing all analysis") ||
           starts(p, e, "Skipping pass");
}

static GArray *split_dumps(const char *data, size_t len)
{
    GArray *dumps = g_array_new(FALSE, FALSE, sizeof(span));
    const char *p = data, *end = data + len;
    const char *cur = NULL;
    while (p < end) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e)
            e = end;
        /* Headers start with one of "/;*#" and name the dump near their
         * start. */
        int header = 0;
        if (e > p && (*p == '/' || *p == ';' || *p == '*' || *p == '#'))
            header = has(p, e - p > 64 ? p + 64 : e, "IR Dump");
        if (cur && (header || is_chatter(p, e))) {
            span s = {(size_t)(cur - data), (size_t)(p - cur)};
            g_array_append_val(dumps, s);
            cur = NULL;
        }
        if (header)
            cur = e < end ? e + 1 : end;
        p = e < end ? e + 1 : end;
    }
    if (cur) {
        span s = {(size_t)(cur - data), (size_t)(end - cur)};
        g_array_append_val(dumps, s);
    }
    return dumps;
}

static double count_lines(const char *path)
{
    static char buf[1 << 16];
    double t0 = now();
    size_t lines = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    for (ssize_t r; (r = read(fd, buf, sizeof buf)) > 0;)
        for (char *p = buf, *end = buf + r; (p = memchr(p, '\n', (size_t)(end - p))); p++)
            lines++;
    close(fd);
    (void)lines;
    return now() - t0;
}

static void write_dumps(const char *dir, const char *data, GArray *dumps)
{
    g_mkdir_with_parents(dir, 0755);
    for (guint i = 0; i < dumps->len; i++) {
        span s = g_array_index(dumps, span, i);
        char name[32];
        snprintf(name, sizeof name, "%05u.txt", i);
        char *path = g_build_filename(dir, name, NULL);
        g_file_set_contents(path, data + s.off, (gssize)s.len, NULL);
        g_free(path);
    }
}

typedef struct {
    double read, split, norm, diff;
    uint32_t dumps;
    uint64_t added, removed;
} run_result;

static int run_once(const char *path, tk_diff_algorithm alg,
                    const char *write_dir, run_result *r)
{
    double t0 = now();
    gchar *data;
    gsize len;
    if (!g_file_get_contents(path, &data, &len, NULL))
        return -1;
    double t1 = now();
    GArray *dumps = split_dumps(data, len);
    double t2 = now();
    if (write_dir)
        write_dumps(write_dir, data, dumps);

    /* Only two dumps are held at a time: memory follows the pair. */
    tk_diff_opts opts = {.algorithm = alg};
    tk_normalize *prev = NULL;
    double t_norm = 0, t_diff = 0;
    r->added = r->removed = 0;
    for (guint i = 0; i < dumps->len; i++) {
        span s = g_array_index(dumps, span, i);
        double a = now();
        tk_ir_dialect d = tk_ir_dialect_sniff(data + s.off, s.len);
        tk_normalize *cur = tk_normalize_new(d, data + s.off, s.len);
        double b = now();
        t_norm += b - a;
        if (prev && cur) {
            tk_diff_stats st = tk_normalize_diff_stats(prev, cur, &opts);
            r->added += st.added;
            r->removed += st.removed;
        }
        t_diff += now() - b;
        tk_normalize_free(prev);
        prev = cur;
    }
    tk_normalize_free(prev);
    r->read = t1 - t0;
    r->split = t2 - t1;
    r->norm = t_norm;
    r->diff = t_diff;
    r->dumps = dumps->len;
    g_array_free(dumps, TRUE);
    g_free(data);
    return 0;
}

int main(int argc, char **argv)
{
    int repeat = 3, a = 1;
    tk_diff_algorithm alg = TK_DIFF_HISTOGRAM;
    const char *write_dir = NULL;
    for (; a < argc && strncmp(argv[a], "--", 2) == 0; a++) {
        if (strcmp(argv[a], "--repeat") == 0 && a + 1 < argc)
            repeat = atoi(argv[++a]);
        else if (strcmp(argv[a], "--myers") == 0)
            alg = TK_DIFF_MYERS;
        else if (strcmp(argv[a], "--write-dumps") == 0 && a + 1 < argc)
            write_dir = argv[++a];
        else {
            fprintf(stderr, "bench_diff: unknown option %s\n", argv[a]);
            return 2;
        }
    }
    if (a >= argc) {
        fprintf(stderr, "usage: bench_diff [--repeat N] [--myers] "
                        "[--write-dumps DIR] FILE...\n");
        return 2;
    }
    printf("%-34s %7s %5s %6s %6s %6s %6s %7s %7s %7s %6s %9s %6s\n", "file",
           "MB", "dumps", "read", "split", "norm", "diff", "total", "MB/s",
           "wc -l", "ratio", "+/- lines", "RSS/in");
    for (; a < argc; a++) {
        run_result best = {1e9, 1e9, 1e9, 1e9, 0, 0, 0};
        double best_total = 1e9;
        for (int r = 0; r < repeat; r++) {
            run_result res;
            if (run_once(argv[a], alg, r == 0 ? write_dir : NULL, &res) != 0) {
                fprintf(stderr, "%s: cannot read\n", argv[a]);
                return 3;
            }
            double total = res.read + res.split + res.norm + res.diff;
            if (total < best_total) {
                best_total = total;
                best = res;
            }
        }
        double best_wc = 1e9;
        for (int r = 0; r < repeat; r++) {
            double t = count_lines(argv[a]);
            if (t < best_wc)
                best_wc = t;
        }
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        GStatBuf st;
        size_t len = g_stat(argv[a], &st) == 0 ? (size_t)st.st_size : 0;
        double mb = (double)len / 1e6;
        /* Name the capture and file: ".../persistent_tma_matmul/stderr.txt". */
        const char *name = argv[a];
        const char *slash = strrchr(name, '/');
        if (slash) {
            const char *s2 = slash;
            while (s2 > name && s2[-1] != '/')
                s2--;
            name = s2;
        }
        printf("%-34s %7.1f %5u %6.3f %6.3f %6.3f %6.3f %7.3f %7.1f %7.4f %5.1fx "
               "%4" G_GUINT64_FORMAT "/%-4" G_GUINT64_FORMAT " %6.2fx\n",
               name, mb, best.dumps, best.read, best.split, best.norm, best.diff,
               best_total, mb / best_total, best_wc, best_total / best_wc,
               best.added, best.removed,
               (double)ru.ru_maxrss * 1024.0 / (double)(len ? len : 1));
    }
    return 0;
}
