/* mlir_loc.c - MLIR location expressions to inline stacks.
 *
 * Grammar read (that of MLIR's location parser):
 *   inst := 'unknown' | '#' alias
 *         | string ':' L [':' C ['to' [L2] ':' C2]]     file location / range
 *         | string ['(' inst ')']                       name location
 *         | 'callsite' '(' inst 'at' inst ')'
 *         | 'fused' ['<' attr '>'] '[' inst (',' inst)* ']'
 *
 * Results are built in a scratch area (frames + references to stacks) that is
 * emptied after each top-level location.  An alias is resolved once, on first
 * use, and its stacks are moved into a memo area; later uses refer to them
 * without copying frames, and keep the interned stack id once it is known, so
 * a file that says `loc(#loc12)` a million times costs a million lookups.
 *
 * The grammar is read by mlir_loc_parse.c; this file holds the reader's
 * state, its alias table, diagnostics and the stacks a location builds.
 */
#include "read/mlir_loc_internal.h"

#include <stdarg.h>
#include <string.h>


/* Past this much work (frames written or hashed), each location keeps one
 * stack: hostile inputs whose locations multiply
 * (callsites of fused locations of callsites...) stay linear in time and
 * memory (stacks are cut at read/frames.h's one depth either way).  Real
 * dumps use under 0.01 frame per byte (the 11 MB pass dump of
 * compiled_block: 73k frames), so this never bites them. */
#define WORK_PER_BYTE 1
#define WORK_BASE (4u << 20)

/* A broken line can hold millions of unreadable locations: past this many
 * warnings on one line, the rest are only counted. */
#define WARNINGS_PER_LINE 5

void *read_vec_grow(void *v, size_t *cap, size_t need, size_t elem)
{
    size_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    *cap = c;
    return g_realloc_n(v, c, elem);
}

/* ---- small helpers ------------------------------------------------------ */

static int is_ident(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.';
}

int read_mlir_is_alias_char(unsigned char c)
{
    return is_ident(c) || c == '-';
}

const char *read_mlir_skip_ws(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    return p;
}

/* Whether keyword KW starts at P and is not the prefix of a longer word. */
int read_mlir_at_word(const char *p, const char *e, const char *kw, size_t n)
{
    return (size_t)(e - p) >= n && memcmp(p, kw, n) == 0 &&
           (p + n == e || !is_ident((unsigned char)p[n]));
}

uint32_t read_mlir_hash_name(const char *s, size_t n, uint32_t segment)
{
    uint32_t h = 2166136261u ^ segment;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

void read_mlir_flush_hidden(read_mlir_loc *m)
{
    if (m->warn_hidden)
        tk_diags_add(m->diags, TK_DIAG_WARNING, m->name, m->warn_line,
                     "%u more problems with locations on this line not shown",
                     m->warn_hidden);
    m->warn_hidden = 0;
}

void read_mlir_warn(read_mlir_loc *m, const char *fmt, ...)
{
    if (m->line != m->warn_line) {
        read_mlir_flush_hidden(m);
        m->warn_line = m->line;
        m->warn_count = 0;
    }
    if (m->warn_count >= WARNINGS_PER_LINE) {
        m->warn_hidden++;
        return;
    }
    m->warn_count++;
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    tk_diags_add(m->diags, TK_DIAG_WARNING, m->name, m->line, "%s", msg);
    g_free(msg);
}

const char *read_mlir_fail(read_mlir_loc *m, const char *at, const char *why)
{
    if (!m->err) {
        m->err = why;
        m->err_at = at;
    }
    return NULL;
}

/* Accounts for N frames of work; past the budget, switches to the small caps
 * (once, with a warning).  The work itself is always done: it is capped. */
void read_mlir_charge(read_mlir_loc *m, size_t n)
{
    if (m->budget >= n) {
        m->budget -= n;
        return;
    }
    m->budget = 0;
    if (!m->degraded) {
        m->degraded = 1;
        read_mlir_warn(m, "locations multiply too much to expand in full (nested "
                          "callsite and fused locations); from here on each location "
                          "keeps one stack");
    }
}

static size_t max_stacks(const read_mlir_loc *m)
{
    return m->degraded ? 1 : READ_MLIR_MAX_STACKS;
}

const char *read_mlir_string_end(const char *p, const char *e)
{
    const char *q = NULL;
    p++;
    for (;;) {
        if (p >= e)
            return NULL;
        /* The closing quote found last time stays valid until an escape
         * reaches it: each byte is looked at a bounded number of times. */
        if (!q || q < p) {
            q = memchr(p, '"', (size_t)(e - p));
            if (!q)
                return NULL;
        }
        const char *b = memchr(p, '\\', (size_t)(q - p));
        if (!b)
            return q + 1;
        p = b + 2;
    }
}

static int hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The path between S (after the opening quote) and E (the closing quote)
 * with MLIR's escapes undone; *LEN its length.  Points into the text when
 * there is no escape, else into m->buf. */
const char *read_mlir_unescape(read_mlir_loc *m, const char *s, const char *e,
                               size_t *len)
{
    if (!memchr(s, '\\', (size_t)(e - s))) {
        *len = (size_t)(e - s);
        return s;
    }
    m->buf.n = 0;
    READ_VEC_GROW(m->buf, (size_t)(e - s));
    char *o = m->buf.v;
    while (s < e) {
        if (*s != '\\' || s + 1 >= e) {
            *o++ = *s++;
            continue;
        }
        int hi = hex_value((unsigned char)s[1]);
        int lo = s + 2 < e ? hex_value((unsigned char)s[2]) : -1;
        if (hi >= 0 && lo >= 0) {
            *o++ = (char)(hi * 16 + lo);
            s += 3;
            continue;
        }
        switch (s[1]) {
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        default: *o++ = s[1]; break; /* \" and \\ */
        }
        s += 2;
    }
    *len = (size_t)(o - m->buf.v);
    return m->buf.v;
}

/* ---- the alias table ---------------------------------------------------- */

size_t read_mlir_alias_find(const read_mlir_loc *m, const char *name, size_t len,
                            uint32_t segment, uint32_t h, size_t *slot)
{
    size_t j = h & m->mask;
    for (uint32_t v; (v = m->slots[j]) != 0; j = (j + 1) & m->mask) {
        const read_mlir_alias *a = &m->aliases[v - 1];
        if (a->hash == h && a->segment == segment && a->name_len == len &&
            memcmp(a->name, name, len) == 0)
            return v - 1;
    }
    *slot = j;
    return SIZE_MAX;
}

size_t read_mlir_alias_insert(read_mlir_loc *m, size_t slot, const read_mlir_alias *a)
{
    if (m->n_aliases == m->cap_aliases) {
        m->cap_aliases = m->cap_aliases ? m->cap_aliases * 2 : 256;
        m->aliases = g_renew(read_mlir_alias, m->aliases, m->cap_aliases);
    }
    size_t idx = m->n_aliases++;
    m->aliases[idx] = *a;
    m->slots[slot] = (uint32_t)idx + 1;
    if (m->n_aliases * 3 > (m->mask + 1) * 2) {
        size_t nm = m->mask * 2 + 1;
        uint32_t *ns = g_new0(uint32_t, nm + 1);
        for (size_t i = 0; i < m->n_aliases; i++) {
            size_t j = m->aliases[i].hash & nm;
            while (ns[j])
                j = (j + 1) & nm;
            ns[j] = (uint32_t)i + 1;
        }
        g_free(m->slots);
        m->slots = ns;
        m->mask = nm;
    }
    return idx;
}

read_mlir_loc *read_mlir_loc_new(const char *name, uint64_t bytes, tk_loctab *tab,
                                 tk_diags *diags)
{
    read_mlir_loc *m = g_new0(read_mlir_loc, 1);
    m->name = g_strdup(name);
    m->copies = g_string_chunk_new(4096);
    m->tab = tab;
    m->diags = diags;
    m->mask = 255;
    m->slots = g_new0(uint32_t, m->mask + 1);
    /* Bounded so that frame offsets stay within 32 bits. */
    m->budget = MIN(bytes * WORK_PER_BYTE + WORK_BASE,
                    (uint64_t)1 << 30);
    return m;
}

void read_mlir_loc_free(read_mlir_loc *m)
{
    if (!m)
        return;
    g_free(m->name);
    g_string_chunk_free(m->copies);
    g_free(m->aliases);
    g_free(m->slots);
    g_free(m->frames.v);
    g_free(m->out.v);
    g_free(m->mframes.v);
    g_free(m->memo.v);
    g_free(m->buf.v);
    g_free(m);
}

void read_mlir_loc_define(read_mlir_loc *m, const char *line_start,
                          const char *name, size_t name_len,
                          const char *body, const char *end, uint32_t line,
                          uint32_t segment)
{
    uint32_t h = read_mlir_hash_name(name, name_len, segment);
    size_t slot;
    size_t found = read_mlir_alias_find(m, name, name_len, segment, h, &slot);
    if (found != SIZE_MAX) {
        m->line = line;
        read_mlir_warn(m, "location alias #%.*s is defined again (first on line %u); "
                          "the first definition is used",
                       (int)name_len, name, m->aliases[found].line);
        return;
    }
    const char *copy = g_string_chunk_insert_len(m->copies, name, (gssize)(end - name));
    read_mlir_alias a = {
                  .name = copy,
                  .name_len = (uint32_t)name_len,
                  .body = copy + (body - name),
                  .body_end = copy + (end - name),
                  .body_col = (uint32_t)(body - line_start),
                  .line = line,
                  .segment = segment,
                  .hash = h,
        .state = READ_MLIR_ALIAS_UNRESOLVED,
    };
    read_mlir_alias_insert(m, slot, &a);
}

/* ---- building results --------------------------------------------------- */

static const tk_frame *sref_frames(const read_mlir_loc *m, read_mlir_sref r)
{
    return r.memo ? m->mframes.v + m->memo.v[r.at].off : m->frames.v + r.at;
}

void read_mlir_push_frame_stack(read_mlir_loc *m, tk_frame f)
{
    read_mlir_charge(m, 1);
    READ_VEC_GROW(m->frames, 1);
    READ_VEC_GROW(m->out, 1);
    m->out.v[m->out.n++] = (read_mlir_sref){(uint32_t)m->frames.n, 1, 0};
    m->frames.v[m->frames.n++] = f;
}

/* Keeps at most max_stacks() results from FROM on. */
void read_mlir_cap_stacks(read_mlir_loc *m, size_t from)
{
    if (m->out.n - from <= max_stacks(m))
        return;
    if (!m->warned_stacks && !m->degraded)
        read_mlir_warn(m, "location has more than %d inline stacks (fused or "
                          "callsite locations); the rest are dropped",
                       READ_MLIR_MAX_STACKS);
    m->warned_stacks = 1;
    m->out.n = from + max_stacks(m);
}

/* callsite: the callee stacks are out[A0, A1), the caller stacks out[A1, A2);
 * replaces them all with every callee stack followed by every caller stack. */
void read_mlir_combine(read_mlir_loc *m, size_t a0, size_t a1, size_t a2)
{
    if (a1 == a0 || a2 == a1)
        return; /* unknown on one side: the other side is the result */
    size_t made = 0;
    for (size_t i = a0; i < a1; i++)
        for (size_t j = a1; j < a2; j++) {
            if (made >= max_stacks(m)) {
                if (!m->warned_stacks && !m->degraded)
                    read_mlir_warn(m, "callsite location makes more than %d inline "
                                      "stacks; the rest are dropped",
                                   READ_MLIR_MAX_STACKS);
                m->warned_stacks = 1;
                goto done;
            }
            read_mlir_sref c = m->out.v[i], r = m->out.v[j];
            /* The one rule for deep stacks (read/frames.h): keep the
             * callee's innermost and the caller's outermost frames. */
            read_frames_reset(&m->acc);
            read_frames_push_n(&m->acc, sref_frames(m, c), c.len);
            read_frames_push_n(&m->acc, sref_frames(m, r), r.len);
            if (read_frames_dropped(&m->acc) && !m->warned_frames && !m->degraded) {
                read_frames_warn(&m->acc, m->diags, m->name, m->line);
                m->warned_frames = 1;
            }
            size_t len = read_frames_pushed(&m->acc) < READ_MAX_FRAMES
                             ? (size_t)read_frames_pushed(&m->acc)
                             : READ_MAX_FRAMES;
            read_mlir_charge(m, len);
            READ_VEC_GROW(m->frames, len);
            READ_VEC_GROW(m->out, 1);
            /* Pointers only after growing: the arrays may have moved. */
            read_frames_take(&m->acc, m->frames.v + m->frames.n);
            m->out.v[m->out.n++] =
                (read_mlir_sref){(uint32_t)m->frames.n, (uint32_t)len, 0};
            m->frames.n += len;
            made++;
        }
done:
    memmove(m->out.v + a0, m->out.v + a2, made * sizeof(read_mlir_sref));
    m->out.n = a0 + made;
}
