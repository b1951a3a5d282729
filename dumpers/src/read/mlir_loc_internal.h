/* mlir_loc_internal.h - what the MLIR location reader's two files share:
 * mlir_loc.c (the reader's state, its alias table, diagnostics and the
 * stacks a location builds) and mlir_loc_parse.c (the grammar).  Internal
 * to read/. */
#ifndef TKDUMP_READ_MLIR_LOC_INTERNAL_H
#define TKDUMP_READ_MLIR_LOC_INTERNAL_H

#include "read/mlir_loc.h"

#include <glib.h>

#include "read/frames.h"

/* A growable array of T. */

#define READ_VEC(T)                                                            \
    struct {                                                                   \
        T *v;                                                                  \
        size_t n, cap;                                                         \
    }
#define READ_VEC_GROW(vec, extra)                                              \
    do {                                                                       \
        if ((vec).n + (extra) > (vec).cap)                                     \
            (vec).v = read_vec_grow((vec).v, &(vec).cap, (vec).n + (extra),    \
                                    sizeof *(vec).v);                          \
    } while (0)

/* A stack held by the memo area: frames mframes[OFF .. OFF+LEN). */
typedef struct {
    uint32_t off, len;
    tk_stack_id id; /* TK_NO_STACK until first emitted */
} read_mlir_memo;

/* A stack in a result: MEMO ? memo.v[AT] : frames.v[AT .. AT+LEN). */
typedef struct {
    uint32_t at, len;
    uint32_t memo;
} read_mlir_sref;

enum { READ_MLIR_ALIAS_UNRESOLVED, READ_MLIR_ALIAS_BUSY, READ_MLIR_ALIAS_DONE, READ_MLIR_ALIAS_UNDEFINED };

typedef struct {
    const char *name;        /* copies in the parser's own strings */
    uint32_t name_len;
    const char *body, *body_end; /* the `loc(...)` of the definition */
    uint32_t body_col;       /* column of its `loc(` on its line, from 0 */
    uint32_t line, segment;
    uint32_t hash;
    uint32_t memo_at, memo_n; /* its stacks, once resolved */
    uint8_t state;
} read_mlir_alias;

struct read_mlir_loc {
    char *name;          /* the text's, for diagnostics */
    GStringChunk *copies; /* alias names and bodies: the lines they were on
                             may be gone (a text read a line at a time) */
    tk_loctab *tab;
    tk_diags *diags;

    read_mlir_alias *aliases;
    size_t n_aliases, cap_aliases;
    uint32_t *slots; /* alias index + 1; 0 = empty */
    size_t mask;

    READ_VEC(tk_frame) frames; /* scratch */
    READ_VEC(read_mlir_sref) out;        /* scratch: the result being built */
    READ_VEC(tk_frame) mframes;
    READ_VEC(read_mlir_memo) memo;
    READ_VEC(char) buf; /* an unescaped path */

    uint64_t budget;
    int degraded;
    int has_inline;

    /* The location being read. */
    uint32_t line, segment;
    int depth;
    uint32_t warn_line, warn_count, warn_hidden;
    const char *err, *err_at;
    int warned_frames, warned_stacks;
    read_frames acc; /* read_mlir_combine()'s stack being cut */
};

/* The growing of READ_VEC_GROW: a buffer of at least NEED elements of ELEM
 * bytes, *CAP updated. */
void *read_vec_grow(void *v, size_t *cap, size_t need, size_t elem);

/* Characters of an alias name (after '#'); P past the spaces before E; 1
 * when P starts with the keyword KW (N bytes) not followed by an
 * identifier character; the hash of alias NAME in SEGMENT. */
int read_mlir_is_alias_char(unsigned char c);
const char *read_mlir_skip_ws(const char *p, const char *e);
int read_mlir_at_word(const char *p, const char *e, const char *kw, size_t n);
uint32_t read_mlir_hash_name(const char *s, size_t n, uint32_t segment);

/* A warning on the current line (at most WARNINGS_PER_LINE of them, the rest
 * counted, then said by read_mlir_flush_hidden()); the first reason the
 * location cannot be read (returns NULL); N frames of work charged. */
void read_mlir_warn(read_mlir_loc *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void read_mlir_flush_hidden(read_mlir_loc *m);
const char *read_mlir_fail(read_mlir_loc *m, const char *at, const char *why);
void read_mlir_charge(read_mlir_loc *m, size_t n);

/* The path between S (after the opening quote) and E (the closing quote)
 * with MLIR's escapes undone; *LEN its length.  Points into the text when
 * there is no escape, else into m->buf. */
const char *read_mlir_unescape(read_mlir_loc *m, const char *s, const char *e,
                               size_t *len);

/* The alias table: the index of alias NAME (hash H) in SEGMENT, or
 * (size_t)-1 with *SLOT where it would go; A put at SLOT, its index. */
size_t read_mlir_alias_find(const read_mlir_loc *m, const char *name, size_t len,
                            uint32_t segment, uint32_t h, size_t *slot);
size_t read_mlir_alias_insert(read_mlir_loc *m, size_t slot, const read_mlir_alias *a);

/* The result being built: a stack of one frame F; at most the stacks
 * allowed from FROM on; callsite callee stacks out[A0, A1) and caller stacks
 * out[A1, A2) replaced by their combinations. */
void read_mlir_push_frame_stack(read_mlir_loc *m, tk_frame f);
void read_mlir_cap_stacks(read_mlir_loc *m, size_t from);
void read_mlir_combine(read_mlir_loc *m, size_t a0, size_t a1, size_t a2);

#endif
