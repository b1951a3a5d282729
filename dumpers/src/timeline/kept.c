/* kept.c - texts of passes kept once read, for the diffs across two
 * timelines that come back to them (tk_timeline_texts, tk_timeline.h).
 *
 * A report compares the compiles of one kernel two by two: with three
 * configurations, each kernel's text after a pass is a side of two
 * comparisons, and tk_timeline_diff_across() read and normalized it for
 * each (autotuned_matmul's report: 642 texts read, 1.65 G of its 15 G
 * instructions).  Here a text read is kept as its line records and
 * normalization, shared (counted references) by the diffs made from it,
 * while the store has room, until its timeline is no longer kept.  A diff from
 * kept texts is the diff tk_timeline_diff_across() makes: the same texts,
 * the same normalization, the same engine.
 */
#include <string.h>

#include "timeline/internal.h"

struct tk_timeline_texts {
    GMutex lock;       /* guards the fields below */
    GHashTable *by_side; /* const tk_timeline_side * -> tl_kept */
    GQueue order;      /* tl_kept, oldest first */
    size_t bytes, max;
    GHashTable *keep; /* the timelines whose texts are kept */
};

void tl_kept_unref(tl_kept *k)
{
    if (!k || !g_atomic_int_dec_and_test(&k->ref))
        return;
    g_array_unref(k->lines);
    if (k->meta)
        g_array_unref(k->meta);
    tk_normalize_free(k->norm);
    g_free(k);
}

tk_timeline_texts *tk_timeline_texts_new(size_t max_bytes)
{
    tk_timeline_texts *t = g_new0(tk_timeline_texts, 1);
    g_mutex_init(&t->lock);
    t->by_side = g_hash_table_new(g_direct_hash, g_direct_equal);
    t->keep = g_hash_table_new(g_direct_hash, g_direct_equal);
    g_queue_init(&t->order);
    t->max = max_bytes;
    return t;
}

void tk_timeline_texts_free(tk_timeline_texts *t)
{
    if (!t)
        return;
    tl_kept *k;
    while ((k = g_queue_pop_head(&t->order)))
        tl_kept_unref(k);
    g_hash_table_destroy(t->by_side);
    g_hash_table_destroy(t->keep);
    g_mutex_clear(&t->lock);
    g_free(t);
}

/* Drops K from the store (the caller holds the lock). */
static void drop(tk_timeline_texts *t, tl_kept *k)
{
    g_hash_table_remove(t->by_side, k->side);
    g_queue_remove(&t->order, k);
    t->bytes -= k->bytes;
    tl_kept_unref(k);
}

void tk_timeline_texts_keep(tk_timeline_texts *t, const tk_timeline *tl, int keep)
{
    g_mutex_lock(&t->lock);
    if (keep) {
        g_hash_table_add(t->keep, (gpointer)tl);
    } else if (g_hash_table_remove(t->keep, tl)) {
        for (GList *l = t->order.head; l;) {
            tl_kept *k = l->data;
            l = l->next;
            if (k->tl == tl)
                drop(t, k);
        }
    }
    g_mutex_unlock(&t->lock);
}

/* What a kept text costs, about: its records, their normalization and the
 * arrays' slack (192 bytes a line on autotuned_matmul's texts, by the
 * process's resident size), and its metadata records. */
static size_t kept_bytes(const tl_kept *k)
{
    return sizeof *k + (size_t)k->lines->len * 6 * sizeof(tl_line) +
           (k->meta ? (size_t)k->meta->len * sizeof(tl_line) : 0);
}

/* Reads text WHICH of pass I of TL as text_of() does (timeline.c), into a
 * new kept text; NULL with a diagnostic. */
static tl_kept *read_kept(const tk_timeline *tl, size_t i, tk_timeline_point which,
                          const tk_timeline_side *side, tk_diags *diags)
{
    tl_walker w;
    tl_walker_init(&w, tl, diags);
    const tk_timeline_entry *e = tk_timeline_get(tl, i);
    tl_kept *k = NULL;
    if (tl_walker_load_one(&w, side, tl_entry_dialect(e)) == 0) {
        k = g_new0(tl_kept, 1);
        k->ref = 1;
        k->side = side;
        k->tl = tl;
        k->dialect = tl_entry_dialect(e);
        k->meta = tl_walker_meta_for(&w, TK_IR_B);
        k->srcs = tl_walker_srcs(&w, TK_IR_B);
        k->srcs.res = NULL; /* the walker's, gone with it */
        tl_walker_steal(&w, TK_IR_B, &k->lines, &k->norm);
        (void)which;
    }
    tl_walker_clear(&w);
    return k;
}

/* Text WHICH of pass I of TL, kept (a reference the caller drops with
 * tl_kept_unref()); NULL with a diagnostic, as text_of() says it. */
static tl_kept *kept_text(tk_timeline_texts *t, const tk_timeline *tl, size_t i,
                          tk_timeline_point which, tk_diags *diags)
{
    const tk_timeline_entry *e = tk_timeline_get(tl, i);
    if (!e) {
        tk_diags_add(diags, TK_DIAG_ERROR, tl->kernel_name, 0,
                     "no pass %zu (the timeline has %zu)", i, tk_timeline_count(tl));
        return NULL;
    }
    const tk_timeline_side *side = which == TK_TL_INPUT ? &e->before : &e->after;
    if (side->kind == TK_SIDE_NONE) {
        tk_diags_add(diags, TK_DIAG_ERROR, tl->kernel_name, 0,
                     "%s (pass %zu): no IR %s it to compare", e->pass, i,
                     which == TK_TL_INPUT ? "before" : "after");
        return NULL;
    }
    g_mutex_lock(&t->lock);
    tl_kept *k = g_hash_table_lookup(t->by_side, side);
    if (k)
        g_atomic_int_inc(&k->ref);
    g_mutex_unlock(&t->lock);
    if (k)
        return k;
    k = read_kept(tl, i, which, side, diags);
    if (!k)
        return NULL;
    g_mutex_lock(&t->lock);
    tl_kept *other = g_hash_table_lookup(t->by_side, side);
    if (other) { /* another thread read it meanwhile: one is kept */
        g_atomic_int_inc(&other->ref);
        g_mutex_unlock(&t->lock);
        tl_kept_unref(k);
        return other;
    }
    k->bytes = kept_bytes(k);
    /* Full, a text is not kept: the texts come back in the order they
     * were first read (a pair's rows, then another pair's), and dropping
     * the oldest for the newest would drop each before it is asked again. */
    if (t->bytes + k->bytes <= t->max && g_hash_table_contains(t->keep, tl)) {
        g_atomic_int_inc(&k->ref); /* the store's */
        g_hash_table_insert(t->by_side, (gpointer)side, k);
        g_queue_push_tail(&t->order, k);
        t->bytes += k->bytes;
    }
    g_mutex_unlock(&t->lock);
    return k;
}

tk_ir_diff *tk_timeline_texts_diff(tk_timeline_texts *t, const tk_timeline *a, size_t i,
                                   tk_timeline_point which_a, const char *prefix_a,
                                   const tk_timeline *b, size_t j, tk_timeline_point which_b,
                                   const char *prefix_b, const tk_diff_opts *opts,
                                   tk_diags *diags)
{
    if (!t)
        return tk_timeline_diff_across(a, i, which_a, prefix_a, b, j, which_b, prefix_b, opts,
                                       diags);
    if (!tl_same_dialect(a, i, b, j, diags))
        return NULL;
    const tk_timeline_entry *ea = tk_timeline_get(a, i);
    tl_kept *ka = kept_text(t, a, i, which_a, diags);
    tl_kept *kb = ka ? kept_text(t, b, j, which_b, diags) : NULL;
    if (!ka || !kb) {
        tl_kept_unref(ka);
        return NULL;
    }
    char *what[2] = {tk_timeline_side_describe(a, ka->side),
                     tk_timeline_side_describe(b, kb->side)};
    char *na = g_strdup_printf("%s%s", prefix_a ? prefix_a : "", what[0]);
    char *nb = g_strdup_printf("%s%s", prefix_b ? prefix_b : "", what[1]);
    g_free(what[0]);
    g_free(what[1]);
    /* the diff takes both references */
    return tl_kept_take_diff(a, ka, b, kb, tl_bind_kind(ea), na, nb, opts ? opts : &a->diff);
}
