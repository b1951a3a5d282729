/* gz.c - a gzip file read as its text, at any offset, without being
 * decompressed to disk or into memory.
 *
 * A deflate stream cannot be entered in the middle: a block may refer to
 * the 32 KB of text before it, and blocks start at any bit.  So the one
 * pass that indexes the file also records restart points: about every
 * GZ_SPAN bytes of text, at the end of a deflate block, where the next
 * block starts (its byte and bit in the file) and the 32 KB of text before
 * it (the dictionary a restart needs).  A read at an offset restarts at the
 * point before it and inflates at most GZ_SPAN bytes to get there; reads in
 * order go on from where the last one stopped.  Each gzip member (bundles
 * write concatenated members) starts a point of its own, with no
 * dictionary.  Built on zlib's documented interface only: inflate() with
 * Z_BLOCK to stop at block ends, inflatePrime() for the bits of a
 * block's first byte, inflateSetDictionary() for the text before it.
 *
 * Memory: GZ_WINDOW bytes per point, GZ_WINDOW / GZ_SPAN of the text
 * (16 MB for a 2 GB text), plus the input buffer.
 */
#include "passes/internal.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define GZ_SPAN ((uint64_t)4 << 20) /* text between restart points */
/* Past this many points (64 MB of dictionaries: a 16 GB text, or a gzip
 * bomb) every other one is dropped and the span doubles: memory stays
 * bounded, reads inflate further. */
#define GZ_MAX_POINTS 2048
#define GZ_WINDOW 32768             /* deflate's dictionary */
#define GZ_IN ((size_t)64 << 10)    /* compressed bytes read at a time */
#define GZ_SKIP ((size_t)64 << 10)  /* text inflated and dropped at a time */

typedef struct {
    uint64_t out;          /* text offset where the point is */
    uint64_t in;           /* file offset of the first whole byte after it */
    int bits;              /* bits of the byte before IN still to inflate */
    unsigned char byte;    /* that byte */
    int member;            /* a gzip member starts at IN: no dictionary */
    unsigned char *window; /* the GZ_WINDOW (or fewer) bytes before OUT */
    size_t window_len;
} gz_point;

/* One place in the text being inflated.  Reads go on from the cursor
 * nearest before them: a diff reads two texts of one file by turns, and
 * each keeps its own cursor instead of restarting the other's. */
typedef struct {
    z_stream zs;
    int live;            /* ZS is initialized */
    int raw;             /* ZS inflates raw deflate (restarted in a member) */
    int ended;           /* ZS produced the last byte of the text */
    unsigned char *in;   /* GZ_IN bytes */
    uint64_t in_off;     /* file offset of the byte after those in IN */
    unsigned char last;  /* the byte before ZS.next_in, when IN was refilled */
    uint64_t out;        /* text offset of the next byte ZS produces */
    uint64_t used;       /* when it was last read from */
} gz_cursor;

#define GZ_CURSORS 4

/* Text read back is kept in blocks: the timeline reads a text more than
 * once (normalized as it streams by, its locations, then the lines a front
 * end shows), and each read that a cursor cannot go on to restarts
 * inflating up to GZ_SPAN before it.  All gzip files of the process share
 * one budget of GZ_CACHE_BYTES of blocks (a bundle has a file or two per
 * kernel): a capture's usual text (a few MB) is inflated about once, and a
 * 2 GB one costs no more memory than that. */
#define GZ_BLOCK ((size_t)256 << 10)
#define GZ_BLOCKS 64                          /* per file, at most */
#define GZ_CACHE_BYTES ((gssize)32 << 20)     /* all files together */
static gssize gz_cache_bytes;                 /* atomic: what they hold */

typedef struct {
    unsigned char *data; /* GZ_BLOCK bytes, NULL when not allocated */
    uint64_t idx;        /* text offset / GZ_BLOCK */
    size_t len;          /* GZ_BLOCK, less for the last block */
    uint64_t used;       /* when it was last read from */
    int valid;
} gz_block;

struct passes_gz {
    int fd;
    GMutex lock;
    gz_cursor cur[GZ_CURSORS];
    gz_cursor *c;        /* the one being read */
    uint64_t clock;
    gz_block blocks[GZ_BLOCKS];

    /* The indexing pass. */
    int recording;
    unsigned char *ring; /* the last GZ_WINDOW bytes of text, circular */
    size_t ring_n, ring_at;
    uint64_t last_point;
    uint64_t span;       /* text between points: GZ_SPAN, doubled when thinned */
    GArray *points;      /* gz_point */
    uint64_t size;       /* the text's size, once the pass is over */
    char *damage;        /* what stopped the pass early, NULL when whole */
    char *scratch;       /* GZ_SKIP bytes */
    passes_refs *refs;   /* or: a refs file's text (refs.c), read through it */
    uint64_t refs_at;    /* where the pass in order is in it */
};

static void end_stream(passes_gz *g)
{
    if (g->c->live)
        inflateEnd(&g->c->zs);
    g->c->live = 0;
}

static int start_stream(passes_gz *g, int raw)
{
    end_stream(g);
    if (!g->c->in)
        g->c->in = g_malloc(GZ_IN);
    memset(&g->c->zs, 0, sizeof g->c->zs);
    /* 15 + 32: a gzip or zlib header, detected; -15: raw deflate. */
    if (inflateInit2(&g->c->zs, raw ? -15 : 15 + 32) != Z_OK)
        return -1;
    g->c->live = 1;
    g->c->raw = raw;
    g->c->ended = 0;
    return 0;
}

passes_gz *passes_gz_new(int fd)
{
    passes_gz *g = g_new0(passes_gz, 1);
    g->fd = fd;
    g_mutex_init(&g->lock);
    g->c = &g->cur[0];
    g->ring = g_malloc(GZ_WINDOW);
    g->scratch = g_malloc(GZ_SKIP);
    g->points = g_array_new(FALSE, FALSE, sizeof(gz_point));
    g->recording = 1;
    g->span = GZ_SPAN;
    if (start_stream(g, 0) != 0) {
        passes_gz_free(g);
        return NULL;
    }
    gz_point first = {.member = 1};
    g_array_append_val(g->points, first);
    return g;
}

passes_gz *passes_gz_new_refs(passes_refs *r)
{
    passes_gz *g = g_new0(passes_gz, 1);
    g->fd = -1;
    g_mutex_init(&g->lock);
    g->c = &g->cur[0];
    g->points = g_array_new(FALSE, FALSE, sizeof(gz_point));
    g->refs = r;
    g->recording = 1;
    g->size = passes_refs_size(r);
    if (passes_refs_cut(r))
        g->damage = g_strdup("its refs file is cut short");
    return g;
}

/* The pass in order over a refs file's text: a damaged piece ends it. */
static ssize_t refs_next(passes_gz *g, char *buf, size_t n)
{
    int64_t r = passes_refs_pread(g->refs, g->refs_at, buf, n);
    if (r < 0) {
        if (!g->damage) {
            const char *why = passes_refs_why(g->refs);
            g->damage = g_strdup_printf("a piece of its pool is damaged%s%s",
                                        why ? ": " : "", why ? why : "");
        }
        g->size = g->refs_at;
        r = 0;
    }
    g->refs_at += (uint64_t)r;
    if (r == 0)
        g->recording = 0;
    return (ssize_t)r;
}

void passes_gz_free(passes_gz *g)
{
    if (!g)
        return;
    passes_refs_free(g->refs);
    for (int i = 0; i < GZ_CURSORS; i++) {
        g->c = &g->cur[i];
        end_stream(g);
        g_free(g->c->in);
    }
    for (int i = 0; i < GZ_BLOCKS; i++)
        if (g->blocks[i].data) {
            g_free(g->blocks[i].data);
            g_atomic_pointer_add(&gz_cache_bytes, -(gssize)GZ_BLOCK);
        }
    for (guint i = 0; i < g->points->len; i++)
        g_free(g_array_index(g->points, gz_point, i).window);
    g_array_free(g->points, TRUE);
    g_mutex_clear(&g->lock);
    g_free(g->ring);
    g_free(g->scratch);
    g_free(g->damage);
    g_free(g);
}

int passes_gz_in_order(const passes_gz *g)
{
    return g->recording;
}

uint64_t passes_gz_size(const passes_gz *g)
{
    return g->size;
}

const char *passes_gz_damage(const passes_gz *g)
{
    return g->damage;
}

/* ---- the indexing pass's records ----------------------------------------- */

static void ring_add(passes_gz *g, const unsigned char *p, size_t n)
{
    if (n >= GZ_WINDOW) {
        memcpy(g->ring, p + n - GZ_WINDOW, GZ_WINDOW);
        g->ring_n = GZ_WINDOW;
        g->ring_at = 0;
        return;
    }
    while (n > 0) {
        size_t k = GZ_WINDOW - g->ring_at < n ? GZ_WINDOW - g->ring_at : n;
        memcpy(g->ring + g->ring_at, p, k);
        g->ring_at = (g->ring_at + k) % GZ_WINDOW;
        g->ring_n = g->ring_n + k > GZ_WINDOW ? GZ_WINDOW : g->ring_n + k;
        p += k;
        n -= k;
    }
}

/* The file offset of the byte ZS takes next. */
static uint64_t in_pos(const passes_gz *g)
{
    return g->c->in_off - g->c->zs.avail_in;
}

/* Drops every other point that is not a member's start. */
static void thin(passes_gz *g)
{
    guint out = 0;
    for (guint i = 0; i < g->points->len; i++) {
        gz_point *pt = &g_array_index(g->points, gz_point, i);
        if (pt->member || i % 2 == 0)
            g_array_index(g->points, gz_point, out++) = *pt;
        else
            g_free(pt->window);
    }
    g_array_set_size(g->points, out);
    g->span *= 2;
}

static void add_point(passes_gz *g)
{
    if (g->points->len >= GZ_MAX_POINTS)
        thin(g);
    gz_point pt = {.out = g->c->out, .in = in_pos(g), .bits = g->c->zs.data_type & 7};
    pt.byte = g->c->zs.next_in > g->c->in ? g->c->zs.next_in[-1] : g->c->last;
    pt.window_len = g->ring_n;
    pt.window = g_malloc(g->ring_n);
    /* The ring, oldest byte first. */
    size_t start = (g->ring_at + GZ_WINDOW - g->ring_n) % GZ_WINDOW;
    size_t first = GZ_WINDOW - start < g->ring_n ? GZ_WINDOW - start : g->ring_n;
    memcpy(pt.window, g->ring + start, first);
    memcpy(pt.window + first, g->ring, g->ring_n - first);
    g_array_append_val(g->points, pt);
    g->last_point = g->c->out;
}

/* ---- inflating ---------------------------------------------------------------- */

static void set_damage(passes_gz *g, const char *why)
{
    if (!g->damage)
        g->damage = g_strdup(why);
}

/* Inflates up to N bytes of text into DST (NULL: into the scratch, dropped).
 * Returns how many; fewer than N only at the end of the text or on damage
 * (-1 when nothing could be made of a read error). */
static int64_t produce(passes_gz *g, unsigned char *dst, size_t n)
{
    size_t done = 0;
    while (done < n && !g->c->ended) {
        if (g->c->zs.avail_in == 0) {
            if (g->c->zs.next_in && g->c->zs.next_in > g->c->in)
                g->c->last = g->c->zs.next_in[-1];
            ssize_t r;
            do
                r = pread(g->fd, g->c->in, GZ_IN, (off_t)g->c->in_off);
            while (r < 0 && errno == EINTR);
            if (r < 0)
                return -1;
            if (r == 0) {
                /* The file ends inside a member: cut short. */
                if (g->recording)
                    set_damage(g, "the compressed file is cut short");
                g->c->ended = 1;
                break;
            }
            g->c->zs.next_in = g->c->in;
            g->c->zs.avail_in = (uInt)r;
            g->c->in_off += (uint64_t)r;
        }
        unsigned char *to = dst ? dst + done : (unsigned char *)g->scratch;
        size_t room = dst ? n - done : (n - done < GZ_SKIP ? n - done : GZ_SKIP);
        if (room > UINT_MAX)
            room = UINT_MAX;
        g->c->zs.next_out = to;
        g->c->zs.avail_out = (uInt)room;
        int ret = inflate(&g->c->zs, g->recording ? Z_BLOCK : Z_NO_FLUSH);
        size_t got = room - g->c->zs.avail_out;
        if (g->recording && got)
            ring_add(g, to, got);
        done += got;
        g->c->out += got;
        if (ret == Z_STREAM_END) {
            /* A member ends; another may follow. */
            uint64_t at = in_pos(g);
            if (g->c->raw)
                at += 8; /* its trailer, which raw inflate leaves */
            unsigned char head[2];
            ssize_t r = pread(g->fd, head, 2, (off_t)at);
            if (r != 2 || head[0] != 0x1f || head[1] != 0x8b) {
                g->c->ended = 1; /* the end (what follows is no member) */
                break;
            }
            if (start_stream(g, 0) != 0)
                return -1;
            g->c->in_off = at;
            g->c->zs.avail_in = 0;
            g->c->zs.next_in = NULL;
            if (g->recording) {
                g->ring_n = g->ring_at = 0;
                gz_point pt = {.out = g->c->out, .in = at, .member = 1};
                g_array_append_val(g->points, pt);
                g->last_point = g->c->out;
            }
            continue;
        }
        if (ret == Z_BUF_ERROR && g->c->zs.avail_in == 0)
            continue; /* needs more input */
        if (ret != Z_OK && ret != Z_BUF_ERROR) {
            if (g->recording && !g->damage)
                g->damage = g_strdup_printf("the compressed data is damaged (%s)",
                                            g->c->zs.msg ? g->c->zs.msg : "zlib error");
            g->c->ended = 1;
            break;
        }
        /* At the end of a deflate block that is not the last: a place to
         * restart from. */
        if (g->recording && (g->c->zs.data_type & 128) && !(g->c->zs.data_type & 64) &&
            g->c->out - g->last_point >= g->span)
            add_point(g);
        if (ret == Z_BUF_ERROR && got == 0) {
            if (g->recording)
                set_damage(g, "the compressed data is damaged");
            g->c->ended = 1;
            break;
        }
    }
    return (int64_t)done;
}

/* The text AT.. (N bytes at P) of the pass in order kept in blocks too,
 * while the budget allows, in the blocks a read back would fill: every
 * front end reads the text again after the index (the report walks every
 * pass), and inflating it a second time was as long as the first
 * (callgrind, issue 25).  A block is valid once whole, or at the text's end
 * (ENDED).  G->lock held. */
static void keep_blocks(passes_gz *g, uint64_t at, const unsigned char *p,
                        size_t n, int ended)
{
    while (n > 0) {
        uint64_t idx = at / GZ_BLOCK;
        size_t in = (size_t)(at % GZ_BLOCK);
        size_t take = MIN(GZ_BLOCK - in, n);
        gz_block *b = NULL, *free_slot = NULL;
        for (int i = 0; i < GZ_BLOCKS && !b; i++) {
            gz_block *x = &g->blocks[i];
            if (x->data && !x->valid && x->idx == idx)
                b = x;
            else if (!x->data && !free_slot)
                free_slot = x;
        }
        if (!b && in == 0 && free_slot) {
            if (g_atomic_pointer_add(&gz_cache_bytes, (gssize)GZ_BLOCK) +
                    (gssize)GZ_BLOCK <= GZ_CACHE_BYTES) {
                b = free_slot;
                b->data = g_malloc(GZ_BLOCK);
                b->idx = idx;
                b->len = 0;
                b->valid = 0;
            } else {
                g_atomic_pointer_add(&gz_cache_bytes, -(gssize)GZ_BLOCK);
            }
        }
        if (b && b->len == in) {
            memcpy(b->data + in, p, take);
            b->len += take;
            b->used = ++g->clock;
            b->valid = b->len == GZ_BLOCK;
        }
        at += take;
        p += take;
        n -= take;
    }
    if (ended && at > 0) {
        uint64_t idx = (at - 1) / GZ_BLOCK;
        for (int i = 0; i < GZ_BLOCKS; i++) {
            gz_block *x = &g->blocks[i];
            if (x->data && !x->valid && x->idx == idx &&
                x->len == (size_t)(at - idx * GZ_BLOCK))
                x->valid = 1;
        }
    }
}

ssize_t passes_gz_next(passes_gz *g, char *buf, size_t n)
{
    if (g->refs)
        return refs_next(g, buf, n);
    uint64_t at = g->c->out;
    int64_t r = produce(g, (unsigned char *)buf, n);
    if (r >= 0 && g->recording) {
        g_mutex_lock(&g->lock);
        keep_blocks(g, at, (const unsigned char *)buf, (size_t)r, g->c->ended);
        g_mutex_unlock(&g->lock);
    }
    if (r >= 0 && g->c->ended) {
        g->size = g->c->out;
        g->recording = 0;
    }
    return (ssize_t)r;
}

void passes_gz_done(passes_gz *g)
{
    if (g->refs) {
        g->recording = 0;
        passes_refs_drop(g->refs); /* reads back inflate what they need */
        return;
    }
    if (g->recording)
        g->size = g->c->out;
    g->recording = 0;
    end_stream(g);
}

/* Restarts ZS at the last point at or before OFF. */
static int seek(passes_gz *g, uint64_t off)
{
    guint lo = 0, hi = g->points->len;
    while (hi - lo > 1) {
        guint mid = (lo + hi) / 2;
        if (g_array_index(g->points, gz_point, mid).out <= off)
            lo = mid;
        else
            hi = mid;
    }
    const gz_point *pt = &g_array_index(g->points, gz_point, lo);
    if (start_stream(g, !pt->member) != 0)
        return -1;
    g->c->in_off = pt->in;
    g->c->zs.next_in = NULL;
    g->c->zs.avail_in = 0;
    g->c->out = pt->out;
    if (!pt->member) {
        if (pt->bits && inflatePrime(&g->c->zs, pt->bits, pt->byte >> (8 - pt->bits)) != Z_OK)
            return -1;
        if (pt->window_len &&
            inflateSetDictionary(&g->c->zs, pt->window, (uInt)pt->window_len) != Z_OK)
            return -1;
    }
    return 0;
}

/* N bytes of text at OFF (within the text) inflated into BUF; G->lock
 * held.  Returns N, or -1. */
static int64_t read_direct(passes_gz *g, uint64_t off, char *buf, size_t n)
{
    int64_t rc = 0;
    /* Go on from the cursor nearest before OFF when it is near enough;
     * else restart the one least recently used. */
    gz_cursor *best = NULL, *old = &g->cur[0];
    for (int i = 0; i < GZ_CURSORS; i++) {
        gz_cursor *c = &g->cur[i];
        if (c->live && !c->ended && c->out <= off && off - c->out <= g->span &&
            (!best || c->out > best->out))
            best = c;
        if (c->used < old->used)
            old = c;
    }
    g->c = best ? best : old;
    g->c->used = ++g->clock;
    if (!best && seek(g, off) != 0)
        rc = -1;
    while (rc == 0 && g->c->out < off) {
        int64_t r = produce(g, NULL, (size_t)(off - g->c->out));
        if (r <= 0)
            rc = -1;
    }
    if (rc == 0) {
        int64_t r = produce(g, (unsigned char *)buf, n);
        rc = r < (int64_t)n ? -1 : r;
    }
    if (rc < 0)
        end_stream(g);
    return rc;
}

/* The block of text IDX, from the cache or inflated into it; NULL when
 * the text cannot be read or no block can be had (then read directly). */
static gz_block *block_of(passes_gz *g, uint64_t idx, int *failed)
{
    gz_block *free_slot = NULL, *old = NULL;
    for (int i = 0; i < GZ_BLOCKS; i++) {
        gz_block *b = &g->blocks[i];
        if (b->valid && b->idx == idx)
            return b;
        if (!b->data) {
            if (!free_slot)
                free_slot = b;
        } else if (!old || b->used < old->used)
            old = b;
    }
    gz_block *b = NULL;
    /* A new block while the process's budget allows, else this file's
     * least recently used one. */
    if (free_slot && g_atomic_pointer_add(&gz_cache_bytes, (gssize)GZ_BLOCK) + (gssize)GZ_BLOCK <=
                         GZ_CACHE_BYTES) {
        free_slot->data = g_malloc(GZ_BLOCK);
        b = free_slot;
    } else {
        if (free_slot)
            g_atomic_pointer_add(&gz_cache_bytes, -(gssize)GZ_BLOCK);
        b = old;
    }
    if (!b)
        return NULL;
    uint64_t start = idx * GZ_BLOCK;
    size_t len = (size_t)MIN((uint64_t)GZ_BLOCK, g->size - start);
    b->valid = 0;
    if (read_direct(g, start, (char *)b->data, len) != (int64_t)len) {
        *failed = 1;
        return NULL;
    }
    b->valid = 1;
    b->idx = idx;
    b->len = len;
    return b;
}

int64_t passes_gz_pread(passes_gz *g, uint64_t off, char *buf, size_t n)
{
    if (off >= g->size || n == 0)
        return 0;
    if (g->refs)
        return passes_refs_pread(g->refs, off, buf, MIN(n, g->size - off));
    if (n > g->size - off)
        n = (size_t)(g->size - off);
    g_mutex_lock(&g->lock);
    size_t done = 0;
    int failed = 0;
    while (done < n && !failed) {
        uint64_t at = off + done;
        gz_block *b = block_of(g, at / GZ_BLOCK, &failed);
        if (failed)
            break;
        if (!b) {
            /* no block to be had: the rest straight from the stream */
            if (read_direct(g, at, buf + done, n - done) != (int64_t)(n - done))
                failed = 1;
            else
                done = n;
            break;
        }
        b->used = ++g->clock;
        size_t in = (size_t)(at - b->idx * GZ_BLOCK);
        size_t take = MIN(b->len - in, n - done);
        memcpy(buf + done, b->data + in, take);
        done += take;
    }
    g_mutex_unlock(&g->lock);
    return failed ? -1 : (int64_t)done;
}
