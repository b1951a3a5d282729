/* data_words.c - the changed words of a replaced line written into the
 * report's data (data_words.h). */
#include "data_words.h"

#include <glib.h>
#include <stdint.h>
#include <string.h>

#include "tkdump/tk_diff.h"
#include "tkdump/tk_ir_diff.h"

/* Walks TEXT from byte 0 on, counting UTF-16 units: each UTF-8 sequence
 * is one unit, a 4-byte one two.  (A byte of invalid UTF-8, which jsonw
 * writes as U+FFFD, counts as one unit only when it is not a
 * continuation byte: such lines are not IR.)  The spans of a line come in
 * order, so one walk serves them all (a 32 KB line has thousands). */
typedef struct {
    const char *text;
    uint32_t byte, unit;
} utf16_walk;

static uint32_t utf16_at(utf16_walk *u, uint32_t off)
{
    if (off < u->byte) /* out of order: from the start again */
        u->byte = u->unit = 0;
    for (; u->byte < off; u->byte++) {
        unsigned char c = (unsigned char)u->text[u->byte];
        if ((c & 0xC0) != 0x80)
            u->unit += c >= 0xF0 ? 2 : 1;
    }
    return u->unit;
}

static void write_spans(jw *w, const char *text, const tk_ir_span *sp, size_t n)
{
    utf16_walk u = {text, 0, 0};
    jw_arr(w);
    for (size_t i = 0; i < n; i++) {
        jw_int(w, utf16_at(&u, sp[i].off));
        jw_int(w, utf16_at(&u, sp[i].off + sp[i].len));
    }
    jw_arr_end(w);
}

/* The words of one pair of lines, as written. */
static void write_pair(jw *w, const char *a, size_t la, const char *b, size_t lb)
{
    tk_ir_span *sa, *sb;
    size_t na, nb;
    tk_ir_diff_words(a, la, b, lb, &sa, &na, &sb, &nb);
    jw_arr(w);
    write_spans(w, a, sa, na);
    write_spans(w, b, sb, nb);
    jw_arr_end(w);
    g_free(sa);
    g_free(sb);
}

/* ---- the same pair once ----------------------------------------------------
 * A pair of lines comes back: the diffs of a comparison after each pass
 * replace the same lines again and again (autotuned_matmul's report: 77,600
 * pairs, 38,400 distinct, the word diffs 35% of its instructions), and a
 * chain's passes redo a change.  What a pair wrote is kept, keyed by both
 * lines' bytes (compared whole on a hit), up to MEMO_BYTES of them; the
 * pass and comparison threads share it under its lock.  A pair is in it
 * from when a thread starts making it: another that wants it waits (the
 * rows of a comparison made at once share most of their pairs). */
#define MEMO_BYTES ((gsize)48 << 20)

typedef struct {
    guint64 hash;
    size_t la, lb;
    char *lines; /* A's bytes then B's */
    GString *json;
} memo_pair;

static GMutex memo_lock;
static GCond memo_made;  /* a pair's words were made (or given up) */
static GHashTable *memo; /* memo_pair -> itself; json NULL: being made */
static gsize memo_bytes;

static guint memo_hash(gconstpointer p)
{
    const memo_pair *m = p;
    return (guint)(m->hash ^ (m->hash >> 32));
}

static gboolean memo_equal(gconstpointer x, gconstpointer y)
{
    const memo_pair *a = x, *b = y;
    return a->hash == b->hash && a->la == b->la && a->lb == b->lb &&
           memcmp(a->lines, b->lines, a->la + a->lb) == 0;
}

static void memo_free(gpointer p)
{
    memo_pair *m = p;
    g_free(m->lines);
    if (m->json)
        g_string_free(m->json, TRUE);
    g_free(m);
}

void html_report_write_words(jw *w, const char *a, size_t la, const char *b, size_t lb)
{
    guint64 h = tk_diff_hash(a, la);
    h = (h ^ (h >> 31)) * 0x9e3779b97f4a7c15ull ^ tk_diff_hash(b, lb);
    /* the key looked up: its lines in one buffer, as they are kept */
    char *lines = g_malloc(la + lb + 1);
    memcpy(lines, a, la);
    memcpy(lines + la, b, lb);
    memo_pair key = {h, la, lb, lines, NULL};
    g_mutex_lock(&memo_lock);
    const memo_pair *hit = memo ? g_hash_table_lookup(memo, &key) : NULL;
    /* a pair another thread is making (the diffs of a comparison's rows
     * next to each other, data_compare_ahead.h): its words are waited
     * for, not made twice */
    while (hit && !hit->json) {
        g_cond_wait(&memo_made, &memo_lock);
        hit = g_hash_table_lookup(memo, &key);
    }
    if (hit) {
        jw_raw(w, hit->json);
        g_mutex_unlock(&memo_lock);
        g_free(lines);
        return;
    }
    if (!memo)
        memo = g_hash_table_new_full(memo_hash, memo_equal, memo_free, NULL);
    memo_pair *m = NULL; /* the pair, being made: its words to come */
    if (memo_bytes + la + lb + sizeof(memo_pair) <= MEMO_BYTES) {
        m = g_new(memo_pair, 1);
        *m = key;
        g_hash_table_add(memo, m);
        lines = NULL;
    }
    g_mutex_unlock(&memo_lock);
    GString *json = g_string_new(NULL);
    jw pw;
    jw_init(&pw, json);
    write_pair(&pw, a, la, b, lb);
    jw_raw(w, json);
    gsize cost = la + lb + json->len + sizeof(memo_pair);
    g_mutex_lock(&memo_lock);
    if (m && memo_bytes + cost <= MEMO_BYTES) {
        m->json = json;
        memo_bytes += cost;
        json = NULL;
    } else if (m) {
        g_hash_table_remove(memo, m); /* frees it: past the cap after all */
    }
    g_cond_broadcast(&memo_made);
    g_mutex_unlock(&memo_lock);
    if (json)
        g_string_free(json, TRUE);
    g_free(lines);
}

void html_report_words_forget(void)
{
    g_mutex_lock(&memo_lock);
    if (memo)
        g_hash_table_destroy(memo);
    memo = NULL;
    memo_bytes = 0;
    g_mutex_unlock(&memo_lock);
}
