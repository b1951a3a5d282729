/* memo.h - a bounded, process-wide memo shared by threads (internal).
 *
 * For results that are a function of their key alone and come back often
 * (a line's words in diff/align.c, a token diff's hunks by its shape in
 * timeline/words_memo.c).  Each entry is one g_malloc'd block that holds
 * its own key; the memo owns the entries it keeps.  Up to LIMIT bytes are
 * kept, then all are forgotten at once: cheaper than an eviction order, and
 * a miss only costs the work again.  Declare one with MEMO_TABLE_INIT.
 */
#ifndef TKDUMP_UTIL_MEMO_H
#define TKDUMP_UTIL_MEMO_H

#include <glib.h>

typedef struct {
    GMutex lock;
    GHashTable *table; /* entry -> itself, made on first keep */
    size_t bytes;
    size_t limit;
    GHashFunc hash;    /* of an entry, and of a key built the same way */
    GEqualFunc equal;
} memo_table;

#define MEMO_TABLE_INIT(limit_, hash_, equal_) {.limit = (limit_), .hash = (hash_), .equal = (equal_)}

/* Looks KEY up; on a hit calls USE(the entry, USER) under the lock (copy
 * out what you need: the entry may be freed once the lock is let go) and
 * returns TRUE. */
gboolean memo_find(memo_table *m, gconstpointer key, void (*use)(gconstpointer hit, void *user),
                   void *user);

/* Keeps ENTRY, SIZE bytes; the memo takes it (freed at once when it is
 * bigger than the limit or another thread kept an equal one meanwhile). */
void memo_keep(memo_table *m, gpointer entry, size_t size);

#endif
