/* mlir_loc_parse.c - the grammar of MLIR location expressions
 * (mlir_loc.c's head comment gives it), read into the stacks mlir_loc.c
 * builds, aliases resolved on first use.  Apart from mlir_loc.c: the grammar
 * alone, over the reader's state and helpers. */
#include "read/mlir_loc_internal.h"

#include <string.h>

#include "util/scan.h"

/* ---- the parser --------------------------------------------------------- */

static const char *parse_inst(read_mlir_loc *m, const char *p, const char *e);

static void resolve(read_mlir_loc *m, size_t idx);

static const char *parse_alias_ref(read_mlir_loc *m, const char *p,
                                   const char *e)
{
    const char *name = p + 1, *q = name;
    while (q < e && read_mlir_is_alias_char((unsigned char)*q))
        q++;
    if (q == name)
        return read_mlir_fail(m, p, "'#' without an alias name");
    size_t len = (size_t)(q - name);
    uint32_t h = read_mlir_hash_name(name, len, m->segment);
    size_t slot;
    size_t idx = read_mlir_alias_find(m, name, len, m->segment, h, &slot);
    if (idx == SIZE_MAX) {
        /* Remembered as undefined, so that it is reported once. */
        read_mlir_warn(m, "location alias #%.*s is not defined", (int)len, name);
        read_mlir_alias a = {.name = g_string_chunk_insert_len(m->copies, name, (gssize)len),
                             .name_len = (uint32_t)len,
                             .line = m->line,
                             .segment = m->segment,
                             .hash = h,
                   .state = READ_MLIR_ALIAS_UNDEFINED};
        read_mlir_alias_insert(m, slot, &a);
        return q;
    }
    switch (m->aliases[idx].state) {
    case READ_MLIR_ALIAS_UNDEFINED:
        return q;
    case READ_MLIR_ALIAS_BUSY:
        read_mlir_warn(m, "location alias #%.*s is part of a cycle (defined on line "
                          "%u); it has no stack",
                       (int)len, name, m->aliases[idx].line);
        return q;
    case READ_MLIR_ALIAS_UNRESOLVED:
        resolve(m, idx);
        break;
    default:
        break;
    }
    const read_mlir_alias *a = &m->aliases[idx];
    READ_VEC_GROW(m->out, a->memo_n);
    for (uint32_t i = 0; i < a->memo_n; i++)
        m->out.v[m->out.n++] =
            (read_mlir_sref){a->memo_at + i, m->memo.v[a->memo_at + i].len, 1};
    return q;
}

/* Reads an alias definition once and moves its stacks to the memo area.
 * Problems inside it are reported on its own line and leave it empty; the
 * location that referred to it reads on. */
static void resolve(read_mlir_loc *m, size_t idx)
{
    read_mlir_alias *a = &m->aliases[idx];
    a->state = READ_MLIR_ALIAS_BUSY;
    uint32_t saved_line = m->line;
    int saved_wf = m->warned_frames, saved_ws = m->warned_stacks;
    m->line = a->line;
    m->warned_frames = m->warned_stacks = 0;
    size_t out0 = m->out.n, frames0 = m->frames.n;
    const char *body = a->body;
    const char *end = a->body_end;

    const char *r = parse_inst(m, body + 4, end); /* after "loc(" */
    if (r) {
        r = read_mlir_skip_ws(r, end);
        if (r >= end || *r != ')')
            r = read_mlir_fail(m, r, "no ')' closes the location");
    }
    if (!r) {
        const read_mlir_alias *b = &m->aliases[idx];
        read_mlir_warn(m, "cannot read location alias #%.*s: %s at column %zu",
                       (int)b->name_len, b->name, m->err,
                       (size_t)(m->err_at - b->body) + b->body_col + 1);
        m->err = m->err_at = NULL;
        m->out.n = out0;
    }

    size_t n = m->out.n - out0;
    READ_VEC_GROW(m->memo, n);
    uint32_t memo_at = (uint32_t)m->memo.n;
    for (size_t i = out0; i < m->out.n; i++) {
        read_mlir_sref s = m->out.v[i];
        if (s.memo) {
            /* Another alias's stack: share its frames (and its id). */
            m->memo.v[m->memo.n++] = m->memo.v[s.at];
            continue;
        }
        read_mlir_charge(m, s.len);
        READ_VEC_GROW(m->mframes, s.len);
        memcpy(m->mframes.v + m->mframes.n, m->frames.v + s.at,
               s.len * sizeof(tk_frame));
        m->memo.v[m->memo.n++] =
            (read_mlir_memo){(uint32_t)m->mframes.n, s.len, TK_NO_STACK};
        m->mframes.n += s.len;
    }
    m->out.n = out0;
    m->frames.n = frames0;
    a = &m->aliases[idx]; /* the table may have grown meanwhile */
    a->memo_at = memo_at;
    a->memo_n = (uint32_t)n;
    a->state = READ_MLIR_ALIAS_DONE;
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
    const char *r = read_mlir_skip_ws(colon + 1, e);
    scan_status st = scan_u32(&r, e, &line);
    if (st == SCAN_NONE)
        return read_mlir_fail(m, r, "no line number after the file name");
    overflow |= st == SCAN_OVERFLOW;
    const char *t = read_mlir_skip_ws(r, e);
    if (t < e && *t == ':') {
        r = read_mlir_skip_ws(t + 1, e);
        st = scan_u32(&r, e, &col);
        if (st == SCAN_NONE)
            return read_mlir_fail(m, r, "no column number after the line number");
        overflow |= st == SCAN_OVERFLOW;
        /* A range: only its start is a frame. */
        t = read_mlir_skip_ws(r, e);
        if (read_mlir_at_word(t, e, "to", 2)) {
            t = read_mlir_skip_ws(t + 2, e);
            if (scan_u32(&t, e, &ignored) != SCAN_NONE)
                t = read_mlir_skip_ws(t, e);
            if (t >= e || *t != ':')
                return read_mlir_fail(m, t, "no ':' in the end of a location range");
            t = read_mlir_skip_ws(t + 1, e);
            if (scan_u32(&t, e, &ignored) == SCAN_NONE)
                return read_mlir_fail(m, t, "no column at the end of a location range");
            r = t;
        }
    }
    if (overflow) {
        read_mlir_warn(m, "line or column number of %.*s does not fit in 32 bits; "
                          "location dropped",
                       (int)((r - s) < 200 ? (r - s) : 200), s);
        return r;
    }
    size_t len;
    const char *path = read_mlir_unescape(m, s + 1, q - 1, &len);
    if (memchr(path, '\0', len)) {
        read_mlir_warn(m, "file name of a location contains a NUL byte; location "
                          "dropped");
        return r;
    }
    tk_frame f = {tk_loctab_file(m->tab, path, len), line, col};
    read_mlir_push_frame_stack(m, f);
    return r;
}

static const char *parse_string_loc(read_mlir_loc *m, const char *p,
                                    const char *e)
{
    const char *q = read_mlir_string_end(p, e);
    if (!q)
        return read_mlir_fail(m, e, "a string is not closed");
    const char *t = read_mlir_skip_ws(q, e);
    if (t < e && *t == ':')
        return parse_file_loc(m, p, q, t, e);
    if (t < e && *t == '(') {
        /* A name location: the name makes no frame, its child does. */
        const char *r = parse_inst(m, t + 1, e);
        if (!r)
            return NULL;
        r = read_mlir_skip_ws(r, e);
        if (r >= e || *r != ')')
            return read_mlir_fail(m, r, "no ')' after the child of a name location");
        return r + 1;
    }
    return q; /* a name with no child: no position */
}

static const char *parse_fused(read_mlir_loc *m, const char *p, const char *e)
{
    p = read_mlir_skip_ws(p, e);
    if (p < e && *p == '<') {
        /* Metadata attribute: skipped, nested '<>' and strings included. */
        size_t depth = 0;
        while (p < e) {
            if (*p == '"') {
                p = read_mlir_string_end(p, e);
                if (!p)
                    return read_mlir_fail(m, e, "a string is not closed");
                continue;
            }
            if (*p == '<')
                depth++;
            else if (*p == '>' && --depth == 0)
                break;
            p++;
        }
        if (p >= e)
            return read_mlir_fail(m, e, "no '>' closes the metadata of a fused location");
        p = read_mlir_skip_ws(p + 1, e);
    }
    if (p >= e || *p != '[')
        return read_mlir_fail(m, p, "no '[' after 'fused'");
    size_t from = m->out.n;
    p = read_mlir_skip_ws(p + 1, e);
    if (p < e && *p == ']')
        return p + 1;
    for (;;) {
        p = parse_inst(m, p, e);
        if (!p)
            return NULL;
        read_mlir_cap_stacks(m, from);
        p = read_mlir_skip_ws(p, e);
        if (p >= e)
            return read_mlir_fail(m, p, "location cut short");
        if (*p == ']')
            return p + 1;
        if (*p != ',')
            return read_mlir_fail(m, p, "no ',' or ']' after a part of a fused location");
        p++;
    }
}

static const char *parse_callsite(read_mlir_loc *m, const char *p,
                                  const char *e)
{
    p = read_mlir_skip_ws(p, e);
    if (p >= e || *p != '(')
        return read_mlir_fail(m, p, "no '(' after 'callsite'");
    size_t a0 = m->out.n;
    p = parse_inst(m, p + 1, e);
    if (!p)
        return NULL;
    size_t a1 = m->out.n;
    p = read_mlir_skip_ws(p, e);
    if (!read_mlir_at_word(p, e, "at", 2))
        return read_mlir_fail(m, p, "no 'at' in a callsite location");
    p = parse_inst(m, p + 2, e);
    if (!p)
        return NULL;
    p = read_mlir_skip_ws(p, e);
    if (p >= e || *p != ')')
        return read_mlir_fail(m, p, "no ')' closes a callsite location");
    read_mlir_combine(m, a0, a1, m->out.n);
    return p + 1;
}

static const char *parse_inst(read_mlir_loc *m, const char *p, const char *e)
{
    p = read_mlir_skip_ws(p, e);
    if (p >= e)
        return read_mlir_fail(m, p, "location cut short");
    if (m->depth >= READ_MLIR_MAX_NESTING)
        return read_mlir_fail(m, p, "locations nested more than 256 deep");
    m->depth++;
    const char *r;
    if (*p == '"')
        r = parse_string_loc(m, p, e);
    else if (*p == '#')
        r = parse_alias_ref(m, p, e);
    else if (read_mlir_at_word(p, e, "unknown", 7))
        r = p + 7;
    else if (read_mlir_at_word(p, e, "callsite", 8))
        r = parse_callsite(m, p + 8, e);
    else if (read_mlir_at_word(p, e, "fused", 5))
        r = parse_fused(m, p + 5, e);
    else
        r = read_mlir_fail(m, p, "not a location");
    m->depth--;
    return r;
}

static tk_stack_id intern(read_mlir_loc *m, read_mlir_sref s)
{
    if (s.len > 1)
        m->has_inline = 1;
    if (s.memo) {
        read_mlir_memo *ms = &m->memo.v[s.at];
        if (ms->id == TK_NO_STACK) {
            read_mlir_charge(m, ms->len);
            ms->id = tk_loctab_stack(m->tab, m->mframes.v + ms->off, ms->len);
        }
        return ms->id;
    }
    read_mlir_charge(m, s.len);
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
        r = read_mlir_skip_ws(r, end);
        if (r < end && *r == ')')
            r++;
        else
            r = read_mlir_fail(m, r, r < end ? "no ')' closes the location"
                                             : "location cut short");
    }
    if (!r) {
        read_mlir_warn(m, "cannot read the location at column %zu: %s at column %zu",
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
    read_mlir_flush_hidden(m);
}

int read_mlir_loc_has_inline(const read_mlir_loc *m)
{
    return m->has_inline;
}
