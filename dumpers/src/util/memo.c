/* memo.c - a bounded, process-wide memo shared by threads (memo.h). */
#include "util/memo.h"

gboolean memo_find(memo_table *m, gconstpointer key, void (*use)(gconstpointer hit, void *user),
                   void *user)
{
    g_mutex_lock(&m->lock);
    gconstpointer hit = m->table ? g_hash_table_lookup(m->table, key) : NULL;
    if (hit)
        use(hit, user);
    g_mutex_unlock(&m->lock);
    return hit != NULL;
}

void memo_keep(memo_table *m, gpointer entry, size_t size)
{
    g_mutex_lock(&m->lock);
    if (!m->table)
        m->table = g_hash_table_new_full(m->hash, m->equal, g_free, NULL);
    if (m->bytes + size > m->limit) {
        g_hash_table_remove_all(m->table);
        m->bytes = 0;
    }
    if (size > m->limit || g_hash_table_contains(m->table, entry)) {
        g_free(entry); /* too big to keep, or another thread made it meanwhile */
    } else {
        g_hash_table_add(m->table, entry);
        m->bytes += size;
    }
    g_mutex_unlock(&m->lock);
}
