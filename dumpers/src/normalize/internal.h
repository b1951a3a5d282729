/* internal.h - the builder the dialect normalizers write into
 * (internal).
 *
 * A dialect's line function reads one line of the dump and writes its
 * normalized text through nb_put*(), names the values it meets through
 * nb_ref(), and ends the line with nb_end_line() (or nb_ignore_line() for a
 * line that only carries debug information).  The builder keeps all output
 * in a few growing arrays: one text buffer, one entry per kept line, one per
 * value reference, and a table interning value names per function.  None of
 * them is allocated per line.
 */
#ifndef TKDUMP_NORMALIZE_INTERNAL_H
#define TKDUMP_NORMALIZE_INTERNAL_H

#include <glib.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tkdump/tk_normalize.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef struct {
    uint64_t hash;
    const char *name; /* the builder's copy */
    uint32_t len;
    uint32_t scope;
    uint32_t id;      /* UINT32_MAX: empty slot */
    int defined;      /* a definition of the name was seen */
} nb_slot;

/* A value name in the name table.  Most names are a few bytes ("12",
 * "%offsets_3"): their bytes are kept in the slot, so that a lookup compares
 * words there instead of reading the name's first use far back in the dump
 * (a cache miss on every reference of a big dump). */
typedef struct {
    uint32_t hash;    /* the low bits of the name's hash */
    uint32_t len;
    uint32_t scope;   /* NB_DEFINED: a definition of the name was seen */
    uint32_t id;      /* UINT32_MAX: empty slot */
    uint64_t w0;      /* the name's first 8 bytes, zero padded */
    union {
        uint64_t w1;      /* len <= 16: its next 8 bytes, zero padded */
        const char *name; /* longer: the builder's copy of the name */
    } u;
} nb_vslot;

/* Set in nb_vslot.scope; scopes are counted "define" lines, far fewer. */
#define NB_DEFINED 0x80000000u

struct tk_normalize {
    tk_ir_dialect dialect;
    uint32_t n_orig;
    int hashes_only;          /* TK_NORMALIZE_HASHES_ONLY: no LINES, TEXT
                                 holds the line being normalized only */

    char *text;               /* normalized lines, back to back */
    size_t text_len, text_cap;

    uint32_t n_kept, kept_cap;
    tk_diff_line *lines;      /* text pointers set when the build ends */
    size_t *line_off;         /* offset of each kept line in TEXT (build) */
    uint64_t *hashes;
    uint32_t *orig;           /* kept -> dump index */
    uint32_t *kept_of;        /* dump index -> kept, or TK_NORMALIZE_IGNORED */
    uint32_t kept_of_cap;
    tk_diff_input input;

    uint32_t *ref_start;      /* n_kept + 1 entries: refs of kept line K are
                                 refs[ref_start[K] .. ref_start[K+1]) */
    uint32_t *refs;           /* value ids */
    size_t n_refs, refs_cap;
    uint32_t n_values;
};

typedef struct {
    tk_normalize *n;
    size_t line_begin;        /* offset in n->text where this line began */
    size_t refs_begin;
    uint32_t scope;           /* current function (0: module level) */
    int in_body;              /* LLVM IR: between a "define" and its "}" */

    nb_vslot *slots;          /* name table, open addressing */
    size_t slot_mask, slot_used;

    nb_slot *aliases;         /* MLIR attribute aliases: name -> index */
    size_t alias_mask, n_aliases;
    uint64_t *alias_hash;     /* per alias: hash of its definition */
    const char **alias_text;  /* per alias: its normalized definition, kept
                                 with TK_NORMALIZE_EXPAND_ALIASES (in NAMES) */
    uint32_t *alias_text_len;
    int expand_aliases;       /* TK_NORMALIZE_EXPAND_ALIASES */
    /* Copies of the names the tables keep (alias names, value names longer
     * than a slot holds): a line given to the builder is gone after it. */
    GStringChunk *names;
} nb_builder;

/* Scope 0 is the module: metadata numbers and attribute groups live there. */
#define NB_MODULE 0u

void nb_reserve(nb_builder *b, size_t more);

static inline void nb_put(nb_builder *b, const char *p, size_t n)
{
    if (b->n->text_len + n > b->n->text_cap)
        nb_reserve(b, n);
    memcpy(b->n->text + b->n->text_len, p, n);
    b->n->text_len += n;
}

static inline void nb_putc(nb_builder *b, char c)
{
    if (b->n->text_len + 1 > b->n->text_cap)
        nb_reserve(b, 1);
    b->n->text[b->n->text_len++] = c;
}

/* The last byte written on this line, or 0 at its start. */
static inline char nb_last(const nb_builder *b)
{
    return b->n->text_len > b->line_begin ? b->n->text[b->n->text_len - 1] : 0;
}

/* Drops the last byte written on this line (there must be one). */
static inline void nb_unput(nb_builder *b)
{
    if (b->n->text_len > b->line_begin)
        b->n->text_len--;
}

/* Records that the line names the value NAME (LEN bytes, as written in the
 * dump, sigil included) of SCOPE (b->scope or NB_MODULE): the value the name
 * was last defined as, or a value a later definition will take (a forward
 * reference: an LLVM phi, a branch to a block further down). */
void nb_ref(nb_builder *b, uint32_t scope, const char *name, size_t len);

/* Records that the line defines NAME.  A name defined again is another
 * value: MLIR reuses names in sibling regions ("%group_size_m" in each
 * branch of an scf.if), each visible until its region closes, so the uses
 * after a definition are of that definition. */
void nb_def(nb_builder *b, uint32_t scope, const char *name, size_t len);

/* Records that the alias NAME (LEN bytes, '#' included) stands for a value
 * whose normalized text hashes to HASH; a later definition replaces it. */
void nb_alias_set(nb_builder *b, const char *name, size_t len,
                  uint64_t hash);

/* Whether NAME was defined as an alias; its hash in *HASH. */
/* With EXPAND_ALIASES: records the normalized definition TEXT of alias NAME
 * (after nb_alias_set()). */
void nb_alias_set_text(nb_builder *b, const char *name, size_t len,
                       const char *text, size_t text_len);
/* The definition text of alias NAME, or NULL (not expanding, unknown). */
const char *nb_alias_text(const nb_builder *b, const char *name, size_t len,
                          size_t *text_len);
int nb_alias_get(const nb_builder *b, const char *name, size_t len,
                 uint64_t *hash);

/* Starts a new function: its value names are its own. */
static inline void nb_new_scope(nb_builder *b)
{
    b->scope++;
}

/* Starts a line: what nb_end_line() or nb_ignore_line() will keep or drop. */
void nb_begin_line(nb_builder *b);

/* Ends the line: trailing spaces are dropped, the line is kept. */
void nb_end_line(nb_builder *b, uint32_t orig);

/* Drops what was written for the line and marks it ignored. */
void nb_ignore_line(nb_builder *b, uint32_t orig);

/* Copies a string literal starting at P (a '"') up to and with its closing
 * quote (a backslash escapes the next byte), or to END.  Returns the byte
 * after it. */
const char *nb_copy_string(nb_builder *b, const char *p, const char *end);

/* One line of each dialect: [S, END) is the line without its line end. */
void norm_mlir_line(nb_builder *b, const char *s, const char *end,
                    uint32_t orig);
void norm_llvm_line(nb_builder *b, const char *s, const char *end,
                    uint32_t orig);
void norm_ptx_line(nb_builder *b, const char *s, const char *end,
                   uint32_t orig);
void norm_sass_line(nb_builder *b, const char *s, const char *end,
                    uint32_t orig);
void norm_mir_line(nb_builder *b, const char *s, const char *end,
                   uint32_t orig);

/* Characters of MLIR and LLVM identifiers after the sigil. */
static inline int nb_is_id(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$' ||
           c == '-';
}

static inline int nb_is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* The first byte in [P, END) that is one of C0..C4, or END; TABLE marks the
 * same five bytes.  The runs between special bytes are most of a dump (an
 * LLVM "{ float, float, ... }" is hundreds of bytes): 16 bytes are looked at
 * a time where SSE2 is there, one at a time otherwise. */
static inline const char *nb_scan5(const char *p, const char *end,
                                   const unsigned char table[256], char c0,
                                   char c1, char c2, char c3, char c4)
{
#if defined(__SSE2__)
    const __m128i v0 = _mm_set1_epi8(c0), v1 = _mm_set1_epi8(c1),
                  v2 = _mm_set1_epi8(c2), v3 = _mm_set1_epi8(c3),
                  v4 = _mm_set1_epi8(c4);
    while (end - p >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i m = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(x, v0), _mm_cmpeq_epi8(x, v1)),
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, v2),
                                      _mm_cmpeq_epi8(x, v3)),
                         _mm_cmpeq_epi8(x, v4)));
        unsigned bits = (unsigned)_mm_movemask_epi8(m);
        if (bits)
            return p + __builtin_ctz(bits);
        p += 16;
    }
#else
    (void)c0, (void)c1, (void)c2, (void)c3, (void)c4;
#endif
    while (p < end && !table[(unsigned char)*p])
        p++;
    return p;
}

#endif
