/* life_ranges.c - where a kernel's register life ranges lie: the text of
 * `nvdisasm --print-life-ranges --life-range-mode count -c NAME.cubin`,
 * kept as NAME.sass_lr beside NAME.cubin (capture, Triton's dump folder
 * after compiler/examples/raw_capture.sh, a bundle).
 *
 * One rule for the reader (cost/) and the bundle writer, which copies the
 * file beside the bundle's cubin so that the rule finds it there again.
 * A raw capture folder holds a kernel's files twice (Triton's dump folder
 * and its cache) and the scan may keep the cubin of one and the SASS of
 * the other, so the file is looked for beside the cubin first, then beside
 * the SASS stage file.
 */
#include "load/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tkdump/tk_input_file.h"
#include "tkdump/tk_life_ranges.h"

/* DIR/STEM.sass_lr (or .sass_lr.zst, a format-4 bundle's) for the file
 * PATH (".../NAME.cubin", ".../NAME.cubin.zst" or ".../NAME.sass_gi"), when
 * it is a regular file; else NULL. */
static char *beside(const char *path)
{
    if (!path)
        return NULL;
    char *plain = g_strdup(path);
    if (g_str_has_suffix(plain, ".zst"))
        plain[strlen(plain) - 4] = '\0';
    const char *slash = strrchr(plain, '/');
    const char *dot = strrchr(plain, '.');
    char *found = NULL;
    for (int z = 0; z < 2 && !found && dot && !(slash && dot < slash); z++) {
        char *lr = g_strdup_printf("%.*s.sass_lr%s", (int)(dot - plain), plain,
                                   z ? ".zst" : "");
        if (g_file_test(lr, G_FILE_TEST_IS_REGULAR))
            found = lr;
        else
            g_free(lr);
    }
    g_free(plain);
    return found;
}

char *bundle_meta_life_ranges_path(const tk_kernel *k)
{
    /* Named first: a format-4 bundle's manifest names it (the file may be
     * another kernel's), a front end names the one it made. */
    if (k->life_ranges_path &&
        g_file_test(k->life_ranges_path, G_FILE_TEST_IS_REGULAR))
        return g_strdup(k->life_ranges_path);
    char *p = beside(k->cubin_path);
    if (!p)
        p = beside(k->files[TK_STAGE_SASS].path);
    return p;
}

/* ---- made afterwards by a front end (tk_life_ranges.h) ------------------ */

#define PY_TRITON_BIN                                                        \
    "import os, triton; print(os.path.join(os.path.dirname("                 \
    "triton.__file__), 'backends', 'nvidia', 'bin'))"

static tk_kernel *kernel_at(const tk_bundle *b, size_t i)
{
    return b && i < b->kernels->len ? g_ptr_array_index(b->kernels, i) : NULL;
}

static int lacks(const tk_kernel *k)
{
    if (!k->cubin_path || !k->files[TK_STAGE_SASS].path)
        return 0;
    char *p = bundle_meta_life_ranges_path(k);
    g_free(p);
    return p == NULL;
}

/* The SHA-256 (hex, g_free) of the bytes of the cubin at PATH, or NULL. */
static char *cubin_sum(const char *path)
{
    size_t len;
    char *data = tk_input_file_read(path, TK_INPUT_FILE_CUBIN, &len, NULL);
    if (!data)
        return NULL;
    char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)data, len);
    g_free(data);
    return sum;
}

/* ---- the cache's key, remembered by the file's stat --------------------
 *
 * Hashing a cubin costs ~54 instructions a byte, more than the rest of
 * `info` on a one-kernel folder.  Like git's index, the sum is kept in
 * CACHE/stat/DEV-INODE with the file's path, device, inode, size, mtime
 * and ctime (in ns), and trusted only while all six are unchanged.  No
 * program sets a ctime: a write, a rename or a chmod moves it to the
 * kernel's clock.  A file changed again within one tick of that clock
 * (coarse: ~4 ms, or 1 s on some filesystems) after the sum was taken
 * would keep its stat, so a sum is remembered only for a file whose mtime
 * and ctime are at least MEMO_SETTLED_S old: a later change then stamps a
 * later time. */
#define MEMO_SETTLED_S 2
#define MEMO_HEAD "tkview cubin sha256 1"

static char *memo_key(const char *path, const struct stat *st)
{
    return g_strdup_printf(MEMO_HEAD "\n%s\n%ju %ju %jd %jd.%09ld %jd.%09ld\n", path,
                           (uintmax_t)st->st_dev, (uintmax_t)st->st_ino,
                           (intmax_t)st->st_size, (intmax_t)st->st_mtim.tv_sec,
                           st->st_mtim.tv_nsec, (intmax_t)st->st_ctim.tv_sec,
                           st->st_ctim.tv_nsec);
}

static gboolean is_sum(const char *s, size_t len)
{
    if (len != 64)
        return FALSE;
    for (size_t i = 0; i < len; i++)
        if (!g_ascii_isxdigit(s[i]) || g_ascii_isupper(s[i]))
            return FALSE;
    return TRUE;
}

/* The sum of the cubin at PATH: remembered in MEMO_DIR when its stat is
 * the one remembered, else computed (and remembered when settled). */
static char *cubin_sum_memo(const char *path, const char *memo_dir)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return cubin_sum(path);
    char *key = memo_key(path, &st);
    char *name = g_strdup_printf("%ju-%ju", (uintmax_t)st.st_dev, (uintmax_t)st.st_ino);
    char *memo = g_build_filename(memo_dir, name, NULL);
    g_free(name);
    char *text = NULL, *sum = NULL;
    gsize len = 0, kl = strlen(key);
    if (g_file_get_contents(memo, &text, &len, NULL) && len == kl + 65 &&
        memcmp(text, key, kl) == 0 && text[len - 1] == '\n' && is_sum(text + kl, 64))
        sum = g_strndup(text + kl, 64);
    g_free(text);
    if (!sum && (sum = cubin_sum(path))) {
        gint64 now = g_get_real_time() / G_USEC_PER_SEC;
        if (now - MAX((gint64)st.st_mtim.tv_sec, (gint64)st.st_ctim.tv_sec) >=
                MEMO_SETTLED_S &&
            g_mkdir_with_parents(memo_dir, 0700) == 0) {
            char *line = g_strconcat(key, sum, "\n", NULL);
            g_file_set_contents_full(memo, line, -1, G_FILE_SET_CONTENTS_CONSISTENT,
                                     0600, NULL);
            g_free(line);
        }
    }
    g_free(memo);
    g_free(key);
    return sum;
}

/* "HASH.sass_lr": the name of kernel K's file in CACHE (HASH the SHA-256
 * of its cubin's bytes), or NULL. */
static char *cache_name(const tk_kernel *k, const char *cache)
{
    char *memo_dir = g_build_filename(cache, "stat", NULL);
    char *sum = cubin_sum_memo(k->cubin_path, memo_dir);
    g_free(memo_dir);
    char *name = sum ? g_strconcat(sum, ".sass_lr", NULL) : NULL;
    g_free(sum);
    return name;
}

static void add_tool(GPtrArray *tools, char *path)
{
    if (!path || access(path, X_OK) != 0) {
        g_free(path);
        return;
    }
    for (guint i = 0; i < tools->len; i++)
        if (strcmp(tools->pdata[i], path) == 0) {
            g_free(path);
            return;
        }
    g_ptr_array_add(tools, path);
}

/* Triton's bin folder (tk_bundle.h), the one rule for every front end:
 * capture asks the program's own Python, the others python3. */
char *tk_triton_nvidia_bin(const char *python, tk_run_fn run, void *user)
{
    if (!run)
        return NULL;
    char *scratch = NULL;
    int fd = g_file_open_tmp("tkview-triton-XXXXXX.txt", &scratch, NULL);
    if (fd < 0)
        return NULL;
    close(fd);
    const char *argv[] = {python && *python ? python : "python3", "-c",
                          PY_TRITON_BIN, NULL};
    char *err = NULL, *text = NULL, *dir = NULL;
    if (run(argv, scratch, &err, user) == 0 &&
        (text = tk_input_file_read(scratch, TK_INPUT_FILE_STAGE, NULL, NULL))) {
        g_strstrip(text);
        if (*text && !strchr(text, '\n') && g_path_is_absolute(text))
            dir = g_strdup(text);
    }
    free(err);
    g_free(text);
    unlink(scratch);
    g_free(scratch);
    return dir;
}

/* Every nvdisasm to try, in order (tk_life_ranges.h). */
static GPtrArray *find_tools(tk_run_fn run, void *user)
{
    GPtrArray *tools = g_ptr_array_new_with_free_func(g_free);
    const char *only = g_getenv("TKVIEW_NVDISASM");
    if (only) {
        if (*only && strcmp(only, "none") != 0)
            add_tool(tools, g_strdup(only));
        return tools;
    }
    char *tdir = tk_triton_nvidia_bin(NULL, run, user);
    if (tdir)
        add_tool(tools, g_build_filename(tdir, "nvdisasm", NULL));
    g_free(tdir);
    const char *env = g_getenv("TRITON_NVDISASM_PATH");
    if (env && *env)
        add_tool(tools, g_strdup(env));
    add_tool(tools, g_find_program_in_path("nvdisasm"));
    const char *cuda_home = g_getenv("CUDA_HOME");
    if (cuda_home && *cuda_home)
        add_tool(tools, g_build_filename(cuda_home, "bin", "nvdisasm", NULL));
    add_tool(tools, g_strdup("/usr/local/cuda/bin/nvdisasm"));
    return tools;
}

/* Kernel K's file made at PATH by the first tool that succeeds: that
 * tool, or NULL with *WHY (g_free) the last refusal. */
/* The cubin as a file nvdisasm can read: its own path, or for a
 * CUBIN.zst (a format-4 bundle's) a plain copy in a temporary file, named in
 * *TEMP (unlink and free).  NULL with *WHY when it cannot be read. */
static char *plain_cubin(const tk_kernel *k, char **temp, char **why)
{
    *temp = NULL;
    if (!tk_input_file_is_zstd(k->cubin_path))
        return g_strdup(k->cubin_path);
    size_t len = 0;
    char *err = NULL;
    char *data = tk_input_file_read(k->cubin_path, TK_INPUT_FILE_CUBIN, &len, &err);
    int fd = data ? g_file_open_tmp("tkview-cubin-XXXXXX.cubin", temp, NULL) : -1;
    gboolean ok = fd >= 0;
    for (size_t done = 0; ok && done < len;) {
        ssize_t w = write(fd, data + done, len - done);
        ok = w > 0;
        done += ok ? (size_t)w : 0;
    }
    if (fd >= 0 && close(fd) != 0)
        ok = FALSE;
    g_free(data);
    if (!ok) {
        *why = g_strdup_printf("%s: %s", k->cubin_path,
                               err ? err : "cannot write a plain copy");
        if (*temp)
            unlink(*temp);
        g_free(*temp);
        *temp = NULL;
    }
    g_free(err);
    return ok ? g_strdup(*temp) : NULL;
}

static const char *make_one(const tk_kernel *k, GPtrArray *tools, const char *path,
                            tk_run_fn run, void *user, char **why)
{
    char *temp = NULL;
    char *cubin = plain_cubin(k, &temp, why);
    if (!cubin)
        return NULL;
    const char *made = NULL;
    char *tmp = g_strdup_printf("%s.%d.tmp", path, (int)getpid());
    for (guint t = 0; t < tools->len && !made; t++) {
        const char *argv[] = {tools->pdata[t], "--print-life-ranges", "--life-range-mode",
                              "count", "-c", cubin, NULL};
        char *err = NULL;
        int rc = run(argv, tmp, &err, user);
        if (rc == 0 && rename(tmp, path) == 0) {
            free(err);
            made = tools->pdata[t];
            break;
        }
        unlink(tmp);
        g_free(*why);
        char *e = g_strstrip(g_strdup(err && *err ? err : "failed"));
        for (char *c = e; *c; c++)
            if (*c == '\n' || *c == '\t')
                *c = ' ';
        *why = g_strdup_printf("%s: %s", (char *)tools->pdata[t], e);
        g_free(e);
        free(err);
    }
    g_free(tmp);
    if (temp)
        unlink(temp);
    g_free(temp);
    g_free(cubin);
    return made;
}

/* The file for kernel K, made or found; 1 when K now has one.  Without a
 * cache folder nothing is cached: the cubin is read and hashed only when
 * there is an nvdisasm to make the file with. */
static void one_kernel(tk_kernel *k, const char *cache, gboolean have_cache,
                       GPtrArray **tools, tk_run_fn run, void *user,
                       tk_life_ranges_made *out)
{
    if (!have_cache) {
        if (!*tools)
            *tools = find_tools(run, user);
        if (!(*tools)->len) {
            out->no_tool++;
            return;
        }
    }
    char *name = cache_name(k, cache);
    if (!name)
        return;
    char *path = g_build_filename(cache, name, NULL);
    g_free(name);
    if (g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
        g_free(k->life_ranges_path);
        k->life_ranges_path = path;
        out->cached++;
        if (!out->cache)
            out->cache = g_strdup(cache);
        return;
    }
    if (!*tools)
        *tools = find_tools(run, user);
    if (!(*tools)->len) {
        out->no_tool++;
        g_free(path);
        return;
    }
    char *why = NULL;
    const char *tool = g_mkdir_with_parents(cache, 0700) == 0
                           ? make_one(k, *tools, path, run, user, &why)
                           : NULL;
    if (!tool && !why)
        why = g_strdup_printf("cannot make the cache folder %s", cache);
    if (tool) {
        g_free(k->life_ranges_path);
        k->life_ranges_path = path;
        path = NULL;
        out->made++;
        if (!out->tool)
            out->tool = g_strdup(tool);
        if (!out->cache)
            out->cache = g_strdup(cache);
    } else {
        out->failed++;
        if (!out->why) {
            out->why = why;
            why = NULL;
        }
    }
    g_free(why);
    g_free(path);
}

void tk_bundle_make_life_ranges(tk_bundle *b, tk_run_fn run, void *user,
                                tk_life_ranges_made *out)
{
    memset(out, 0, sizeof *out);
    if (!b || !run)
        return;
    char *cache = g_build_filename(g_get_user_cache_dir(), "tkview", "sass_lr", NULL);
    GPtrArray *tools = NULL;
    int have_cache = -1; /* not looked at yet */
    for (size_t i = 0; i < b->kernels->len; i++) {
        tk_kernel *k = kernel_at(b, i);
        if (!lacks(k))
            continue;
        if (have_cache == -1)
            have_cache = g_file_test(cache, G_FILE_TEST_IS_DIR);
        one_kernel(k, cache, have_cache, &tools, run, user, out);
    }
    if (tools)
        g_ptr_array_unref(tools);
    g_free(cache);
}

void tk_life_ranges_made_clear(tk_life_ranges_made *m)
{
    if (!m)
        return;
    g_free(m->cache);
    g_free(m->tool);
    g_free(m->why);
    memset(m, 0, sizeof *m);
}
