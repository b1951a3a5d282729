/* builder.c - the line builder the dialects write into (nb_*, internal.h):
 * the shared base of normalize/, below normalize.c (which drives the
 * dialects) and the dialect files (which call it). */
#include <glib.h>
#include <string.h>

#include "diff/internal.h"
#include "normalize/internal.h"

void nb_reserve(nb_builder *b, size_t more)
{
    tk_normalize *n = b->n;
    size_t cap = n->text_cap ? n->text_cap : 4096;
    while (cap < n->text_len + more)
        cap *= 2;
    n->text = g_realloc(n->text, cap);
    n->text_cap = cap;
}

static void grow_slots(nb_builder *b)
{
    size_t old = b->slot_mask + 1;
    size_t size = b->slots ? old * 2 : 1024;
    nb_vslot *s = g_new(nb_vslot, size);
    for (size_t i = 0; i < size; i++)
        s[i].id = UINT32_MAX;
    for (size_t i = 0; b->slots && i < old; i++) {
        if (b->slots[i].id == UINT32_MAX)
            continue;
        size_t k = b->slots[i].hash & (size - 1);
        while (s[k].id != UINT32_MAX)
            k = (k + 1) & (size - 1);
        s[k] = b->slots[i];
    }
    g_free(b->slots);
    b->slots = s;
    b->slot_mask = size - 1;
}

/* Value names are a few bytes ("%12", "%offsets_3"): a hash of one or two
 * words is enough, and much cheaper than the line hash.  W0 and W1 are the
 * name's first 16 bytes, zero padded. */
static inline uint64_t name_hash(const char *name, size_t len, uint32_t scope,
                                 uint64_t w0, uint64_t w1)
{
    if (len > 16) {
        w0 = tk_diff_hash(name, len);
        w1 = 0;
    }
    uint64_t h = (w0 ^ ((uint64_t)scope << 32 | len)) * 0x9e3779b97f4a7c15ull;
    h = (h ^ (h >> 29) ^ w1) * 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 32);
}

static void ref(nb_builder *b, uint32_t scope, const char *name,
                size_t len, int def)
{
    if (len > UINT32_MAX)
        len = UINT32_MAX;
    if ((b->slot_used + 1) * 2 > b->slot_mask + 1 || !b->slots)
        grow_slots(b);
    uint64_t w0 = 0, w1 = 0;
    if (len <= 16) {
        memcpy(&w0, name, len < 8 ? len : 8);
        if (len > 8)
            memcpy(&w1, name + 8, len - 8);
    } else {
        memcpy(&w0, name, 8);
    }
    uint32_t h = (uint32_t)name_hash(name, len, scope, w0, w1);
    size_t k = h & b->slot_mask;
    uint32_t id;
    for (;;) {
        nb_vslot *s = &b->slots[k];
        if (s->id == UINT32_MAX) {
            s->hash = h;
            s->len = (uint32_t)len;
            s->scope = scope | (def ? NB_DEFINED : 0);
            s->id = id = b->n->n_values++;
            s->w0 = w0;
            if (len <= 16)
                s->u.w1 = w1;
            else
                s->u.name = g_string_chunk_insert_len(b->names, name, (gssize)len);
            b->slot_used++;
            break;
        }
        if (s->hash == h && (s->scope & ~NB_DEFINED) == scope &&
            s->len == len && s->w0 == w0 &&
            (len <= 16 ? s->u.w1 == w1
                       : memcmp(s->u.name, name, len) == 0)) {
            if (def && (s->scope & NB_DEFINED))
                s->id = b->n->n_values++; /* a new value, same name */
            if (def)
                s->scope |= NB_DEFINED;
            id = s->id;
            break;
        }
        k = (k + 1) & b->slot_mask;
    }
    tk_normalize *n = b->n;
    if (n->n_refs == n->refs_cap) {
        n->refs_cap = n->refs_cap ? n->refs_cap * 2 : 1024;
        n->refs = g_renew(uint32_t, n->refs, n->refs_cap);
    }
    n->refs[n->n_refs++] = id;
}

void nb_ref(nb_builder *b, uint32_t scope, const char *name, size_t len)
{
    ref(b, scope, name, len, 0);
}

void nb_def(nb_builder *b, uint32_t scope, const char *name, size_t len)
{
    ref(b, scope, name, len, 1);
}

static size_t alias_find(const nb_builder *b, const char *name,
                         size_t len, uint64_t h)
{
    size_t k = h & b->alias_mask;
    while (b->aliases[k].id != UINT32_MAX) {
        const nb_slot *s = &b->aliases[k];
        if (s->hash == h && s->len == len && memcmp(s->name, name, len) == 0)
            break;
        k = (k + 1) & b->alias_mask;
    }
    return k;
}

void nb_alias_set(nb_builder *b, const char *name, size_t len,
                  uint64_t hash)
{
    if (len > UINT32_MAX)
        return;
    if (!b->aliases || (b->n_aliases + 1) * 2 > b->alias_mask + 1) {
        size_t old = b->aliases ? b->alias_mask + 1 : 0;
        size_t size = old ? old * 2 : 64;
        nb_slot *t = g_new(nb_slot, size);
        for (size_t i = 0; i < size; i++)
            t[i].id = UINT32_MAX;
        for (size_t i = 0; i < old; i++) {
            if (b->aliases[i].id == UINT32_MAX)
                continue;
            size_t k = b->aliases[i].hash & (size - 1);
            while (t[k].id != UINT32_MAX)
                k = (k + 1) & (size - 1);
            t[k] = b->aliases[i];
        }
        g_free(b->aliases);
        b->aliases = t;
        b->alias_mask = size - 1;
        b->alias_hash = g_renew(uint64_t, b->alias_hash, size / 2);
        if (b->expand_aliases) {
            b->alias_text = g_renew(const char *, b->alias_text, size / 2);
            b->alias_text_len = g_renew(uint32_t, b->alias_text_len, size / 2);
        }
    }
    uint64_t h = tk_diff_hash(name, len);
    size_t k = alias_find(b, name, len, h);
    if (b->aliases[k].id == UINT32_MAX)
        b->aliases[k] = (nb_slot){h, g_string_chunk_insert_len(b->names, name, (gssize)len),
                                  (uint32_t)len, 0, (uint32_t)b->n_aliases++, 1};
    b->alias_hash[b->aliases[k].id] = hash;
    if (b->expand_aliases) {
        b->alias_text[b->aliases[k].id] = NULL;
        b->alias_text_len[b->aliases[k].id] = 0;
    }
}

void nb_alias_set_text(nb_builder *b, const char *name, size_t len,
                       const char *text, size_t text_len)
{
    if (!b->expand_aliases || !b->aliases || text_len > UINT32_MAX)
        return;
    size_t k = alias_find(b, name, len, tk_diff_hash(name, len));
    if (b->aliases[k].id == UINT32_MAX)
        return;
    b->alias_text[b->aliases[k].id] =
        g_string_chunk_insert_len(b->names, text, (gssize)text_len);
    b->alias_text_len[b->aliases[k].id] = (uint32_t)text_len;
}

const char *nb_alias_text(const nb_builder *b, const char *name, size_t len,
                          size_t *text_len)
{
    if (!b->expand_aliases || !b->aliases)
        return NULL;
    size_t k = alias_find(b, name, len, tk_diff_hash(name, len));
    if (b->aliases[k].id == UINT32_MAX)
        return NULL;
    *text_len = b->alias_text_len[b->aliases[k].id];
    return b->alias_text[b->aliases[k].id];
}

int nb_alias_get(const nb_builder *b, const char *name, size_t len,
                 uint64_t *hash)
{
    if (!b->aliases)
        return 0;
    size_t k = alias_find(b, name, len, tk_diff_hash(name, len));
    if (b->aliases[k].id == UINT32_MAX)
        return 0;
    *hash = b->alias_hash[b->aliases[k].id];
    return 1;
}

void nb_begin_line(nb_builder *b)
{
    b->line_begin = b->n->text_len;
    b->refs_begin = b->n->n_refs;
}

void nb_end_line(nb_builder *b, uint32_t orig)
{
    tk_normalize *n = b->n;
    while (n->text_len > b->line_begin &&
           (n->text[n->text_len - 1] == ' ' || n->text[n->text_len - 1] == '\t'))
        n->text_len--;
    if (n->text_len == b->line_begin) {
        /* Nothing left once normalized (a comment-only MIR line): nothing to
         * compare either. */
        nb_ignore_line(b, orig);
        return;
    }
    if (n->n_kept == n->kept_cap) {
        n->kept_cap = n->kept_cap ? n->kept_cap * 2 : 1024;
        if (!n->hashes_only) {
            n->lines = g_renew(tk_diff_line, n->lines, n->kept_cap);
            n->line_off = g_renew(size_t, n->line_off, n->kept_cap);
        }
        n->hashes = g_renew(uint64_t, n->hashes, n->kept_cap);
        n->orig = g_renew(uint32_t, n->orig, n->kept_cap);
        n->ref_start = g_renew(uint32_t, n->ref_start, (size_t)n->kept_cap + 1);
    }
    uint32_t k = n->n_kept++;
    size_t len = n->text_len - b->line_begin;
    n->hashes[k] = tk_diff_hash(n->text + b->line_begin, len);
    n->orig[k] = orig;
    n->ref_start[k] = (uint32_t)b->refs_begin;
    n->kept_of[orig] = k;
    if (n->hashes_only) {
        n->text_len = b->line_begin; /* the hash is all that is kept */
    } else {
        n->line_off[k] = b->line_begin;
        n->lines[k].len = len;
    }
}

void nb_ignore_line(nb_builder *b, uint32_t orig)
{
    b->n->text_len = b->line_begin;
    b->n->n_refs = b->refs_begin;
    b->n->kept_of[orig] = TK_NORMALIZE_IGNORED;
}

const char *nb_copy_string(nb_builder *b, const char *p, const char *end)
{
    const char *q = p + 1;
    while (q < end && *q != '"') {
        if (*q == '\\' && q + 1 < end)
            q++;
        q++;
    }
    if (q < end)
        q++;
    nb_put(b, p, (size_t)(q - p));
    return q;
}
