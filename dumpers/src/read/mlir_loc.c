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
 */
#include "read/mlir_loc.h"

#include <glib.h>
#include <stdarg.h>
#include <string.h>

#include "read/frames.h"
#include "util/scan.h"

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

#define VEC(T)                                                                 \
    struct {                                                                   \
        T *v;                                                                  \
        size_t n, cap;                                                         \
    }
#define VEC_GROW(vec, extra)                                                   \
    do {                                                                       \
        if ((vec).n + (extra) > (vec).cap)                                     \
            (vec).v = vec_grow((vec).v, &(vec).cap, (vec).n + (extra),         \
                               sizeof *(vec).v);                               \
    } while (0)

static void *vec_grow(void *v, size_t *cap, size_t need, size_t elem)
{
    size_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    *cap = c;
    return g_realloc_n(v, c, elem);
}

/* A stack held by the memo area: frames mframes[OFF .. OFF+LEN). */
typedef struct {
    uint32_t off, len;
    tk_stack_id id; /* TK_NO_STACK until first emitted */
} memo_stack;

/* A stack in a result: MEMO ? memo.v[AT] : frames.v[AT .. AT+LEN). */
typedef struct {
    uint32_t at, len;
    uint32_t memo;
} sref;

enum { A_UNRESOLVED, A_BUSY, A_DONE, A_UNDEFINED };

typedef struct {
    uint32_t name, name_len; /* offsets into the text */
    uint32_t body, body_end; /* the `loc(...)` of the definition */
    uint32_t line, segment;
    uint32_t hash;
    uint32_t memo_at, memo_n; /* its stacks, once resolved */
    uint8_t state;
} alias;

struct read_mlir_loc {
    const text_buf *text;
    tk_loctab *tab;
    tk_diags *diags;

    alias *aliases;
    size_t n_aliases, cap_aliases;
    uint32_t *slots; /* alias index + 1; 0 = empty */
    size_t mask;

    VEC(tk_frame) frames; /* scratch */
    VEC(sref) out;        /* scratch: the result being built */
    VEC(tk_frame) mframes;
    VEC(memo_stack) memo;
    VEC(char) buf; /* an unescaped path */

    uint64_t budget;
    int degraded;
    int has_inline;

    /* The location being read. */
    uint32_t line, segment;
    int depth;
    uint32_t warn_line, warn_count, warn_hidden;
    const char *err, *err_at;
    int warned_frames, warned_stacks;
    read_frames acc; /* combine()'s stack being cut */
};

/* ---- small helpers ------------------------------------------------------ */

static int is_ident(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.';
}

static int is_alias_char(unsigned char c)
{
    return is_ident(c) || c == '-';
}

static const char *skip_ws(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    return p;
}

/* Whether keyword KW starts at P and is not the prefix of a longer word. */
static int at_word(const char *p, const char *e, const char *kw, size_t n)
{
    return (size_t)(e - p) >= n && memcmp(p, kw, n) == 0 &&
           (p + n == e || !is_ident((unsigned char)p[n]));
}

static uint32_t hash_name(const char *s, size_t n, uint32_t segment)
{
    uint32_t h = 2166136261u ^ segment;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static void warn(read_mlir_loc *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void flush_hidden(read_mlir_loc *m)
{
    if (m->warn_hidden)
        tk_diags_add(m->diags, TK_DIAG_WARNING, m->text->name, m->warn_line,
                     "%u more problems with locations on this line not shown",
                     m->warn_hidden);
    m->warn_hidden = 0;
}

static void warn(read_mlir_loc *m, const char *fmt, ...)
{
    if (m->line != m->warn_line) {
        flush_hidden(m);
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
    tk_diags_add(m->diags, TK_DIAG_WARNING, m->text->name, m->line, "%s", msg);
    g_free(msg);
}

static const char *fail(read_mlir_loc *m, const char *at, const char *why)
{
    if (!m->err) {
        m->err = why;
        m->err_at = at;
    }
    return NULL;
}

/* Accounts for N frames of work; past the budget, switches to the small caps
 * (once, with a warning).  The work itself is always done: it is capped. */
static void charge(read_mlir_loc *m, size_t n)
{
    if (m->budget >= n) {
        m->budget -= n;
        return;
    }
    m->budget = 0;
    if (!m->degraded) {
        m->degraded = 1;
        warn(m, "locations multiply too much to expand in full (nested "
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
static const char *unescape(read_mlir_loc *m, const char *s, const char *e,
                            size_t *len)
{
    if (!memchr(s, '\\', (size_t)(e - s))) {
        *len = (size_t)(e - s);
        return s;
    }
    m->buf.n = 0;
    VEC_GROW(m->buf, (size_t)(e - s));
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

static size_t alias_find(const read_mlir_loc *m, const char *name, size_t len,
                         uint32_t segment, uint32_t h, size_t *slot)
{
    size_t j = h & m->mask;
    for (uint32_t v; (v = m->slots[j]) != 0; j = (j + 1) & m->mask) {
        const alias *a = &m->aliases[v - 1];
        if (a->hash == h && a->segment == segment && a->name_len == len &&
            memcmp(m->text->data + a->name, name, len) == 0)
            return v - 1;
    }
    *slot = j;
    return SIZE_MAX;
}

static size_t alias_insert(read_mlir_loc *m, size_t slot, const alias *a)
{
    if (m->n_aliases == m->cap_aliases) {
        m->cap_aliases = m->cap_aliases ? m->cap_aliases * 2 : 256;
        m->aliases = g_renew(alias, m->aliases, m->cap_aliases);
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

read_mlir_loc *read_mlir_loc_new(const text_buf *text, tk_loctab *tab,
                                 tk_diags *diags)
{
    read_mlir_loc *m = g_new0(read_mlir_loc, 1);
    m->text = text;
    m->tab = tab;
    m->diags = diags;
    m->mask = 255;
    m->slots = g_new0(uint32_t, m->mask + 1);
    /* Bounded so that frame offsets stay within 32 bits. */
    m->budget = MIN((uint64_t)text->len * WORK_PER_BYTE + WORK_BASE,
                    (uint64_t)1 << 30);
    return m;
}

void read_mlir_loc_free(read_mlir_loc *m)
{
    if (!m)
        return;
    g_free(m->aliases);
    g_free(m->slots);
    g_free(m->frames.v);
    g_free(m->out.v);
    g_free(m->mframes.v);
    g_free(m->memo.v);
    g_free(m->buf.v);
    g_free(m);
}

void read_mlir_loc_define(read_mlir_loc *m, const char *name, size_t name_len,
                          const char *body, const char *end, uint32_t line,
                          uint32_t segment)
{
    const char *base = m->text->data;
    uint32_t h = hash_name(name, name_len, segment);
    size_t slot;
    size_t found = alias_find(m, name, name_len, segment, h, &slot);
    if (found != SIZE_MAX) {
        m->line = line;
        warn(m, "location alias #%.*s is defined again (first on line %u); "
                "the first definition is used",
             (int)name_len, name, m->aliases[found].line);
        return;
    }
    alias a = {
        .name = (uint32_t)(name - base),
        .name_len = (uint32_t)name_len,
        .body = (uint32_t)(body - base),
        .body_end = (uint32_t)(end - base),
        .line = line,
        .segment = segment,
        .hash = h,
        .state = A_UNRESOLVED,
    };
    alias_insert(m, slot, &a);
}

/* ---- building results --------------------------------------------------- */

static const tk_frame *sref_frames(const read_mlir_loc *m, sref r)
{
    return r.memo ? m->mframes.v + m->memo.v[r.at].off : m->frames.v + r.at;
}

static void push_frame_stack(read_mlir_loc *m, tk_frame f)
{
    charge(m, 1);
    VEC_GROW(m->frames, 1);
    VEC_GROW(m->out, 1);
    m->out.v[m->out.n++] = (sref){(uint32_t)m->frames.n, 1, 0};
    m->frames.v[m->frames.n++] = f;
}

/* Keeps at most max_stacks() results from FROM on. */
static void cap_stacks(read_mlir_loc *m, size_t from)
{
    if (m->out.n - from <= max_stacks(m))
        return;
    if (!m->warned_stacks && !m->degraded)
        warn(m, "location has more than %d inline stacks (fused or "
                "callsite locations); the rest are dropped",
             READ_MLIR_MAX_STACKS);
    m->warned_stacks = 1;
    m->out.n = from + max_stacks(m);
}

/* callsite: the callee stacks are out[A0, A1), the caller stacks out[A1, A2);
 * replaces them all with every callee stack followed by every caller stack. */
static void combine(read_mlir_loc *m, size_t a0, size_t a1, size_t a2)
{
    if (a1 == a0 || a2 == a1)
        return; /* unknown on one side: the other side is the result */
    size_t made = 0;
    for (size_t i = a0; i < a1; i++)
        for (size_t j = a1; j < a2; j++) {
            if (made >= max_stacks(m)) {
                if (!m->warned_stacks && !m->degraded)
                    warn(m, "callsite location makes more than %d inline "
                            "stacks; the rest are dropped",
                         READ_MLIR_MAX_STACKS);
                m->warned_stacks = 1;
                goto done;
            }
            sref c = m->out.v[i], r = m->out.v[j];
            /* The one rule for deep stacks (read/frames.h): keep the
             * callee's innermost and the caller's outermost frames. */
            read_frames_reset(&m->acc);
            read_frames_push_n(&m->acc, sref_frames(m, c), c.len);
            read_frames_push_n(&m->acc, sref_frames(m, r), r.len);
            if (read_frames_dropped(&m->acc) && !m->warned_frames && !m->degraded) {
                read_frames_warn(&m->acc, m->diags, m->text->name, m->line);
                m->warned_frames = 1;
            }
            size_t len = read_frames_pushed(&m->acc) < READ_MAX_FRAMES
                             ? (size_t)read_frames_pushed(&m->acc)
                             : READ_MAX_FRAMES;
            charge(m, len);
            VEC_GROW(m->frames, len);
            VEC_GROW(m->out, 1);
            /* Pointers only after growing: the arrays may have moved. */
            read_frames_take(&m->acc, m->frames.v + m->frames.n);
            m->out.v[m->out.n++] =
                (sref){(uint32_t)m->frames.n, (uint32_t)len, 0};
            m->frames.n += len;
            made++;
        }
done:
    memmove(m->out.v + a0, m->out.v + a2, made * sizeof(sref));
    m->out.n = a0 + made;
}

/* ---- the parser --------------------------------------------------------- */

static const char *parse_inst(read_mlir_loc *m, const char *p, const char *e);

static void resolve(read_mlir_loc *m, size_t idx);

static const char *parse_alias_ref(read_mlir_loc *m, const char *p,
                                   const char *e)
{
    const char *name = p + 1, *q = name;
    while (q < e && is_alias_char((unsigned char)*q))
        q++;
    if (q == name)
        return fail(m, p, "'#' without an alias name");
    size_t len = (size_t)(q - name);
    uint32_t h = hash_name(name, len, m->segment);
    size_t slot;
    size_t idx = alias_find(m, name, len, m->segment, h, &slot);
    if (idx == SIZE_MAX) {
        /* Remembered as undefined, so that it is reported once. */
        warn(m, "location alias #%.*s is not defined", (int)len, name);
        alias a = {.name = (uint32_t)(name - m->text->data),
                   .name_len = (uint32_t)len,
                   .line = m->line,
                   .segment = m->segment,
                   .hash = h,
                   .state = A_UNDEFINED};
        alias_insert(m, slot, &a);
        return q;
    }
    switch (m->aliases[idx].state) {
    case A_UNDEFINED:
        return q;
    case A_BUSY:
        warn(m, "location alias #%.*s is part of a cycle (defined on line "
                "%u); it has no stack",
             (int)len, name, m->aliases[idx].line);
        return q;
    case A_UNRESOLVED:
        resolve(m, idx);
        break;
    default:
        break;
    }
    const alias *a = &m->aliases[idx];
    VEC_GROW(m->out, a->memo_n);
    for (uint32_t i = 0; i < a->memo_n; i++)
        m->out.v[m->out.n++] =
            (sref){a->memo_at + i, m->memo.v[a->memo_at + i].len, 1};
    return q;
}

/* Reads an alias definition once and moves its stacks to the memo area.
 * Problems inside it are reported on its own line and leave it empty; the
 * location that referred to it reads on. */
static void resolve(read_mlir_loc *m, size_t idx)
{
    alias *a = &m->aliases[idx];
    a->state = A_BUSY;
    uint32_t saved_line = m->line;
    int saved_wf = m->warned_frames, saved_ws = m->warned_stacks;
    m->line = a->line;
    m->warned_frames = m->warned_stacks = 0;
    size_t out0 = m->out.n, frames0 = m->frames.n;
    const char *body = m->text->data + a->body;
    const char *end = m->text->data + a->body_end;

    const char *r = parse_inst(m, body + 4, end); /* after "loc(" */
    if (r) {
        r = skip_ws(r, end);
        if (r >= end || *r != ')')
            r = fail(m, r, "no ')' closes the location");
    }
    if (!r) {
        const alias *b = &m->aliases[idx];
        warn(m, "cannot read location alias #%.*s: %s at column %zu",
             (int)b->name_len, m->text->data + b->name, m->err,
             (size_t)(m->err_at - (m->text->data + m->text->line_start[b->line - 1])) + 1);
        m->err = m->err_at = NULL;
        m->out.n = out0;
    }

    size_t n = m->out.n - out0;
    VEC_GROW(m->memo, n);
    uint32_t memo_at = (uint32_t)m->memo.n;
    for (size_t i = out0; i < m->out.n; i++) {
        sref s = m->out.v[i];
        if (s.memo) {
            /* Another alias's stack: share its frames (and its id). */
            m->memo.v[m->memo.n++] = m->memo.v[s.at];
            continue;
        }
        charge(m, s.len);
        VEC_GROW(m->mframes, s.len);
        memcpy(m->mframes.v + m->mframes.n, m->frames.v + s.at,
               s.len * sizeof(tk_frame));
        m->memo.v[m->memo.n++] =
            (memo_stack){(uint32_t)m->mframes.n, s.len, TK_NO_STACK};
        m->mframes.n += s.len;
    }
    m->out.n = out0;
    m->frames.n = frames0;
    a = &m->aliases[idx]; /* the table may have grown meanwhile */
    a->memo_at = memo_at;
    a->memo_n = (uint32_t)n;
    a->state = A_DONE;
    m->line = saved_line;
    m->warned_frames = saved_wf;
    m->warned_stacks = saved_ws;
}

/* A file location "path":L[:C[ to [L2]:C2]]: S is the opening quote, Q just
 * past the closing one, COLON the ':' after it. */
static const char *parse_file_loc(read_mlir_loc *m, const char *s,
                                  const char *q, const char *colon,
                                  const char *e)
{
    uint32_t line = 0, col = 0, ignored;
    int overflow = 0;
    const char *r = skip_ws(colon + 1, e);
    scan_status st = scan_u32(&r, e, &line);
    if (st == SCAN_NONE)
        return fail(m, r, "no line number after the file name");
    overflow |= st == SCAN_OVERFLOW;
    const char *t = skip_ws(r, e);
    if (t < e && *t == ':') {
        r = skip_ws(t + 1, e);
        st = scan_u32(&r, e, &col);
        if (st == SCAN_NONE)
            return fail(m, r, "no column number after the line number");
        overflow |= st == SCAN_OVERFLOW;
        /* A range: only its start is a frame. */
        t = skip_ws(r, e);
        if (at_word(t, e, "to", 2)) {
            t = skip_ws(t + 2, e);
            if (scan_u32(&t, e, &ignored) != SCAN_NONE)
                t = skip_ws(t, e);
            if (t >= e || *t != ':')
                return fail(m, t, "no ':' in the end of a location range");
            t = skip_ws(t + 1, e);
            if (scan_u32(&t, e, &ignored) == SCAN_NONE)
                return fail(m, t, "no column at the end of a location range");
            r = t;
        }
    }
    if (overflow) {
        warn(m, "line or column number of %.*s does not fit in 32 bits; "
                "location dropped",
             (int)((r - s) < 200 ? (r - s) : 200), s);
        return r;
    }
    size_t len;
    const char *path = unescape(m, s + 1, q - 1, &len);
    if (memchr(path, '\0', len)) {
        warn(m, "file name of a location contains a NUL byte; location "
                "dropped");
        return r;
    }
    tk_frame f = {tk_loctab_file(m->tab, path, len), line, col};
    push_frame_stack(m, f);
    return r;
}

static const char *parse_string_loc(read_mlir_loc *m, const char *p,
                                    const char *e)
{
    const char *q = read_mlir_string_end(p, e);
    if (!q)
        return fail(m, e, "a string is not closed");
    const char *t = skip_ws(q, e);
    if (t < e && *t == ':')
        return parse_file_loc(m, p, q, t, e);
    if (t < e && *t == '(') {
        /* A name location: the name makes no frame, its child does. */
        const char *r = parse_inst(m, t + 1, e);
        if (!r)
            return NULL;
        r = skip_ws(r, e);
        if (r >= e || *r != ')')
            return fail(m, r, "no ')' after the child of a name location");
        return r + 1;
    }
    return q; /* a name with no child: no position */
}

static const char *parse_fused(read_mlir_loc *m, const char *p, const char *e)
{
    p = skip_ws(p, e);
    if (p < e && *p == '<') {
        /* Metadata attribute: skipped, nested '<>' and strings included. */
        size_t depth = 0;
        while (p < e) {
            if (*p == '"') {
                p = read_mlir_string_end(p, e);
                if (!p)
                    return fail(m, e, "a string is not closed");
                continue;
            }
            if (*p == '<')
                depth++;
            else if (*p == '>' && --depth == 0)
                break;
            p++;
        }
        if (p >= e)
            return fail(m, e, "no '>' closes the metadata of a fused location");
        p = skip_ws(p + 1, e);
    }
    if (p >= e || *p != '[')
        return fail(m, p, "no '[' after 'fused'");
    size_t from = m->out.n;
    p = skip_ws(p + 1, e);
    if (p < e && *p == ']')
        return p + 1;
    for (;;) {
        p = parse_inst(m, p, e);
        if (!p)
            return NULL;
        cap_stacks(m, from);
        p = skip_ws(p, e);
        if (p >= e)
            return fail(m, p, "location cut short");
        if (*p == ']')
            return p + 1;
        if (*p != ',')
            return fail(m, p, "no ',' or ']' after a part of a fused location");
        p++;
    }
}

static const char *parse_callsite(read_mlir_loc *m, const char *p,
                                  const char *e)
{
    p = skip_ws(p, e);
    if (p >= e || *p != '(')
        return fail(m, p, "no '(' after 'callsite'");
    size_t a0 = m->out.n;
    p = parse_inst(m, p + 1, e);
    if (!p)
        return NULL;
    size_t a1 = m->out.n;
    p = skip_ws(p, e);
    if (!at_word(p, e, "at", 2))
        return fail(m, p, "no 'at' in a callsite location");
    p = parse_inst(m, p + 2, e);
    if (!p)
        return NULL;
    p = skip_ws(p, e);
    if (p >= e || *p != ')')
        return fail(m, p, "no ')' closes a callsite location");
    combine(m, a0, a1, m->out.n);
    return p + 1;
}

static const char *parse_inst(read_mlir_loc *m, const char *p, const char *e)
{
    p = skip_ws(p, e);
    if (p >= e)
        return fail(m, p, "location cut short");
    if (m->depth >= READ_MLIR_MAX_NESTING)
        return fail(m, p, "locations nested more than 256 deep");
    m->depth++;
    const char *r;
    if (*p == '"')
        r = parse_string_loc(m, p, e);
    else if (*p == '#')
        r = parse_alias_ref(m, p, e);
    else if (at_word(p, e, "unknown", 7))
        r = p + 7;
    else if (at_word(p, e, "callsite", 8))
        r = parse_callsite(m, p + 8, e);
    else if (at_word(p, e, "fused", 5))
        r = parse_fused(m, p + 5, e);
    else
        r = fail(m, p, "not a location");
    m->depth--;
    return r;
}

static tk_stack_id intern(read_mlir_loc *m, sref s)
{
    if (s.len > 1)
        m->has_inline = 1;
    if (s.memo) {
        memo_stack *ms = &m->memo.v[s.at];
        if (ms->id == TK_NO_STACK) {
            charge(m, ms->len);
            ms->id = tk_loctab_stack(m->tab, m->mframes.v + ms->off, ms->len);
        }
        return ms->id;
    }
    charge(m, s.len);
    return tk_loctab_stack(m->tab, m->frames.v + s.at, s.len);
}

const char *read_mlir_loc_read(read_mlir_loc *m, const char *p, const char *end,
                               const char *line_start, uint32_t line,
                               uint32_t segment, read_mlir_emit_fn emit,
                               void *user)
{
    m->line = line;
    m->segment = segment;
    m->depth = 0;
    m->err = m->err_at = NULL;
    m->warned_frames = m->warned_stacks = 0;
    m->out.n = 0;
    m->frames.n = 0;
    const char *r = parse_inst(m, p + 4, end);
    if (r) {
        r = skip_ws(r, end);
        if (r < end && *r == ')')
            r++;
        else
            r = fail(m, r, r < end ? "no ')' closes the location"
                                   : "location cut short");
    }
    if (!r) {
        warn(m, "cannot read the location at column %zu: %s at column %zu",
             (size_t)(p - line_start) + 1, m->err,
             (size_t)(m->err_at - line_start) + 1);
        /* Go on past what was read: the error point is on this line, after
         * the `loc(`. */
        r = m->err_at > p + 4 && m->err_at <= end ? m->err_at : p + 4;
        m->err = m->err_at = NULL;
    } else {
        for (size_t i = 0; i < m->out.n; i++)
            emit(user, intern(m, m->out.v[i]));
    }
    m->out.n = 0;
    m->frames.n = 0;
    return r;
}

void read_mlir_loc_finish(read_mlir_loc *m)
{
    flush_hidden(m);
}

int read_mlir_loc_has_inline(const read_mlir_loc *m)
{
    return m->has_inline;
}
