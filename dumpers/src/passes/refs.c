/* refs.c - a pass dump text made of pieces of a shared pool: how a bundle
 * stores identical dump text once, and like text as a difference
 * (docs/bundle.md, "Shared dump text").
 *
 * A kernel's slice in a bundle may be a refs file instead of the text:
 *
 *     tkview-dump-refs 2                 (1: format_version 2 bundles)
 *     pool NAME
 *     IN IN_LEN LEN [BIN BIN_LEN BLEN]
 *     ...
 *
 * Its text is the text of each piece in turn.  The pool is
 * BUNDLE/dumps/NAME (the refs file lies in BUNDLE/KERNEL/passes/, so the
 * pool is ../../dumps/NAME from it).  Version 1: a piece is one whole gzip
 * member, IN_LEN bytes at byte IN of the pool, inflating to LEN bytes of
 * text.  Version 2: a piece is one whole zstd frame there, decoding to LEN
 * bytes; with BIN BIN_LEN BLEN it was compressed against the text of its
 * base, another frame of the pool (decoded alone, to BLEN bytes), as a
 * prefix: the same pass of another configuration, a few lines apart.  The
 * bundle writer cuts each dump into its header and pieces of at most
 * PASSES_REFS_PIECE bytes of body, and stores each distinct piece once.
 *
 * The file is read from a stranger: NAME is a plain file name; every piece
 * and base must lie inside the pool and hold at most PASSES_REFS_MAX_PIECE
 * bytes of text; a frame must declare exactly the size the line gives,
 * decode to it and end where the line says; a base is decoded without one
 * of its own, so a chain or loop of bases cannot be followed: a base that
 * is itself a piece with a base in the same file, or a piece that is its
 * own base, refuses the file, and elsewhere it fails to decode (a damaged
 * piece).  Frames carry zstd's checksum: a wrong base gives no wrong text.
 * The pool must be a gzip (version 1) or zstd (version 2) file, never
 * another refs file (no loops).  That the pool is inside the bundle is the
 * bundle reader's check (passfiles/, bundle_may_read()), made before the
 * file is indexed.  What the text costs is charged as any text is, while
 * it is indexed (the load's budget).
 *
 * Reads decode the one piece they fall in (and its base), and keep that
 * piece's text and the last base until the next read needs others: reads
 * in order decode each piece once; a small frame decoded alone is decoded
 * once for every refs file of the pool (frame_cache.c: a bundle's slices
 * name the same header pieces).  Safe from two threads (one read at a
 * time).
 */
#include "passes/internal.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "tkdump/tk_input_file.h"

typedef struct {
    uint64_t out;    /* text offset of the piece */
    uint64_t in;     /* pool offset of its member or frame */
    uint64_t in_len; /* bytes of it */
    uint64_t len;    /* bytes of text */
    uint64_t bin, bin_len, blen; /* its base's frame and text (bin_len 0: none) */
} piece;

struct passes_refs {
    int version;    /* 1: gzip members; 2: zstd frames */
    int pool_fd;
    uint64_t pool_size;
    piece *pieces;
    size_t n;
    uint64_t size;  /* of the whole text */
    GMutex lock;
    size_t held;    /* the piece whose text is in TEXT (n: none) */
    int cut;        /* the file ends inside a line: read up to it */
    unsigned char *text;
    uint64_t text_cap;
    ZSTD_DCtx *dctx;
    unsigned char *base;        /* the last base decoded */
    uint64_t base_in, base_in_len, base_len; /* which (base_len 0: none) */
    passes_pool_id pool_id; /* its small frames' decoded text is shared */
    char *why;      /* why the last read failed */
};

int passes_refs_is(int fd)
{
    char head[sizeof PASSES_REFS_MAGIC - 1];
    return pread(fd, head, sizeof head, 0) == (ssize_t)sizeof head &&
           (memcmp(head, PASSES_REFS_MAGIC, sizeof head) == 0 ||
            memcmp(head, PASSES_REFS_MAGIC2, sizeof head) == 0);
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
    if (text && !g_str_has_prefix(text, PASSES_REFS_MAGIC) &&
        !g_str_has_prefix(text, PASSES_REFS_MAGIC2)) {
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

/* Reads the next number of line S (after a space when AFTER_SPACE). */
static int number(const char **s, int after_space, uint64_t *v)
{
    const char *p = *s;
    if (after_space && *p++ != ' ')
        return 0;
    if (!g_ascii_isdigit(*p))
        return 0;
    size_t n = passes_digits_u64(p, 10, v);
    if (n) {
        *s = p + n;
        return 1;
    }
    char *end = NULL;
    *v = g_ascii_strtoull(p, &end, 10);
    *s = end;
    return end != p;
}

/* The most bytes a frame or member of PASSES_REFS_MAX_PIECE bytes of text
 * takes (text that does not compress, and the headers): what a read may
 * allocate for one, whatever the refs file says. */
#define MAX_FRAME (PASSES_REFS_MAX_PIECE + PASSES_REFS_MAX_PIECE / 64 + 4096)

/* Whether [IN, IN + IN_LEN) is a frame or member of the pool that can hold
 * between 1 and PASSES_REFS_MAX_PIECE bytes of text. */
static int in_pool(const passes_refs *r, uint64_t in, uint64_t in_len,
                   uint64_t len)
{
    uint64_t least = r->version == 1 ? 18 : 9; /* the smallest header */
    return in_len >= least && in_len <= MAX_FRAME && in <= r->pool_size &&
           in_len <= r->pool_size - in && len > 0 &&
           len <= PASSES_REFS_MAX_PIECE;
}

/* Refuses a base that is itself a piece with a base, or a piece's own:
 * bases are decoded alone (no chains, no loops). */
static int check_bases(const piece *ps, size_t n, char **why)
{
    GHashTable *with_base = g_hash_table_new(g_int64_hash, g_int64_equal);
    for (size_t i = 0; i < n; i++)
        if (ps[i].bin_len)
            g_hash_table_insert(with_base, (gpointer)&ps[i].in,
                                GSIZE_TO_POINTER(i + 1));
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        if (!ps[i].bin_len)
            continue;
        if (ps[i].bin == ps[i].in) {
            *why = g_strdup_printf("line %zu names its own frame as its base", i + 3);
            ok = 0;
            break;
        }
        size_t other = GPOINTER_TO_SIZE(
            g_hash_table_lookup(with_base, (gconstpointer)&ps[i].bin));
        if (!other)
            continue;
        ok = 0;
        *why = g_strdup_printf("line %zu: its base (byte %llu of the pool) is itself "
                               "a piece with a base (line %zu): a chain of bases is "
                               "refused",
                               i + 3, (unsigned long long)ps[i].bin, other + 2);
    }
    g_hash_table_destroy(with_base);
    return ok ? 0 : -1;
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
        piece p = {r->size, 0, 0, 0, 0, 0, 0};
        int ok = number(&s, 0, &p.in) && number(&s, 1, &p.in_len) &&
                 number(&s, 1, &p.len) && in_pool(r, p.in, p.in_len, p.len);
        if (ok && *s == ' ' && r->version >= 2) {
            ok = number(&s, 1, &p.bin) && number(&s, 1, &p.bin_len) &&
                 number(&s, 1, &p.blen);
            if (ok && !in_pool(r, p.bin, p.bin_len, p.blen)) {
                *why = g_strdup_printf("line %llu: its base (%llu bytes at byte %llu, "
                                       "%llu of text) is missing from the pool of "
                                       "%llu bytes",
                                       line, (unsigned long long)p.bin_len,
                                       (unsigned long long)p.bin,
                                       (unsigned long long)p.blen,
                                       (unsigned long long)r->pool_size);
                g_array_free(a, TRUE);
                return -1;
            }
        }
        if (!ok || *s != '\n') {
            *why = g_strdup_printf("line %llu is no piece of the pool "
                                   "(IN IN_LEN LEN%s, inside its %llu bytes, "
                                   "at most %d bytes of text in at most %d)",
                                   line, r->version >= 2 ? " [BIN BIN_LEN BLEN]" : "",
                                   (unsigned long long)r->pool_size,
                                   PASSES_REFS_MAX_PIECE, MAX_FRAME);
            g_array_free(a, TRUE);
            return -1;
        }
        s++;
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
    return check_bases(r->pieces, r->n, why);
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
    r->version = g_str_has_prefix(text, PASSES_REFS_MAGIC2) ? 2 : 1;
    r->pool_fd = tk_input_file_open(pool, TK_INPUT_FILE_PASS_DUMP, NULL, why);
    struct stat st;
    unsigned char magic[4];
    static const unsigned char gz[2] = {0x1f, 0x8b};
    static const unsigned char zst[4] = {0x28, 0xb5, 0x2f, 0xfd};
    if (r->pool_fd >= 0 &&
        (fstat(r->pool_fd, &st) != 0 || pread(r->pool_fd, magic, 4, 0) != 4 ||
         memcmp(magic, r->version == 1 ? gz : zst, r->version == 1 ? 2 : 4) != 0)) {
        *why = g_strdup_printf("its pool %s is not a %s file", pool,
                               r->version == 1 ? "gzip" : "zstd");
        close(r->pool_fd);
        r->pool_fd = -1;
    }
    if (r->pool_fd >= 0 && r->version == 2 && !(r->dctx = ZSTD_createDCtx())) {
        *why = g_strdup("out of memory for a zstd decoder");
        close(r->pool_fd);
        r->pool_fd = -1;
    }
    if (r->pool_fd >= 0) {
        r->pool_size = (uint64_t)st.st_size;
        r->pool_id.dev = (uint64_t)st.st_dev;
        r->pool_id.ino = (uint64_t)st.st_ino;
        r->pool_id.size = (uint64_t)st.st_size;
        r->pool_id.mtime_ns =
            (int64_t)st.st_mtim.tv_sec * 1000000000 + (int64_t)st.st_mtim.tv_nsec;
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
    g_free(r->base);
    g_free(r->why);
    ZSTD_freeDCtx(r->dctx);
    g_mutex_clear(&r->lock);
    g_free(r);
}

uint64_t passes_refs_size(const passes_refs *r)
{
    return r->size;
}

const char *passes_refs_why(const passes_refs *r)
{
    return r->why;
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
    r->text_cap = 0;
    g_free(r->base);
    r->base = NULL;
    r->base_len = 0;
    r->held = r->n;
    g_mutex_unlock(&r->lock);
}

/* Inflates the gzip member of piece P into OUT (P->len bytes).  Returns 0,
 * or -1 (damaged, unreadable). */
static int inflate_piece(passes_refs *r, const piece *p, unsigned char *out)
{
    unsigned char *in = g_malloc(p->in_len);
    ssize_t got = pread(r->pool_fd, in, p->in_len, (off_t)p->in);
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    int ok = got == (ssize_t)p->in_len &&
             inflateInit2(&zs, 16 + MAX_WBITS) == Z_OK;
    if (ok) {
        zs.next_in = in;
        zs.avail_in = (uInt)p->in_len;
        zs.next_out = out;
        zs.avail_out = (uInt)p->len;
        /* One member, exactly LEN bytes of text, and nothing after it. */
        ok = inflate(&zs, Z_FINISH) == Z_STREAM_END && zs.total_out == p->len &&
             zs.avail_in == 0;
        inflateEnd(&zs);
    }
    g_free(in);
    return ok ? 0 : -1;
}

/* Decodes the zstd frame of IN_LEN bytes at IN into OUT, which it must fill
 * exactly (LEN bytes), with PREFIX (PLEN bytes; NULL: none) as the text
 * before it.  Returns 0, or -1 with R->why set. */
static int decode_frame(passes_refs *r, uint64_t in, uint64_t in_len, uint64_t len,
                        const unsigned char *prefix, uint64_t plen,
                        unsigned char *out, size_t line)
{
    unsigned char *frame = g_malloc(in_len);
    const char *bad = NULL;
    if (pread(r->pool_fd, frame, in_len, (off_t)in) != (ssize_t)in_len)
        bad = "cannot be read";
    else if (ZSTD_getFrameContentSize(frame, in_len) != len)
        bad = "does not declare the size of text the refs file gives";
    else if (ZSTD_findFrameCompressedSize(frame, in_len) != in_len)
        bad = "is not one whole frame of the length the refs file gives";
    if (!bad) {
        /* A fresh session each time: a prefix is for one frame only. */
        ZSTD_DCtx_reset(r->dctx, ZSTD_reset_session_and_parameters);
        ZSTD_DCtx_setParameter(r->dctx, ZSTD_d_windowLogMax, 24);
        size_t rc = prefix ? ZSTD_DCtx_refPrefix(r->dctx, prefix, plen) : 0;
        if (!ZSTD_isError(rc))
            rc = ZSTD_decompressDCtx(r->dctx, out, len, frame, in_len);
        if (ZSTD_isError(rc) || rc != len)
            bad = prefix ? "does not decode with its base (damaged, or not made "
                           "against that base)"
                         : "does not decode alone (damaged, or made against a base)";
    }
    g_free(frame);
    if (!bad)
        return 0;
    g_free(r->why);
    r->why = g_strdup_printf("line %zu: the frame at byte %llu of the pool %s", line,
                             (unsigned long long)in, bad);
    return -1;
}

/* Decodes piece I (and its base) into R->text.  Returns 0, or -1. */
static int hold(passes_refs *r, size_t i)
{
    if (r->held == i)
        return 0;
    const piece *p = &r->pieces[i];
    r->held = r->n;
    if (r->text_cap < p->len) {
        g_free(r->text);
        r->text = g_malloc(r->text_cap = p->len);
    }
    if (r->version == 1) {
        if (inflate_piece(r, p, r->text) != 0) {
            g_free(r->why);
            r->why = g_strdup_printf("line %zu: its gzip member is damaged", i + 3);
            return -1;
        }
    } else {
        if (p->bin_len && (r->base_len != p->blen || r->base_in != p->bin ||
                           r->base_in_len != p->bin_len)) {
            g_free(r->base);
            r->base = g_malloc(p->blen);
            r->base_len = 0;
            if (decode_frame(r, p->bin, p->bin_len, p->blen, NULL, 0, r->base, i + 3) != 0)
                return -1;
            r->base_in = p->bin;
            r->base_in_len = p->bin_len;
            r->base_len = p->blen;
        }
        if (p->bin_len) {
            if (decode_frame(r, p->in, p->in_len, p->len, r->base, p->blen, r->text,
                             i + 3) != 0)
                return -1;
        } else if (!passes_frame_cache_get(&r->pool_id, p->in, p->in_len, p->len,
                                           r->text)) {
            if (decode_frame(r, p->in, p->in_len, p->len, NULL, 0, r->text, i + 3) != 0)
                return -1;
            passes_frame_cache_put(&r->pool_id, p->in, p->in_len, r->text, p->len);
        }
    }
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
