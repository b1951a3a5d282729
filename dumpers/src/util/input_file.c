/* input_file.c - every input file opened without blocking, checked to be a
 * regular file, and sized before it is read (tk_input_file.h). */
#include "tkdump/tk_input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#define MiB ((uint64_t)1 << 20)

static const struct {
    const char *name;
    uint64_t limit;
    const char *limit_words;
} kinds[TK_INPUT_FILE_KIND_COUNT] = {
    [TK_INPUT_FILE_MANIFEST] = {"manifest", 64 * MiB, "64 MiB"},
    [TK_INPUT_FILE_METADATA] = {"metadata file", 16 * MiB, "16 MiB"},
    [TK_INPUT_FILE_CUBIN] = {"cubin", 256 * MiB, "256 MiB"},
    [TK_INPUT_FILE_STAGE] = {"stage file", 1024 * MiB, "1 GiB"},
    [TK_INPUT_FILE_SOURCE] = {"source file", 16 * MiB, "16 MiB"},
    [TK_INPUT_FILE_NOTES] = {"note", 4 * MiB, "4 MiB"},
    [TK_INPUT_FILE_PROFILE] = {"profile", 256 * MiB, "256 MiB"},
    [TK_INPUT_FILE_NCU_EXPORT] = {"Nsight Compute export", 1024 * MiB, "1 GiB"},
    [TK_INPUT_FILE_TIMINGS] = {"autotune timings file", 16 * MiB, "16 MiB"},
    [TK_INPUT_FILE_PASS_DUMP] = {"pass dump file", UINT64_MAX, NULL},
};

/* ---- the budget of a whole load ---------------------------------------- */

static const struct {
    uint64_t limit;
    const char *words; /* "of LIMIT WORDS" */
} budget_items[TK_INPUT_BUDGET_COUNT] = {
    [TK_INPUT_BUDGET_WHOLE_BYTES] = {512 * MiB, "512 MiB of files read whole"},
    [TK_INPUT_BUDGET_STREAM_BYTES] = {16384 * MiB,
                                      "16 GiB of pass dump text read"},
    [TK_INPUT_BUDGET_LINES] = {(uint64_t)32 << 20, "32 Mi lines indexed"},
    [TK_INPUT_BUDGET_DUMPS] = {(uint64_t)256 << 10, "256 Ki pass dumps indexed"},
    [TK_INPUT_BUDGET_KERNELS] = {4096, "4096 kernels"},
};

struct tk_input_budget {
    uint64_t limit[TK_INPUT_BUDGET_COUNT];
    uint64_t spent[TK_INPUT_BUDGET_COUNT]; /* atomics: loads use threads */
};

static tk_input_budget process_budget = {
    .limit = {512 * MiB, 16384 * MiB, (uint64_t)32 << 20, (uint64_t)256 << 10,
              4096},
};
static _Thread_local tk_input_budget *thread_budget;

tk_input_budget *tk_input_budget_new(void)
{
    tk_input_budget *b = g_new0(tk_input_budget, 1);
    for (int i = 0; i < TK_INPUT_BUDGET_COUNT; i++)
        b->limit[i] = budget_items[i].limit;
    return b;
}

void tk_input_budget_free(tk_input_budget *budget)
{
    if (budget && budget != &process_budget)
        g_free(budget);
}

void tk_input_budget_set_limit(tk_input_budget *budget,
                               tk_input_budget_item item, uint64_t limit)
{
    if (!budget)
        budget = &process_budget;
    if ((unsigned)item < TK_INPUT_BUDGET_COUNT)
        budget->limit[item] = limit;
}

tk_input_budget *tk_input_budget_use(tk_input_budget *budget)
{
    tk_input_budget *before = thread_budget;
    thread_budget = budget;
    return before;
}

int tk_input_budget_charge(tk_input_budget_item item, uint64_t n, char **why)
{
    if (why)
        *why = NULL;
    if ((unsigned)item >= TK_INPUT_BUDGET_COUNT)
        return 0;
    tk_input_budget *b = thread_budget ? thread_budget : &process_budget;
    uint64_t limit = b->limit[item];
    uint64_t was = __atomic_load_n(&b->spent[item], __ATOMIC_RELAXED);
    for (;;) {
        if (n > limit || was > limit - n) {
            if (why) {
                if (limit == budget_items[item].limit)
                    *why = g_strdup_printf("over the load's budget of %s",
                                           budget_items[item].words);
                else
                    *why = g_strdup_printf("over the load's budget of %" G_GUINT64_FORMAT
                                           " (%s by default)",
                                           limit, budget_items[item].words);
            }
            return -1;
        }
        if (__atomic_compare_exchange_n(&b->spent[item], &was, was + n, TRUE,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            return 0;
    }
}

uint64_t tk_input_budget_left(tk_input_budget_item item)
{
    if ((unsigned)item >= TK_INPUT_BUDGET_COUNT)
        return 0;
    tk_input_budget *b = thread_budget ? thread_budget : &process_budget;
    uint64_t spent = __atomic_load_n(&b->spent[item], __ATOMIC_RELAXED);
    return spent < b->limit[item] ? b->limit[item] - spent : 0;
}

void tk_input_budget_refund(tk_input_budget_item item, uint64_t n)
{
    if ((unsigned)item >= TK_INPUT_BUDGET_COUNT)
        return;
    tk_input_budget *b = thread_budget ? thread_budget : &process_budget;
    uint64_t was = __atomic_load_n(&b->spent[item], __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&b->spent[item], &was,
                                        was > n ? was - n : 0, TRUE,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

static gboolean kind_ok(tk_input_file_kind kind)
{
    return (unsigned)kind < TK_INPUT_FILE_KIND_COUNT;
}

uint64_t tk_input_file_limit(tk_input_file_kind kind)
{
    return kind_ok(kind) ? kinds[kind].limit : 0;
}

const char *tk_input_file_kind_name(tk_input_file_kind kind)
{
    return kind_ok(kind) ? kinds[kind].name : "file";
}

/* What MODE is, when it is not a regular file. */
static const char *not_regular(mode_t mode)
{
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe), not a regular file";
    if (S_ISCHR(mode))
        return "a character device, not a regular file";
    if (S_ISBLK(mode))
        return "a block device, not a regular file";
    if (S_ISSOCK(mode))
        return "a socket, not a regular file";
    if (S_ISDIR(mode))
        return "a folder, not a file";
    return "not a regular file";
}

/* REASON, followed by where PATH leads when it is a symbolic link (a
 * manifest.json that is a link to /dev/zero says so). */
static char *with_link(const char *path, const char *reason)
{
    char *target = g_file_read_link(path, NULL);
    char *out = target ? g_strdup_printf("%s; it is a symbolic link to %s", reason,
                                         target)
                       : g_strdup(reason);
    g_free(target);
    return out;
}

static void set_why(char **why, char *text)
{
    if (why)
        *why = text;
    else
        g_free(text);
}

static char *over_limit(tk_input_file_kind kind, uint64_t size)
{
    return g_strdup_printf("%" G_GUINT64_FORMAT " bytes, over the %s a %s may "
                           "have",
                           size, kinds[kind].limit_words, kinds[kind].name);
}

int tk_input_file_open(const char *path, tk_input_file_kind kind,
                       uint64_t *size, char **why)
{
    if (why)
        *why = NULL;
    if (!path || !kind_ok(kind)) {
        set_why(why, g_strdup("no file given"));
        return -1;
    }
    /* O_NONBLOCK: a FIFO opens at once instead of waiting for a writer;
     * O_NOCTTY: a terminal device never becomes the controlling one. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    struct stat st;
    if (fd < 0) {
        int e = errno;
        /* A socket cannot be opened at all (ENXIO): say what it is. */
        if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
            set_why(why, with_link(path, not_regular(st.st_mode)));
        else
            set_why(why, g_strdup(g_strerror(e)));
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        set_why(why, g_strdup(g_strerror(errno)));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        set_why(why, with_link(path, not_regular(st.st_mode)));
        close(fd);
        return -1;
    }
    if ((uint64_t)st.st_size > kinds[kind].limit) {
        set_why(why, over_limit(kind, (uint64_t)st.st_size));
        close(fd);
        return -1;
    }
    if (size)
        *size = (uint64_t)st.st_size;
    return fd;
}

int tk_input_file_is_zstd(const char *path)
{
    return path && g_str_has_suffix(path, ".zst");
}

/* One decoding context per thread, kept: ZSTD_decompress() makes and
 * frees one per call (about 100 KB to allocate, fault in and clear), and
 * a bundle's kernels are a hundred small frames. */
static void dctx_free(gpointer d)
{
    ZSTD_freeDCtx(d);
}

static GPrivate dctx_key = G_PRIVATE_INIT(dctx_free);

static ZSTD_DCtx *thread_dctx(void)
{
    ZSTD_DCtx *d = g_private_get(&dctx_key);
    if (!d && (d = ZSTD_createDCtx()) != NULL)
        g_private_set(&dctx_key, d);
    return d;
}

/* The text of the zstd frame FRAME (N bytes, the whole of a FILE.zst) as a
 * file of KIND: one frame that declares its content size, within KIND's
 * limit and the load's budget (charged before anything is allocated), and
 * decodes to exactly that size.  Returns it NUL-ended (caller frees) with
 * *LEN set, or NULL with *WHY. */
static char *inflate_frame(const char *frame, size_t n, tk_input_file_kind kind,
                           size_t *len, char **why)
{
    unsigned long long size = ZSTD_getFrameContentSize(frame, n);
    if (size == ZSTD_CONTENTSIZE_ERROR) {
        set_why(why, g_strdup("not a zstd frame, though its name ends in .zst"));
        return NULL;
    }
    if (size == ZSTD_CONTENTSIZE_UNKNOWN) {
        set_why(why, g_strdup("a zstd frame that does not say its content "
                              "size (a bundle's FILE.zst always does)"));
        return NULL;
    }
    size_t whole = ZSTD_findFrameCompressedSize(frame, n);
    if (ZSTD_isError(whole) || whole != n) {
        set_why(why, ZSTD_isError(whole)
                         ? g_strdup_printf("a damaged or cut zstd frame (%s)",
                                           ZSTD_getErrorName(whole))
                         : g_strdup("more than one zstd frame, or bytes after "
                                    "it"));
        return NULL;
    }
    if ((uint64_t)size > kinds[kind].limit) {
        set_why(why, g_strdup_printf("inflates to %llu bytes, over the %s a %s "
                                     "may have",
                                     size, kinds[kind].limit_words,
                                     kinds[kind].name));
        return NULL;
    }
    if (tk_input_budget_charge(TK_INPUT_BUDGET_WHOLE_BYTES, size, why) != 0)
        return NULL;
    char *out = g_try_malloc((size_t)size + 1);
    if (!out) {
        tk_input_budget_refund(TK_INPUT_BUDGET_WHOLE_BYTES, size);
        set_why(why, g_strdup_printf("inflates to %llu bytes: out of memory",
                                     size));
        return NULL;
    }
    /* Decoded into a buffer of the declared size: a frame that holds more
     * than it says fails here instead of growing anything. */
    ZSTD_DCtx *dctx = thread_dctx();
    size_t got = dctx ? ZSTD_decompressDCtx(dctx, out, (size_t)size, frame, n)
                      : ZSTD_decompress(out, (size_t)size, frame, n);
    if (ZSTD_isError(got) || got != (size_t)size) {
        set_why(why, g_strdup_printf("a damaged zstd frame, or one that does "
                                     "not hold the %llu bytes it says (%s)",
                                     size,
                                     ZSTD_isError(got) ? ZSTD_getErrorName(got)
                                                       : "it holds fewer"));
        tk_input_budget_refund(TK_INPUT_BUDGET_WHOLE_BYTES, size);
        g_free(out);
        return NULL;
    }
    out[size] = '\0';
    if (len)
        *len = (size_t)size;
    return out;
}

char *tk_input_file_read(const char *path, tk_input_file_kind kind,
                         size_t *len, char **why)
{
    if (len)
        *len = 0;
    if (kind == TK_INPUT_FILE_PASS_DUMP) {
        set_why(why, g_strdup("pass dump files are streamed, not read whole"));
        return NULL;
    }
    uint64_t size = 0;
    int fd = tk_input_file_open(path, kind, &size, why);
    if (fd < 0)
        return NULL;
    uint64_t limit = kinds[kind].limit;
    /* FILE.zst (a format-4 bundle's kernel files): its frame is read (within
     * KIND's limit, which the text must fit too) and held only while it is
     * inflated, so it is charged to the budget by its text alone. */
    gboolean zst = tk_input_file_is_zstd(path);
    /* The file's own limit, and what is left of the load's (eight kernels
     * naming the same gigabyte): checked before anything is allocated. */
    if (!zst &&
        tk_input_budget_charge(TK_INPUT_BUDGET_WHOLE_BYTES, size, why) != 0) {
        close(fd);
        return NULL;
    }
    /* Read to the end rather than trusting the size (a file still being
     * written, a /proc file that says 0), but never past the limit: one byte
     * more than it tells a file over it. */
    size_t cap = (size_t)size + 1, have = 0;
    char *buf = g_malloc(cap + 1);
    for (;;) {
        if (have == cap) {
            if (cap > limit) {
                set_why(why, g_strdup_printf("grew past the %s a %s may have "
                                             "while it was read",
                                             kinds[kind].limit_words,
                                             kinds[kind].name));
                g_free(buf);
                close(fd);
                return NULL;
            }
            cap = (size_t)MIN((uint64_t)cap * 2, limit + 1);
            buf = g_realloc(buf, cap + 1);
        }
        ssize_t r = read(fd, buf + have, cap - have);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            set_why(why, g_strdup_printf("read error: %s", g_strerror(errno)));
            g_free(buf);
            close(fd);
            return NULL;
        }
        if (r == 0)
            break;
        have += (size_t)r;
    }
    close(fd);
    if (zst) {
        char *text = inflate_frame(buf, have, kind, len, why);
        g_free(buf);
        return text;
    }
    buf[have] = '\0';
    if (len)
        *len = have;
    return buf;
}
