/* capture_progress.c - the status line a capture draws on a terminal, and
 * the count of kernels compiled.
 *
 * "tkview: 3 kernels compiled, 212.4 MB of dumps" redrawn in place (\r and
 * erase-line) at most four times a second, while it changes; a second after
 * it stopped changing (the program is running its kernels, printing) it is
 * erased, so that the program's output does not land on it.  A kernel counts
 * as compiled when its entry in Triton's cache (TRITON_CACHE_DIR/KEY/) holds
 * its group file, __grp__NAME.json, which Triton writes last, once the
 * entry's stages, binary (cubin or hsaco) and NAME.json are in: one a
 * compile, whatever the backend, however TRITON_DUMP_DIR names its folders
 * (Triton 3.6 names them after the source, so configurations of one kernel
 * share one).  A compile that hit the same key again (TRITON_ALWAYS_COMPILE
 * recompiling the same kernel) rewrites the same entry and counts once.
 * Entries already counted are remembered, so a tick costs one listing of
 * the cache folder plus one listing of each new entry.  Inductor's own
 * Triton caches (TORCHINDUCTOR_CACHE_DIR/X/triton/KEY/, made when a program
 * sets force_disable_caches, as its max-autotune benchmarks do) are counted
 * the same way: its template choices compile there, not in
 * TRITON_CACHE_DIR, and a capture of them said "0 kernels compiled".
 * The program's own stdout goes to the terminal unchanged and may land on
 * the status line; the line is erased before every stderr message tkview
 * shows and when the capture ends.
 */
#include "capture.h"

#include <string.h>
#include <sys/stat.h>
#include <time.h>

struct cap_progress {
    FILE *tty;
    char *cache_dir;
    char *inductor_dir; /* TORCHINDUCTOR_CACHE_DIR, or NULL */
    char **dump_files;
    GHashTable *compiled; /* cache entry name -> its group files (count) */
    uint64_t stderr_bytes;
    char *step;
    char *shown_text; /* what the line says now, or last said */
    double last_draw, last_change;
    gboolean drawn;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

cap_progress *cap_progress_new(FILE *tty, const char *cache_dir,
                                             const char *const *dump_files)
{
    cap_progress *p = g_new0(cap_progress, 1);
    p->tty = tty;
    p->cache_dir = g_strdup(cache_dir);
    p->dump_files = g_strdupv((char **)dump_files);
    p->compiled = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    return p;
}

void cap_progress_free(cap_progress *p)
{
    if (!p)
        return;
    cap_progress_clear(p);
    g_free(p->cache_dir);
    g_free(p->inductor_dir);
    g_strfreev(p->dump_files);
    g_hash_table_destroy(p->compiled);
    g_free(p->step);
    g_free(p->shown_text);
    g_free(p);
}

void cap_progress_add_bytes(cap_progress *p, uint64_t n)
{
    if (p)
        p->stderr_bytes += n;
}

void cap_progress_set_step(cap_progress *p, const char *step)
{
    if (!p)
        return;
    g_free(p->step);
    p->step = g_strdup(step);
    p->last_draw = 0; /* show the new step at once */
}

/* How many kernels the cache entry DIR holds: its __grp__NAME.json files. */
static guint groups_in(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    guint n = 0;
    for (const char *e; d && (e = g_dir_read_name(d));)
        n += g_str_has_prefix(e, "__grp__") && g_str_has_suffix(e, ".json");
    if (d)
        g_dir_close(d);
    return n;
}

/* Counts the new entries of the Triton cache CACHE, remembered under
 * PREFIX + their name. */
static void recount_cache(cap_progress *p, const char *cache, const char *prefix)
{
    GDir *d = g_dir_open(cache, 0, NULL);
    for (const char *e; d && (e = g_dir_read_name(d));) {
        char *key = g_strconcat(prefix, e, NULL);
        if (g_hash_table_contains(p->compiled, key)) {
            g_free(key);
            continue;
        }
        char *sub = g_build_filename(cache, e, NULL);
        guint n = groups_in(sub);
        if (n)
            g_hash_table_insert(p->compiled, key, GUINT_TO_POINTER(n));
        else
            g_free(key);
        g_free(sub);
    }
    if (d)
        g_dir_close(d);
}

void cap_progress_watch_inductor(cap_progress *p, const char *dir)
{
    if (!p)
        return;
    g_free(p->inductor_dir);
    p->inductor_dir = g_strdup(dir);
}

static void recount(cap_progress *p)
{
    if (p->cache_dir)
        recount_cache(p, p->cache_dir, "");
    GDir *d = p->inductor_dir ? g_dir_open(p->inductor_dir, 0, NULL) : NULL;
    for (const char *e; d && (e = g_dir_read_name(d));) {
        if (e[0] == '.')
            continue;
        char *triton = g_build_filename(p->inductor_dir, e, "triton", NULL);
        if (g_file_test(triton, G_FILE_TEST_IS_DIR)) {
            char *prefix = g_strconcat("inductor/", e, "/", NULL);
            recount_cache(p, triton, prefix);
            g_free(prefix);
        }
        g_free(triton);
    }
    if (d)
        g_dir_close(d);
}

unsigned cap_progress_kernels(cap_progress *p)
{
    if (!p)
        return 0;
    recount(p);
    unsigned n = 0;
    GHashTableIter it;
    gpointer v;
    g_hash_table_iter_init(&it, p->compiled);
    while (g_hash_table_iter_next(&it, NULL, &v))
        n += GPOINTER_TO_UINT(v);
    return n;
}

/* The bytes of the regular files in DIR (each compile's dump file). */
static uint64_t folder_bytes(const char *dir)
{
    uint64_t n = 0;
    GDir *d = g_dir_open(dir, 0, NULL);
    for (const char *e; d && (e = g_dir_read_name(d));) {
        char *path = g_build_filename(dir, e, NULL);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
            n += (uint64_t)st.st_size;
        g_free(path);
    }
    if (d)
        g_dir_close(d);
    return n;
}

uint64_t cap_progress_bytes(cap_progress *p)
{
    if (!p)
        return 0;
    uint64_t n = p->stderr_bytes;
    for (size_t i = 0; p->dump_files && p->dump_files[i]; i++) {
        struct stat st;
        if (stat(p->dump_files[i], &st) != 0)
            continue;
        if (S_ISREG(st.st_mode))
            n += (uint64_t)st.st_size;
        else if (S_ISDIR(st.st_mode))
            n += folder_bytes(p->dump_files[i]);
    }
    return n;
}

void cap_progress_tick(cap_progress *p)
{
    if (!p || !p->tty)
        return;
    double t = now_s();
    if (t - p->last_draw < 0.25)
        return;
    p->last_draw = t;
    unsigned k = cap_progress_kernels(p);
    char *bytes = cap_format_bytes(cap_progress_bytes(p));
    GString *line = g_string_new("tkview: ");
    if (p->step)
        g_string_append_printf(line, "%s: ", p->step);
    if (p->cache_dir)
        g_string_append_printf(line, "%u kernel%s compiled, ", k,
                               k == 1 ? "" : "s");
    g_string_append_printf(line, "%s of dumps", bytes);
    if (!p->shown_text || strcmp(p->shown_text, line->str) != 0) {
        g_free(p->shown_text);
        p->shown_text = g_strdup(line->str);
        p->last_change = t;
        fprintf(p->tty, "\r\033[K%s", line->str);
        fflush(p->tty);
        p->drawn = TRUE;
    } else if (p->drawn && t - p->last_change > 1.0) {
        cap_progress_clear(p);
    }
    g_string_free(line, TRUE);
    g_free(bytes);
}

void cap_progress_clear(cap_progress *p)
{
    if (!p || !p->tty || !p->drawn)
        return;
    fputs("\r\033[K", p->tty);
    fflush(p->tty);
    p->drawn = FALSE;
}

char *cap_format_bytes(uint64_t n)
{
    if (n < 1000)
        return g_strdup_printf("%u bytes", (unsigned)n);
    if (n < 1000 * 1000)
        return g_strdup_printf("%.1f kB", n / 1e3);
    if (n < (uint64_t)1000 * 1000 * 1000)
        return g_strdup_printf("%.1f MB", n / 1e6);
    return g_strdup_printf("%.2f GB", n / 1e9);
}
