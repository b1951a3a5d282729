/* input_file.c - every input file opened without blocking, checked to be a
 * regular file, and sized before it is read (tk_input_file.h). */
#include "tkdump/tk_input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
    /* The file's own limit, and what is left of the load's (eight kernels
     * naming the same gigabyte): checked before anything is allocated. */
    if (tk_input_budget_charge(TK_INPUT_BUDGET_WHOLE_BYTES, size, why) != 0) {
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
    buf[have] = '\0';
    if (len)
        *len = have;
    return buf;
}
