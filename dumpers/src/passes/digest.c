/* digest.c - content hashes of dump bodies and stage texts.
 *
 * A body is matched to a kernel's final stage by content: Triton writes the
 * final .ttir/.ttgir/.llir with the same printer that prints the dumps, so
 * the texts are equal but for blank lines.  The "noloc" hash also leaves out
 * debug locations, for stages written with other location settings.
 *
 * The hash takes 8 bytes at a time (little-endian, so that a line fed in
 * pieces hashes like the whole line); it only has to tell texts apart, not
 * resist an adversary.  Even and odd words go to two lanes: each lane is a
 * chain of dependent multiplies, and two of them run side by side, which
 * halved the hash's share of a report's time.
 *
 * Each byte is hashed once.  The noloc hash takes the text without its
 * locations; a second hash, "left", takes only what noloc left out: each
 * location piece with the place it came from (the noloc bytes before it)
 * and its length, each whole line left out (a "#loc" alias, LLVM
 * metadata) with its place and a mark.  The text can be put back together
 * from the two streams, so the exact digest, made of both, tells texts
 * apart as a hash of every byte would; hashing every byte a second time
 * had been a tenth of a report's time.
 */
#include "passes/internal.h"

#include <string.h>

#include "tkdump/tk_lines.h"
#include "tkdump/tk_stage.h"

#define P1 0x9E3779B185EBCA87ull
#define P2 0xC2B2AE3D27D4EB4Full

static inline uint64_t rotl64(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

static inline uint64_t mix_lane(uint64_t lane, uint64_t w)
{
    lane += w * P2;
    return rotl64(lane, 31) * P1;
}

/* One word into the lane whose turn it is. */
static inline void mix(passes_hasher *h, uint64_t w)
{
    unsigned l = (unsigned)(h->words++ & 1);
    h->h[l] = mix_lane(h->h[l], w);
}

static void hasher_init(passes_hasher *h)
{
    h->h[0] = P1;
    h->h[1] = P2;
    h->words = 0;
    h->total = 0;
    h->tail = 0;
    h->n_tail = 0;
}

/* Up to 7 bytes at P as a little-endian word, read without a loop. */
static inline uint64_t load_short(const char *p, size_t n)
{
    uint64_t v = 0;
    size_t at = 0;
    if (n & 4) {
        uint32_t w;
        memcpy(&w, p, 4);
        v = GUINT32_FROM_LE(w);
        at = 4;
    }
    if (n & 2) {
        uint16_t w;
        memcpy(&w, p + at, 2);
        v |= (uint64_t)GUINT16_FROM_LE(w) << (8 * at);
        at += 2;
    }
    if (n & 1)
        v |= (uint64_t)(uint8_t)p[at] << (8 * at);
    return v;
}

/* The bytes are mixed as one stream of little-endian words whatever the
 * pieces they come in (TAIL holds the first N_TAIL bytes of a word not
 * complete yet).  Lines are fed one by one, so a piece mostly starts inside
 * a word: the bytes that complete it and the bytes left after the last
 * whole word are read at once, not one at a time. */
static void hasher_update(passes_hasher *h, const char *p, size_t n)
{
    h->total += n;
    unsigned t = h->n_tail; /* 0..7 */
    if (t > 0) {
        size_t need = 8 - t;
        if (n < need) {
            h->tail |= load_short(p, n) << (8 * t);
            h->n_tail = t + (unsigned)n;
            return;
        }
        mix(h, h->tail | (load_short(p, need) << (8 * t)));
        p += need;
        n -= need;
        h->tail = 0;
        h->n_tail = 0;
    }
    /* Two words at a time, in locals: P may alias H, so the lanes would
     * otherwise go through memory on every word. */
    unsigned first = (unsigned)(h->words & 1);
    uint64_t a = h->h[first], b = h->h[first ^ 1];
    size_t pairs = n / 16;
    for (size_t i = 0; i < pairs; i++) {
        uint64_t w0, w1;
        memcpy(&w0, p, 8);
        memcpy(&w1, p + 8, 8);
        a = mix_lane(a, GUINT64_FROM_LE(w0));
        b = mix_lane(b, GUINT64_FROM_LE(w1));
        p += 16;
    }
    h->h[first] = a;
    h->h[first ^ 1] = b;
    h->words += 2 * pairs;
    n -= 16 * pairs;
    if (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        mix(h, GUINT64_FROM_LE(w));
        p += 8;
        n -= 8;
    }
    if (n > 0) {
        h->tail = load_short(p, n);
        h->n_tail = (unsigned)n;
    }
}

static uint64_t hasher_finish(const passes_hasher *h0)
{
    passes_hasher h = *h0;
    if (h.n_tail)
        mix(&h, h.tail);
    mix(&h, h.total);
    uint64_t x = h.h[0] ^ rotl64(h.h[1], 29); /* murmur3's finalizer: every bit counts */
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

void passes_digester_init(passes_digester *d, passes_digest_lang lang)
{
    memset(d, 0, sizeof *d);
    d->lang = lang;
    hasher_init(&d->left);
    hasher_init(&d->noloc);
}

/* V as 8 little-endian bytes of the stream. */
static void hasher_u64(passes_hasher *h, uint64_t v)
{
    uint64_t le = GUINT64_TO_LE(v);
    hasher_update(h, (const char *)&le, 8);
}

/* A whole line is left out of noloc: its mark in "left" (the line's bytes
 * follow, then its "\n"). */
#define LEFT_WHOLE_LINE UINT64_MAX

/* N bytes at S left out of noloc here: their place, length and bytes. */
static void left_piece(passes_digester *d, const char *s, size_t n)
{
    hasher_u64(&d->left, d->noloc.total);
    hasher_u64(&d->left, n);
    hasher_update(&d->left, s, n);
}

/* The first LIT (N bytes) in [P, END), found by the byte LIT[AT], one that
 * is rare in the lines searched, with memchr: glibc's memmem costs several
 * instructions a byte on these lines, memchr a fraction of one. */
static const char *find_lit(const char *p, const char *end, const char *lit,
                            size_t n, size_t at)
{
    if ((size_t)(end - p) < n)
        return NULL;
    const char *q = p + at;            /* the first place LIT[AT] may be */
    const char *last = end - (n - at); /* the last one */
    while (q <= last) {
        q = memchr(q, lit[at], (size_t)(last - q) + 1);
        if (!q)
            return NULL;
        if (memcmp(q - at, lit, n) == 0)
            return q - at;
        q++;
    }
    return NULL;
}

/* MLIR without its locations: every " loc(...)" (nested parentheses and
 * quoted paths included) is left out. */
static void update_mlir_noloc(passes_digester *d, const char *s, size_t len)
{
    passes_hasher *h = &d->noloc;
    const char *p = s, *end = s + len;
    for (;;) {
        const char *q = find_lit(p, end, " loc(", 5, 4);
        if (!q) {
            hasher_update(h, p, (size_t)(end - p));
            return;
        }
        hasher_update(h, p, (size_t)(q - p));
        const char *r = q + 4; /* at '(' */
        int depth = 0;
        while (r < end) {
            char c = *r++;
            if (c == '"') {
                while (r < end && *r != '"')
                    r += (*r == '\\' && r + 1 < end) ? 2 : 1;
                if (r < end)
                    r++;
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                break;
            }
        }
        left_piece(d, q, (size_t)(r - q));
        p = r; /* an unclosed loc( drops the rest of the line */
    }
}

/* LLVM IR without ", !dbg !N" attachments. */
static void update_llvm_noloc(passes_digester *d, const char *s, size_t len)
{
    passes_hasher *h = &d->noloc;
    const char *p = s, *end = s + len;
    for (;;) {
        const char *q = find_lit(p, end, ", !dbg !", 8, 2);
        if (!q) {
            hasher_update(h, p, (size_t)(end - p));
            return;
        }
        hasher_update(h, p, (size_t)(q - p));
        p = q + 8;
        while (p < end && *p >= '0' && *p <= '9')
            p++;
        left_piece(d, q, (size_t)(p - q));
    }
}

/* The whole line S is left out of noloc. */
static void left_line(passes_digester *d, const char *s, size_t len)
{
    d->skip_noloc = 1;
    hasher_u64(&d->left, d->noloc.total);
    hasher_u64(&d->left, LEFT_WHOLE_LINE);
    hasher_update(&d->left, s, len);
}

void passes_digester_begin(passes_digester *d, const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    d->skip_exact = d->skip_noloc = (i == len); /* blank lines never count */
    if (d->skip_exact)
        return;
    switch (d->lang) {
    case PASSES_DIGEST_MLIR:
        if (len >= 4 && memcmp(s, "#loc", 4) == 0)
            left_line(d, s, len);
        else
            update_mlir_noloc(d, s, len);
        break;
    case PASSES_DIGEST_LLVM:
        if (s[0] == '!' || (len - i >= 5 && memcmp(s + i, "#dbg_", 5) == 0))
            left_line(d, s, len);
        else
            update_llvm_noloc(d, s, len);
        break;
    case PASSES_DIGEST_RAW:
        hasher_update(&d->noloc, s, len);
        break;
    }
}

void passes_digester_more(passes_digester *d, const char *s, size_t len)
{
    if (d->skip_exact)
        return;
    /* the rest of a line goes where its start went, as it is */
    hasher_update(d->skip_noloc ? &d->left : &d->noloc, s, len);
}

/* One byte, as hasher_update() would take it: every line ends with one. */
static inline void hasher_byte(passes_hasher *h, uint8_t c)
{
    h->total++;
    h->tail |= (uint64_t)c << (8 * h->n_tail);
    if (++h->n_tail == 8) {
        mix(h, h->tail);
        h->tail = 0;
        h->n_tail = 0;
    }
}

void passes_digester_end(passes_digester *d)
{
    if (!d->skip_exact)
        hasher_byte(d->skip_noloc ? &d->left : &d->noloc, '\n');
    d->skip_exact = d->skip_noloc = 0;
}

void passes_digester_finish(passes_digester *d, tk_pass_digest *out)
{
    out->noloc = hasher_finish(&d->noloc);
    passes_hasher both;
    hasher_init(&both);
    hasher_u64(&both, out->noloc);
    hasher_u64(&both, hasher_finish(&d->left));
    out->exact = hasher_finish(&both);
}

static passes_digest_lang lang_of(tk_stage_kind kind)
{
    switch (kind) {
    case TK_STAGE_TTIR:
    case TK_STAGE_TTGIR:
        return PASSES_DIGEST_MLIR;
    case TK_STAGE_LLIR:
        return PASSES_DIGEST_LLVM;
    default:
        return PASSES_DIGEST_RAW;
    }
}

void tk_pass_digest_text(tk_stage_kind kind, const char *data, size_t len,
                         tk_pass_digest *out)
{
    passes_digester d;
    passes_digester_init(&d, lang_of(kind));
    const char *p = data, *end = data + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        size_t n = (size_t)(e - p);
        n = tk_lines_trim(p, n);
        passes_digester_begin(&d, p, n);
        passes_digester_end(&d);
        p = nl ? nl + 1 : end;
    }
    passes_digester_finish(&d, out);
}

void tk_pass_digest_stage(const tk_stage *stage, tk_pass_digest *out)
{
    passes_digester d;
    passes_digester_init(&d, lang_of(tk_stage_kind_of(stage)));
    uint32_t n = tk_stage_line_count(stage);
    for (uint32_t l = 1; l <= n; l++) {
        size_t len;
        const char *s = tk_stage_line(stage, l, &len);
        passes_digester_begin(&d, s, len);
        passes_digester_end(&d);
    }
    passes_digester_finish(&d, out);
}
