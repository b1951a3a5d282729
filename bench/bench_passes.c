/* bench_passes.c - the whole pass timeline of every kernel of a capture:
 * split the pass dump files into dumps (the index), then read, normalize and
 * diff every pass (tk_timeline_of_kernel); against counting the lines of the
 * same files in the same process (what `wc -l` does), and with the peak
 * memory of the timeline build next to the largest dump's size.
 *
 * Usage: bench_passes [--repeat N] [--write-pairs DIR] PATH
 * PATH is what tkview takes (a capture folder with mlir_passes.txt and a
 * stderr with LLVM dumps, a bundle, a dump file).  Loading the bundle (final
 * stages, metadata) is not timed; the pass files' index and the timelines
 * are, best of N runs (default 3).
 *
 * Memory: after loading and indexing, the peak resident size is reset
 * (/proc/self/clear_refs) and read again (VmHWM) once every timeline is
 * built; the growth is what building took, whatever the number of passes.
 *
 * With --write-pairs DIR, writes every dump a pass is compared with as
 * DIR/dumps/P-D.txt (body only) and DIR/pairs.txt, one "BEFORE AFTER" pair of
 * those files per measured pass, for bench/passes.py to run
 * `git diff --no-index --histogram` over the same pairs.  A side cut from
 * several dumps (a function of a module dump, a module with later function
 * versions) is represented by its main dump.
 */
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tkdump/tk_bundle.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_bundle_passes.h"
#include "tkdump/tk_passes.h"
#include "tkdump/tk_timeline.h"

static double now(void)
{
    return (double)g_get_monotonic_time() / 1e6;
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

/* A field of /proc/self/status in kB ("VmRSS", "VmHWM"), or -1. */
static long status_kb(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long v = -1;
    size_t n = strlen(field);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, n) == 0 && line[n] == ':')
            v = strtol(line + n + 1, NULL, 10);
    fclose(f);
    return v;
}

/* Resets the peak resident size to the current one (Linux 4.0+). */
static int reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f)
        return -1;
    int ok = fputs("5", f) >= 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

typedef struct {
    double index, build;
    size_t kernels, passes, measured, changed;
    uint64_t added, removed;
} run_result;

/* The main dump of a side: the one it is, or is cut from. */
static int side_dump(const tk_timeline_side *s, size_t *part, size_t *dump)
{
    if (s->kind == TK_SIDE_DUMP || s->kind == TK_SIDE_STATE) {
        *part = s->part;
        *dump = s->dump;
        return 1;
    }
    if (s->kind == TK_SIDE_FUNCTIONS && s->n_pieces) {
        *part = s->pieces[0].part;
        *dump = s->pieces[0].dump;
        return 1;
    }
    return 0;
}

/* Writes dump (PART, DUMP) of TL once; returns its file name. */
static char *write_dump(const char *dir, const tk_timeline *tl, size_t part,
                        size_t dump, GHashTable *written)
{
    const tk_passes *p = tk_timeline_get_part(tl, part)->passes;
    char *name = g_strdup_printf("%p-%zu.txt", (const void *)p, dump);
    if (!g_hash_table_contains(written, name)) {
        size_t len;
        char *body = tk_passes_read(p, dump, &len, NULL);
        char *path = g_build_filename(dir, "dumps", name, NULL);
        if (body)
            g_file_set_contents(path, body, (gssize)len, NULL);
        g_free(path);
        g_free(body);
        g_hash_table_add(written, g_strdup(name));
    }
    return name;
}

static void write_pairs(const char *dir, const tk_timeline *tl, FILE *pairs,
                        GHashTable *written)
{
    for (size_t i = 0; i < tk_timeline_count(tl); i++) {
        const tk_timeline_entry *e = tk_timeline_get(tl, i);
        size_t pa, da, pb, db;
        if (e->effect == TK_EFFECT_UNKNOWN || !side_dump(&e->before, &pa, &da) ||
            !side_dump(&e->after, &pb, &db))
            continue;
        char *a = write_dump(dir, tl, pa, da, written);
        char *b = write_dump(dir, tl, pb, db, written);
        fprintf(pairs, "%s %s\n", a, b);
        g_free(a);
        g_free(b);
    }
}

static int run_once(const char *path, int measure_memory, const char *pairs_dir,
                    run_result *r, long *rss_base, long *rss_peak,
                    uint64_t *largest, uint64_t *bytes, GPtrArray *files)
{
    memset(r, 0, sizeof *r);
    tk_diags *diags = tk_diags_new();
    tk_bundle *b = tk_bundle_load(path, NULL, diags);
    if (!b) {
        tk_diags_free(diags);
        return -1;
    }
    double t0 = now();
    size_t nf = tk_bundle_pass_file_count(b, diags);
    r->index = now() - t0;
    *largest = *bytes = 0;
    for (size_t i = 0; i < nf; i++) {
        const tk_passes *p = tk_bundle_pass_file(b, i);
        *bytes += tk_passes_file_size(p);
        if (files && files->len < nf)
            g_ptr_array_add(files, g_strdup(tk_passes_path(p)));
        for (size_t d = 0; d < tk_passes_count(p); d++)
            if (tk_passes_get(p, d)->body_len > *largest)
                *largest = tk_passes_get(p, d)->body_len;
    }
    if (measure_memory) {
        reset_peak();
        *rss_base = status_kb("VmRSS");
    }
    FILE *pairs = NULL;
    GHashTable *written = NULL;
    if (pairs_dir) {
        char *dumps = g_build_filename(pairs_dir, "dumps", NULL);
        g_mkdir_with_parents(dumps, 0755);
        g_free(dumps);
        char *pp = g_build_filename(pairs_dir, "pairs.txt", NULL);
        pairs = fopen(pp, "w");
        g_free(pp);
        written = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    }
    double t1 = now(), spent_writing = 0;
    for (size_t k = 0; k < tk_bundle_kernel_count(b); k++) {
        tk_timeline *tl = tk_timeline_of_kernel(b, tk_bundle_kernel(b, k), NULL, diags);
        if (!tl)
            continue;
        r->kernels++;
        r->passes += tk_timeline_count(tl);
        for (size_t i = 0; i < tk_timeline_count(tl); i++) {
            const tk_timeline_entry *e = tk_timeline_get(tl, i);
            r->measured += e->effect != TK_EFFECT_UNKNOWN;
            r->changed += e->effect == TK_EFFECT_CHANGED;
            r->added += e->added;
            r->removed += e->removed;
        }
        if (pairs) {
            double w0 = now();
            write_pairs(pairs_dir, tl, pairs, written);
            spent_writing += now() - w0;
        }
        tk_timeline_free(tl);
    }
    r->build = now() - t1 - spent_writing;
    if (measure_memory)
        *rss_peak = status_kb("VmHWM");
    if (pairs) {
        fclose(pairs);
        g_hash_table_destroy(written);
    }
    tk_bundle_free(b);
    tk_diags_free(diags);
    return 0;
}

int main(int argc, char **argv)
{
    int repeat = 3, a = 1;
    const char *pairs_dir = NULL;
    for (; a < argc && strncmp(argv[a], "--", 2) == 0; a++) {
        if (strcmp(argv[a], "--repeat") == 0 && a + 1 < argc)
            repeat = atoi(argv[++a]);
        else if (strcmp(argv[a], "--write-pairs") == 0 && a + 1 < argc)
            pairs_dir = argv[++a];
        else {
            fprintf(stderr, "bench_passes: unknown option %s\n", argv[a]);
            return 2;
        }
    }
    if (a + 1 != argc || repeat < 1) {
        fprintf(stderr, "usage: bench_passes [--repeat N] [--write-pairs DIR] PATH\n");
        return 2;
    }
    const char *path = argv[a];
    run_result best = {0}, r;
    double best_total = 1e99;
    long rss_base = -1, rss_peak = -1;
    uint64_t largest = 0, bytes = 0;
    GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
    for (int i = 0; i < repeat; i++) {
        /* Memory on the first run, in a process that has built nothing yet;
         * pairs are written on a run of their own (not timed). */
        if (run_once(path, i == 0, NULL, &r, &rss_base, &rss_peak, &largest, &bytes,
                     i == 0 ? files : NULL) != 0) {
            fprintf(stderr, "bench_passes: %s: nothing could be loaded\n", path);
            return 3;
        }
        if (r.index + r.build < best_total) {
            best_total = r.index + r.build;
            best = r;
        }
    }
    if (pairs_dir) {
        run_result w;
        long x, y;
        uint64_t l, s;
        run_once(path, 0, pairs_dir, &w, &x, &y, &l, &s, NULL);
    }
    double wc = 0;
    for (guint f = 0; f < files->len; f++) {
        double best_wc = 1e99;
        for (int i = 0; i < repeat; i++) {
            double t = count_lines(g_ptr_array_index(files, f));
            if (t < best_wc)
                best_wc = t;
        }
        wc += best_wc;
    }
    const char *name = strrchr(path, '/');
    name = name && name[1] ? name + 1 : path;
    printf("%-24s %7s %6s %7s %6s %7s %7s %7s %8s %7s %6s %8s %8s %8s %9s\n", "capture",
           "MB", "kernel", "passes", "index", "build", "total", "MB/s", "wc -l", "ratio",
           "+/-", "RSS0 MB", "peak MB", "grew MB", "max dump");
    printf("%-24s %7.1f %6zu %7zu %6.3f %7.3f %7.3f %7.1f %8.4f %6.1fx %6zu %8.1f %8.1f "
           "%8.1f %6.1f MB\n",
           name, (double)bytes / 1e6, best.kernels, best.passes, best.index, best.build,
           best_total, (double)bytes / 1e6 / best_total, wc, best_total / wc, best.changed,
           rss_base / 1024.0, rss_peak / 1024.0, (rss_peak - rss_base) / 1024.0,
           (double)largest / 1e6);
    printf("# %zu passes measured (%zu changed, +%" G_GUINT64_FORMAT " -%" G_GUINT64_FORMAT
           " lines); peak growth %.1fx the largest dump\n",
           best.measured, best.changed, best.added, best.removed,
           largest ? (double)(rss_peak - rss_base) * 1024.0 / (double)largest : 0.0);
    for (guint f = 0; f < files->len; f++)
        printf("# file %s\n", (const char *)g_ptr_array_index(files, f));
    g_ptr_array_free(files, TRUE);
    return 0;
}
