/* frame_cache.c - the text of a pool's small zstd frames, decoded once for
 * every refs file that reads them (refs.c).
 *
 * A bundle stores each distinct piece of dump text once, so the slices of
 * its kernels name the same frames: compiled_block's 32 slices name 8472
 * pieces, 1466 of them distinct.  Checking a stored index reads back every
 * dump's header, a small frame of its own (stored.c), and a small frame
 * costs ~9 K instructions to decode, mostly building its entropy tables:
 * 4236 header reads were 40 M of the 150 M instructions of `tkview info` on
 * that bundle (issue 25).  Frames of at most FRAME_CACHE_MAX_TEXT bytes of
 * text decoded alone (no base) are kept here, FRAME_CACHE_MAX_BYTES in all,
 * for the life of the process.
 *
 * A frame is known by its pool (device, inode, size and modification time
 * in ns, as the pool was when its refs file was opened: a pool written
 * again is another one) and its offset and length there; a cached text is
 * used only for a read that expects its length, so what a refs file
 * claims about a frame is checked against the frame as before (a claim of
 * another length decodes it, and fails as it did).  Safe from any thread.
 */
#include "passes/internal.h"

#define FRAME_CACHE_MAX_TEXT 4096
#define FRAME_CACHE_MAX_BYTES ((size_t)16 << 20)

typedef struct {
    passes_pool_id pool;
    uint64_t in, in_len;
} frame_key;

typedef struct {
    uint64_t len;
    unsigned char text[];
} frame_text;

static GMutex lock;
static GHashTable *frames; /* frame_key -> frame_text */
static size_t held;        /* bytes of text held */

static guint key_hash(gconstpointer p)
{
    const frame_key *k = p;
    uint64_t h = k->pool.ino * 0x9e3779b97f4a7c15u ^ k->in * 0xc2b2ae3d27d4eb4fu ^
                 k->in_len ^ (uint64_t)k->pool.mtime_ns;
    return (guint)(h ^ (h >> 32));
}

static gboolean key_equal(gconstpointer a, gconstpointer b)
{
    return memcmp(a, b, sizeof(frame_key)) == 0;
}

static frame_key key_of(const passes_pool_id *pool, uint64_t in, uint64_t in_len)
{
    frame_key k;
    memset(&k, 0, sizeof k); /* compared as bytes: no stray padding */
    k.pool = *pool;
    k.in = in;
    k.in_len = in_len;
    return k;
}

int passes_frame_cache_get(const passes_pool_id *pool, uint64_t in, uint64_t in_len,
                           uint64_t len, unsigned char *out)
{
    if (len > FRAME_CACHE_MAX_TEXT)
        return 0;
    frame_key k = key_of(pool, in, in_len);
    int found = 0;
    g_mutex_lock(&lock);
    const frame_text *t = frames ? g_hash_table_lookup(frames, &k) : NULL;
    if (t && t->len == len) {
        memcpy(out, t->text, len);
        found = 1;
    }
    g_mutex_unlock(&lock);
    return found;
}

void passes_frame_cache_put(const passes_pool_id *pool, uint64_t in, uint64_t in_len,
                            const unsigned char *text, uint64_t len)
{
    if (len > FRAME_CACHE_MAX_TEXT)
        return;
    g_mutex_lock(&lock);
    if (!frames)
        frames = g_hash_table_new_full(key_hash, key_equal, g_free, g_free);
    frame_key k = key_of(pool, in, in_len);
    if (held + len <= FRAME_CACHE_MAX_BYTES && !g_hash_table_contains(frames, &k)) {
        frame_text *t = g_malloc(sizeof *t + len);
        t->len = len;
        memcpy(t->text, text, len);
        g_hash_table_insert(frames, g_memdup2(&k, sizeof k), t);
        held += len;
    }
    g_mutex_unlock(&lock);
}
