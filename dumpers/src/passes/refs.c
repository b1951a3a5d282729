/* refs.c - a pass dump text made of pieces of a shared pool: how a bundle
 * stores identical dump text once (docs/bundle.md, "Shared dump text").
 *
 * A kernel's slice in a bundle may be a refs file instead of the text:
 *
 *     tkview-dump-refs 1
 *     pool NAME
 *     IN IN_LEN LEN
 *     ...
 *
 * Its text is the text of each piece in turn; a piece is one whole gzip
 * member of the pool file BUNDLE/dumps/NAME (the refs file lies in
 * BUNDLE/KERNEL/passes/, so the pool is ../../dumps/NAME from it): IN_LEN
 * bytes at byte IN of the pool, inflating to LEN bytes of text.  The bundle
 * writer cuts each dump into its header and pieces of at most
 * PASSES_REFS_PIECE bytes of body, and stores each distinct piece once:
 * compiles whose dumps are identical (the dumps before a pass that changed
 * nothing, configurations that part late) share them.
 *
 * The file is read from a stranger: NAME is a plain file name; every piece
 * must lie inside the pool, be a member of at most PASSES_REFS_MAX_PIECE
 * bytes of text that inflates to exactly LEN bytes, and the pool must be a
 * gzip file (never another refs file: no loops).  That the pool is inside
 * the bundle is the bundle reader's check (passfiles/, bundle_may_read()),
 * made before the file is indexed.  What the text costs is charged as any
 * text is, while it is indexed (the load's budget).
 *
 * Reads inflate the one piece they fall in, from its start, and keep that
 * piece's text until the next read needs another: reads in order inflate
 * each piece once.  Safe from two threads (one read at a time).
 */
#include "passes/internal.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "tkdump/tk_input_file.h"

typedef struct {
    uint64_t out;    /* text offset of the piece */
    uint64_t in;     /* pool offset of its member */
    uint64_t in_len; /* bytes of the member */
    uint64_t len;    /* bytes of text */
} piece;

struct passes_refs {
    int pool_fd;
    uint64_t pool_size;
    piece *pieces;
    size_t n;
    uint64_t size;  /* of the whole text */
    GMutex lock;
    size_t held;    /* the piece whose text is in TEXT (n: none) */
    int cut;        /* the file ends inside a line: read up to it */
    unsigned char *text;
};

int passes_refs_is(int fd)
{
    char head[sizeof PASSES_REFS_MAGIC - 1];
    return pread(fd, head, sizeof head, 0) == (ssize_t)sizeof head &&
           memcmp(head, PASSES_REFS_MAGIC, sizeof head) == 0;
}

/* Whether NAME is a plain file name: no folder, no "..", no hidden file. */
static int plain_name(const char *name)
{
    if (!*name || name[0] == '.' || strlen(name) > 200)
        return 0;
    for (const char *c = name; *c; c++)
        if (!g_ascii_isalnum(*c) && *c != '.' && *c != '_' && *c != '-')
            return 0;
    return 1;
}

/* Parses "pool NAME" from the text T; the pool's path beside PATH. */
static char *pool_of(const char *path, const char *t, char **why)
{
    const char *line = t + strlen(PASSES_REFS_MAGIC);
    const char *end = strchr(line, '\n');
    if (strncmp(line, "pool ", 5) != 0 || !end) {
        *why = g_strdup("no \"pool NAME\" line after the first");
        return NULL;
    }
    char *name = g_strndup(line + 5, (size_t)(end - line - 5));
    if (!plain_name(name)) {
        *why = g_strdup_printf("the pool \"%s\" is not a plain file name", name);
        g_free(name);
        return NULL;
    }
    char *dir = g_path_get_dirname(path);
    char *pool = g_build_filename(dir, "..", "..", "dumps", name, NULL);
    g_free(dir);
    g_free(name);
    return pool;
}

/* The refs file's text, whole (it is small: a line per piece). */
static char *read_refs(const char *path, char **why)
{
    char *text = tk_input_file_read(path, TK_INPUT_FILE_STAGE, NULL, why);
    if (text && !g_str_has_prefix(text, PASSES_REFS_MAGIC)) {
        *why = g_strdup("not a tkview dump refs file");
        g_free(text);
        return NULL;
    }
    return text;
}

char *passes_refs_pool_path(const char *path, char **why)
{
    char *text = read_refs(path, why);
    char *pool = text ? pool_of(path, text, why) : NULL;
    g_free(text);
    return pool;
}

static int parse_pieces(passes_refs *r, const char *t, char **why)
{
    GArray *a = g_array_new(FALSE, FALSE, sizeof(piece));
    const char *s = strchr(t + strlen(PASSES_REFS_MAGIC), '\n') + 1;
    unsigned long long line = 3;
    for (; *s; line++) {
        if (!strchr(s, '\n')) {
            r->cut = 1; /* a cut file: the pieces before its last line */
            break;
        }
        char *end = NULL;
        piece p = {r->size, 0, 0, 0};
        p.in = g_ascii_strtoull(s, &end, 10);
        if (end != s && *end == ' ')
            p.in_len = g_ascii_strtoull(s = end + 1, &end, 10);
        if (end != s && *end == ' ')
            p.len = g_ascii_strtoull(s = end + 1, &end, 10);
        if (end == s || *end != '\n' || p.in_len < 18 ||
            p.in > r->pool_size || p.in_len > r->pool_size - p.in ||
            p.len == 0 || p.len > PASSES_REFS_MAX_PIECE) {
            *why = g_strdup_printf("line %llu is no piece of the pool "
                                   "(IN IN_LEN LEN, inside its %llu bytes, "
                                   "at most %d bytes of text)",
                                   line, (unsigned long long)r->pool_size,
                                   PASSES_REFS_MAX_PIECE);
            g_array_free(a, TRUE);
            return -1;
        }
        s = end + 1;
        if (p.len > UINT64_MAX - r->size) {
            *why = g_strdup("its text is too large");
            g_array_free(a, TRUE);
            return -1;
        }
        r->size += p.len;
        g_array_append_val(a, p);
    }
    r->n = a->len;
    r->pieces = (piece *)(void *)g_array_free(a, FALSE);
    return 0;
}

passes_refs *passes_refs_open(const char *path, char **why)
{
    char *text = read_refs(path, why);
    char *pool = text ? pool_of(path, text, why) : NULL;
    if (!pool) {
        g_free(text);
        return NULL;
    }
    passes_refs *r = g_new0(passes_refs, 1);
    g_mutex_init(&r->lock);
    r->pool_fd = tk_input_file_open(pool, TK_INPUT_FILE_PASS_DUMP, NULL, why);
    struct stat st;
    unsigned char magic[2];
    if (r->pool_fd >= 0 && (fstat(r->pool_fd, &st) != 0 ||
                            pread(r->pool_fd, magic, 2, 0) != 2 ||
                            magic[0] != 0x1f || magic[1] != 0x8b)) {
        *why = g_strdup_printf("its pool %s is not a gzip file", pool);
        close(r->pool_fd);
        r->pool_fd = -1;
    }
    if (r->pool_fd >= 0) {
        r->pool_size = (uint64_t)st.st_size;
        if (parse_pieces(r, text, why) == 0) {
            r->held = r->n;
            g_free(text);
            g_free(pool);
            return r;
        }
    } else if (!*why) {
        *why = g_strdup_printf("cannot open its pool %s", pool);
    }
    g_free(text);
    g_free(pool);
    passes_refs_free(r);
    return NULL;
}

void passes_refs_free(passes_refs *r)
{
    if (!r)
        return;
    if (r->pool_fd >= 0)
        close(r->pool_fd);
    g_free(r->pieces);
    g_free(r->text);
    g_mutex_clear(&r->lock);
    g_free(r);
}

uint64_t passes_refs_size(const passes_refs *r)
{
    return r->size;
}

int passes_refs_cut(const passes_refs *r)
{
    return r->cut;
}

void passes_refs_drop(passes_refs *r)
{
    g_mutex_lock(&r->lock);
    g_free(r->text);
    r->text = NULL;
    r->held = r->n;
    g_mutex_unlock(&r->lock);
}

/* Inflates piece I into R->text.  Returns 0, or -1 (damaged, unreadable). */
static int hold(passes_refs *r, size_t i)
{
    if (r->held == i)
        return 0;
    const piece *p = &r->pieces[i];
    unsigned char *in = g_malloc(p->in_len);
    ssize_t got = pread(r->pool_fd, in, p->in_len, (off_t)p->in);
    if (!r->text)
        r->text = g_malloc(PASSES_REFS_MAX_PIECE);
    r->held = r->n;
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    int ok = got == (ssize_t)p->in_len &&
             inflateInit2(&zs, 16 + MAX_WBITS) == Z_OK;
    if (ok) {
        zs.next_in = in;
        zs.avail_in = (uInt)p->in_len;
        zs.next_out = r->text;
        zs.avail_out = (uInt)p->len;
        /* One member, exactly LEN bytes of text, and nothing after it. */
        ok = inflate(&zs, Z_FINISH) == Z_STREAM_END && zs.total_out == p->len &&
             zs.avail_in == 0;
        inflateEnd(&zs);
    }
    g_free(in);
    if (!ok)
        return -1;
    r->held = i;
    return 0;
}

/* The piece that holds text offset OFF (< size). */
static size_t piece_at(const passes_refs *r, uint64_t off)
{
    size_t lo = 0, hi = r->n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->pieces[mid].out <= off)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

int64_t passes_refs_pread(passes_refs *r, uint64_t off, char *buf, size_t n)
{
    if (off >= r->size || n == 0)
        return 0;
    g_mutex_lock(&r->lock);
    size_t done = 0;
    size_t i = piece_at(r, off);
    while (done < n && i < r->n) {
        if (hold(r, i) != 0) {
            g_mutex_unlock(&r->lock);
            errno = EIO;
            return done ? (int64_t)done : -1;
        }
        const piece *p = &r->pieces[i];
        uint64_t at = off + done - p->out;
        size_t take = (size_t)MIN((uint64_t)(n - done), p->len - at);
        memcpy(buf + done, r->text + at, take);
        done += take;
        i++;
    }
    g_mutex_unlock(&r->lock);
    return (int64_t)done;
}
