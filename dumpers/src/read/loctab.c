/* loctab.c - interned file paths and inline stacks.
 *
 * Both tables are open-addressing hash sets of indices into a record array.
 * Frames live in fixed-size chunks that are never reallocated, so the frame
 * pointers handed out stay valid while the table grows.
 */
#include "tkdump/tk_loctab.h"

#include <glib.h>
#include <string.h>

#define FRAME_CHUNK 16384

typedef struct {
    char *path;
    size_t len;
    uint32_t hash;
} file_rec;

typedef struct {
    const tk_frame *frames;
    uint32_t n;
    uint32_t hash;
} stack_rec;

typedef struct {
    uint32_t *slots; /* index + 1; 0 = empty */
    size_t mask;
    size_t used;
} id_set;

struct tk_loctab {
    file_rec *files;
    size_t n_files, cap_files;
    id_set file_set;

    stack_rec *stacks;
    size_t n_stacks, cap_stacks;
    id_set stack_set;

    GPtrArray *chunks; /* tk_frame[FRAME_CHUNK] or larger, owned */
    size_t chunk_used; /* frames used in the last chunk */
    size_t chunk_cap;
};

static uint32_t hash_bytes(const void *data, size_t len)
{
    /* FNV-1a: short keys, no need for more. */
    const unsigned char *p = data;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static void set_init(id_set *s)
{
    s->mask = 255;
    s->used = 0;
    s->slots = g_new0(uint32_t, s->mask + 1);
}

/* Rehashes when 2/3 full; HASH_OF gives the hash of record INDEX. */
static void set_grow(id_set *s, uint32_t (*hash_of)(const tk_loctab *, uint32_t),
                     const tk_loctab *tab)
{
    size_t new_mask = s->mask * 2 + 1;
    uint32_t *ns = g_new0(uint32_t, new_mask + 1);
    for (size_t i = 0; i <= s->mask; i++) {
        uint32_t v = s->slots[i];
        if (!v)
            continue;
        size_t j = hash_of(tab, v - 1) & new_mask;
        while (ns[j])
            j = (j + 1) & new_mask;
        ns[j] = v;
    }
    g_free(s->slots);
    s->slots = ns;
    s->mask = new_mask;
}

static uint32_t file_hash_of(const tk_loctab *t, uint32_t i)
{
    return t->files[i].hash;
}

static uint32_t stack_hash_of(const tk_loctab *t, uint32_t i)
{
    return t->stacks[i].hash;
}

tk_loctab *tk_loctab_new(void)
{
    tk_loctab *t = g_new0(tk_loctab, 1);
    set_init(&t->file_set);
    set_init(&t->stack_set);
    t->chunks = g_ptr_array_new_with_free_func(g_free);
    return t;
}

void tk_loctab_free(tk_loctab *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n_files; i++)
        g_free(t->files[i].path);
    g_free(t->files);
    g_free(t->stacks);
    g_free(t->file_set.slots);
    g_free(t->stack_set.slots);
    g_ptr_array_free(t->chunks, TRUE);
    g_free(t);
}

tk_file_id tk_loctab_file(tk_loctab *t, const char *path, size_t len)
{
    uint32_t h = hash_bytes(path, len);
    size_t j = h & t->file_set.mask;
    for (uint32_t v; (v = t->file_set.slots[j]) != 0;
         j = (j + 1) & t->file_set.mask) {
        const file_rec *r = &t->files[v - 1];
        if (r->hash == h && r->len == len && memcmp(r->path, path, len) == 0)
            return v - 1;
    }
    if (t->n_files == t->cap_files) {
        t->cap_files = t->cap_files ? t->cap_files * 2 : 64;
        t->files = g_renew(file_rec, t->files, t->cap_files);
    }
    file_rec *r = &t->files[t->n_files];
    r->path = g_strndup(path, len);
    r->len = strlen(r->path); /* an embedded NUL would cut it: keep it honest */
    r->hash = h;
    t->file_set.slots[j] = (uint32_t)++t->n_files;
    if (++t->file_set.used * 3 > (t->file_set.mask + 1) * 2)
        set_grow(&t->file_set, file_hash_of, t);
    return (tk_file_id)(t->n_files - 1);
}

const char *tk_loctab_file_path(const tk_loctab *t, tk_file_id file)
{
    return file < t->n_files ? t->files[file].path : NULL;
}

size_t tk_loctab_file_count(const tk_loctab *t)
{
    return t->n_files;
}

static tk_frame *frames_alloc(tk_loctab *t, size_t n)
{
    if (t->chunks->len == 0 || t->chunk_used + n > t->chunk_cap) {
        size_t cap = n > FRAME_CHUNK ? n : FRAME_CHUNK;
        g_ptr_array_add(t->chunks, g_new(tk_frame, cap));
        t->chunk_cap = cap;
        t->chunk_used = 0;
    }
    tk_frame *f = (tk_frame *)g_ptr_array_index(t->chunks, t->chunks->len - 1) +
                  t->chunk_used;
    t->chunk_used += n;
    return f;
}

tk_stack_id tk_loctab_stack(tk_loctab *t, const tk_frame *frames, size_t n)
{
    g_return_val_if_fail(n > 0 && n < UINT32_MAX, TK_NO_STACK);
    uint32_t h = hash_bytes(frames, n * sizeof *frames);
    size_t j = h & t->stack_set.mask;
    for (uint32_t v; (v = t->stack_set.slots[j]) != 0;
         j = (j + 1) & t->stack_set.mask) {
        const stack_rec *r = &t->stacks[v - 1];
        if (r->hash == h && r->n == n &&
            memcmp(r->frames, frames, n * sizeof *frames) == 0)
            return v - 1;
    }
    if (t->n_stacks == t->cap_stacks) {
        t->cap_stacks = t->cap_stacks ? t->cap_stacks * 2 : 256;
        t->stacks = g_renew(stack_rec, t->stacks, t->cap_stacks);
    }
    tk_frame *copy = frames_alloc(t, n);
    memcpy(copy, frames, n * sizeof *frames);
    t->stacks[t->n_stacks] = (stack_rec){copy, (uint32_t)n, h};
    t->stack_set.slots[j] = (uint32_t)++t->n_stacks;
    if (++t->stack_set.used * 3 > (t->stack_set.mask + 1) * 2)
        set_grow(&t->stack_set, stack_hash_of, t);
    return (tk_stack_id)(t->n_stacks - 1);
}

const tk_frame *tk_loctab_stack_frames(const tk_loctab *t, tk_stack_id id,
                                       size_t *n)
{
    if (id >= t->n_stacks) {
        *n = 0;
        return NULL;
    }
    *n = t->stacks[id].n;
    return t->stacks[id].frames;
}

size_t tk_loctab_stack_count(const tk_loctab *t)
{
    return t->n_stacks;
}
