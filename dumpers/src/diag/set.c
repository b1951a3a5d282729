/* set.c - the set of compiler messages (tk_diag.h): making it, reading
 * streams and capture folders into it, and what it hands out. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "diag/internal.h"
#include "tkdump/tk_input_file.h"

const char *diag_str(tk_diag_set *set, const char *s, gssize len)
{
    return len < 0 ? g_string_chunk_insert_const(set->strings, s)
                   : g_string_chunk_insert_len(set->strings, s, len);
}

const char *tk_diag_origin_name(tk_diag_origin origin)
{
    switch (origin) {
    case TK_DIAG_ORIGIN_LLVM:
        return "llvm";
    case TK_DIAG_ORIGIN_PTXAS:
        return "ptxas";
    case TK_DIAG_ORIGIN_FRONTEND:
        return "frontend";
    default:
        return "mlir";
    }
}

const char *tk_diag_level_name(tk_diag_level level)
{
    switch (level) {
    case TK_DIAG_LEVEL_REMARK:
        return "remark";
    case TK_DIAG_LEVEL_WARNING:
        return "warning";
    default:
        return "error";
    }
}

tk_diag_set *tk_diag_set_new(void)
{
    tk_diag_set *set = g_new0(tk_diag_set, 1);
    set->items = g_ptr_array_new();
    set->seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    set->summaries = g_array_new(FALSE, FALSE, sizeof(diag_summary));
    set->kernels = g_array_new(FALSE, TRUE, sizeof(tk_diag_kernel));
    set->strings = g_string_chunk_new(4096);
    return set;
}

void tk_diag_set_free(tk_diag_set *set)
{
    if (!set)
        return;
    for (guint i = 0; i < set->items->len; i++) {
        diag_item *it = set->items->pdata[i];
        g_ptr_array_free(it->notes, TRUE);
        g_array_free(it->frames, TRUE);
        if (it->fe_snippet)
            g_ptr_array_free(it->fe_snippet, TRUE);
        if (it->fe_files)
            g_ptr_array_free(it->fe_files, TRUE);
        g_free(it);
    }
    g_ptr_array_free(set->items, TRUE);
    g_hash_table_destroy(set->seen);
    g_array_free(set->summaries, TRUE);
    g_array_free(set->kernels, TRUE);
    g_string_chunk_free(set->strings);
    g_free(set->source_dir);
    g_free(set);
}

/* Lines longer than this are cut: no message is that long, IR lines are. */
#define LINE_MAX_BYTES (64 * 1024)

typedef struct {
    diag_reader *r;
    char *buf;
    size_t len;
    int cut; /* the current line passed LINE_MAX_BYTES */
} line_feed;

static void feed(line_feed *f, const char *data, size_t len)
{
    while (len) {
        const char *nl = memchr(data, '\n', len);
        size_t n = nl ? (size_t)(nl - data) : len;
        if (nl && f->len == 0) {
            /* A whole line in DATA: read in place, not copied. */
            diag_reader_line(f->r, data, MIN(n, (size_t)LINE_MAX_BYTES));
            data = nl + 1;
            len -= n + 1;
            continue;
        }
        if (f->len < LINE_MAX_BYTES) {
            size_t take = MIN(n, LINE_MAX_BYTES - f->len);
            memcpy(f->buf + f->len, data, take);
            f->len += take;
        }
        if (!nl)
            return;
        diag_reader_line(f->r, f->buf, f->len);
        f->len = 0;
        data = nl + 1;
        len -= n + 1;
    }
}

void tk_diag_set_read(tk_diag_set *set, const char *name, const char *data,
                      size_t len)
{
    line_feed f = {diag_reader_begin(set, name), g_malloc(LINE_MAX_BYTES), 0, 0};
    feed(&f, data, len);
    if (f.len)
        diag_reader_line(f.r, f.buf, f.len);
    diag_reader_end(f.r);
    g_free(f.buf);
}

/* Streams PATH, read as the stream NAME, through the reader in 64 KiB
 * reads. */
static void read_stream_path(tk_diag_set *set, const char *path,
                             const char *name, tk_diags *diags)
{
    set->streams_read++;
    uint64_t size;
    char *why = NULL;
    int fd = tk_input_file_open(path, TK_INPUT_FILE_PASS_DUMP, &size, &why);
    if (fd < 0) {
        if (diags)
            tk_diags_add(diags, TK_DIAG_WARNING, path, 0,
                         "compiler messages not read: %s", why ? why : "");
        g_free(why);
        return;
    }
    line_feed f = {diag_reader_begin(set, name), g_malloc(LINE_MAX_BYTES), 0, 0};
    char *chunk = g_malloc(65536);
    for (;;) {
        ssize_t got = read(fd, chunk, 65536);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 && diags)
            tk_diags_add(diags, TK_DIAG_WARNING, path, 0,
                         "read failed: %s", g_strerror(errno));
        if (got <= 0)
            break;
        feed(&f, chunk, (size_t)got);
    }
    if (f.len)
        diag_reader_line(f.r, f.buf, f.len);
    diag_reader_end(f.r);
    close(fd);
    g_free(chunk);
    g_free(f.buf);
}

/* FOLDER/NAME.txt (a raw capture), else FOLDER/capture/NAME.txt (a tkview
 * bundle).  A missing file is no problem: a capture may have only one of
 * the two. */
static void read_stream_file(tk_diag_set *set, const char *folder,
                             const char *name, tk_diags *diags)
{
    char *file = g_strdup_printf("%s.txt", name);
    char *path = g_build_filename(folder, file, NULL);
    if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
        g_free(path);
        path = g_build_filename(folder, "capture", file, NULL);
    }
    g_free(file);
    if (g_file_test(path, G_FILE_TEST_EXISTS))
        read_stream_path(set, path, name, diags);
    g_free(path);
}

size_t tk_diag_set_read_folder(tk_diag_set *set, const char *folder,
                               tk_diags *diags)
{
    size_t before = set->streams_read;
    char *dir = NULL;
    if (g_file_test(folder, G_FILE_TEST_IS_DIR)) {
        read_stream_file(set, folder, "stderr", diags);
        read_stream_file(set, folder, "stdout", diags);
        dir = g_strdup(folder);
    } else {
        /* One saved stream (a captured stderr, or both streams in one
         * file): every form is looked for in it. */
        dir = g_path_get_dirname(folder);
        read_stream_path(set, folder, "stderr", diags);
    }
    g_free(set->source_dir);
    set->source_dir = g_build_filename(dir, "src", NULL);
    g_free(dir);
    return set->streams_read - before;
}

tk_diag_set *tk_diag_set_load(const char *folder, tk_bundle *bundle,
                              tk_diags *diags)
{
    tk_diag_set *set = tk_diag_set_new();
    tk_diag_set_read_folder(set, folder, diags);
    tk_diag_set_attach(set, bundle, NULL, diags);
    return set;
}

size_t tk_diag_set_stream_count(const tk_diag_set *set)
{
    return set ? set->streams_read : 0;
}

size_t tk_diag_set_count(const tk_diag_set *set)
{
    return set ? set->items->len : 0;
}

const tk_diag_entry *tk_diag_set_entry(const tk_diag_set *set, size_t i)
{
    if (!set || i >= set->items->len)
        return NULL;
    return &((diag_item *)set->items->pdata[i])->pub;
}

size_t tk_diag_set_kernel_count(const tk_diag_set *set)
{
    return set ? set->kernels->len : 0;
}

const tk_diag_kernel *tk_diag_set_kernel(const tk_diag_set *set, size_t i)
{
    if (!set || i >= set->kernels->len)
        return NULL;
    return &g_array_index(set->kernels, tk_diag_kernel, i);
}

size_t tk_diag_set_find_kernel(const tk_diag_set *set, const tk_kernel *kernel)
{
    for (size_t i = 0; set && kernel && i < set->kernels->len; i++)
        if (g_array_index(set->kernels, tk_diag_kernel, i).kernel == kernel)
            return i;
    return SIZE_MAX;
}
