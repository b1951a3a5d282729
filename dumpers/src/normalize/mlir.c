/* mlir.c - one line of MLIR as Triton prints it, normalized.
 *
 * Removed: indentation, every ` loc(...)` (balanced parentheses, strings
 * inside it may hold parentheses), and the `#locN = ...` alias lines.
 * Renamed: value names lose what is only a counter (`%12`, the `_3` Triton
 * appends to keep Python names unique, `%arg4`), block labels lose their
 * number (`^bb2`), alias references become their family name and the hash of
 * their definition.  Names that are not counters stay (`%x_ptr`,
 * `%c1024_i32`, `%true`).  Values are recorded as defined where the printer
 * defines them (an op's results, arguments, induction variables, blocks) so
 * that a name reused in a sibling region is a new value.
 */
#include "normalize/internal.h"

/* Bytes the main loop must look at; everything else is copied in runs. */
static const unsigned char special[256] = {
    ['"'] = 1, ['%'] = 1, ['^'] = 1, ['l'] = 1, ['#'] = 1,
};

/* An alias name "#blocked1" without its counter: "#blocked". */
static size_t alias_family_len(const char *p, size_t len)
{
    while (len > 2 && nb_is_digit((unsigned char)p[len - 1]))
        len--;
    return len;
}

/* A reference to an alias defined earlier in the dump: its family name and
 * the hash of its definition, so a line compares by the layout it uses, not
 * by the counter the printer gave the alias (which changes when a pass adds
 * a layout: Coalesce's new layout can take the name "#blocked" next pass). */
static void put_alias_ref(nb_builder *b, const char *p, size_t len,
                          uint64_t hash)
{
    static const char hex[] = "0123456789abcdef";
    char buf[18];
    nb_put(b, p, alias_family_len(p, len));
    buf[0] = '~';
    for (int i = 0; i < 16; i++)
        buf[1 + i] = hex[(hash >> (60 - 4 * i)) & 15];
    nb_put(b, buf, 17);
}

/* Whether the byte before a "loc(" makes it the location keyword rather than
 * the end of a longer name ("tt.alloc(" has none, but be safe). */
static int loc_may_follow(unsigned char c)
{
    return !(nb_is_id(c) || c == '%' || c == '#' || c == '@' || c == '^' ||
             c == '!');
}

/* Skips "loc(...)" at P: to the byte after the matching ")", or END. */
static const char *skip_loc(const char *p, const char *end)
{
    int depth = 0;
    for (p += 3; p < end; p++) {
        if (*p == '"') {
            for (p++; p < end && *p != '"'; p++)
                if (*p == '\\' && p + 1 < end)
                    p++;
            if (p == end)
                return end;
        } else if (*p == '(')
            depth++;
        else if (*p == ')' && --depth == 0)
            return p + 1;
    }
    return end;
}

/* A value name of LEN bytes after the '%' at P: writes its normalized form
 * and records it, as a definition when DEF. */
static void put_value(nb_builder *b, const char *p, size_t len, int def)
{
    const char *id = p + 1, *e = p + 1 + len;
    const char *cut = e;
    const char *d = e;
    while (d > id && nb_is_digit((unsigned char)d[-1]))
        d--;
    if (d == id)
        cut = id;                              /* %12 */
    else if (d < e && d - id == 3 && memcmp(id, "arg", 3) == 0)
        cut = d;                               /* %arg4 */
    else if (d < e && d - id >= 2 && d[-1] == '_')
        cut = d - 1;                           /* %offsets_3, %cst_0 */
    if (b->expand_aliases)
        cut = id; /* printed without locations: no names from them either */
    nb_put(b, p, (size_t)(cut - p));
    if (def)
        nb_def(b, b->scope, p, len + 1);
    else
        nb_ref(b, b->scope, p, len + 1);
}

/* Where the results of the op on a line end: "%a, %b = ..." or "%0:2 = ..."
 * at P (the first non-blank byte) gives the " = "; NULL for no results. */
static const char *results_end(const char *p, const char *end)
{
    if (p >= end || *p != '%')
        return NULL;
    for (const char *q = p; end - q >= 3; q++) {
        if (q[0] == ' ' && q[1] == '=' && q[2] == ' ')
            return q;
        unsigned char c = (unsigned char)*q;
        if (!(nb_is_id(c) || c == '%' || c == ',' || c == ' ' || c == ':'))
            return NULL;
    }
    return NULL;
}

/* Whether the name ending at Q is defined there: an argument ("%x_ptr: ",
 * "^bb0(%arg4: f32") or an induction or iteration variable ("scf.for %arg4
 * = ", "iter_args(%arg5 = "). */
static int defined_here(const char *q, const char *end)
{
    return (end - q >= 2 && q[0] == ':' && q[1] == ' ') ||
           (end - q >= 3 && memcmp(q, " = ", 3) == 0);
}

static int starts_function(const char *p, const char *end)
{
    static const char *const ops[] = {"tt.func ", "func.func ", "llvm.func ",
                                      "gpu.func "};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        size_t n = strlen(ops[i]);
        if ((size_t)(end - p) >= n && memcmp(p, ops[i], n) == 0)
            return 1;
    }
    return 0;
}

/* "#loc", "#loc12" or "#loc_x" then " = ": an alias definition line. */
static int is_loc_alias(const char *s, const char *end)
{
    if (end - s < 5 || memcmp(s, "#loc", 4) != 0)
        return 0;
    const char *p = s + 4;
    while (p < end && (nb_is_id((unsigned char)*p)))
        p++;
    while (p < end && *p == ' ')
        p++;
    return p < end && *p == '=';
}

void norm_mlir_line(nb_builder *b, const char *s, const char *end,
                    uint32_t orig)
{
    const char *p = s;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p == end || is_loc_alias(s, end)) {
        nb_ignore_line(b, orig);
        return;
    }
    if (starts_function(p, end))
        nb_new_scope(b);
    /* Indentation is not written: an op that a pass moved out of a region
     * (an scf.if folded away) is the same op one level up. */
    const char *first = p, *results = results_end(p, end);

    /* "#name = value" at column 0 defines an attribute alias; its line keeps
     * the family name, and the value is remembered for later references. */
    const char *alias = NULL;
    size_t alias_len = 0, value_at = 0;
    if (p == s && *s == '#') {
        const char *q = s + 1;
        while (q < end && nb_is_id((unsigned char)*q))
            q++;
        if (end - q >= 3 && memcmp(q, " = ", 3) == 0 && q > s + 1) {
            alias = s;
            alias_len = (size_t)(q - s);
            nb_put(b, s, alias_family_len(s, alias_len));
            nb_put(b, " = ", 3);
            value_at = b->n->text_len;
            p = q + 3;
        }
    }

    while (p < end) {
        const char *run = p;
        p = nb_scan5(p, end, special, '"', '%', '^', 'l', '#');
        if (p > run)
            nb_put(b, run, (size_t)(p - run));
        if (p == end)
            break;
        switch (*p) {
        case '"':
            p = nb_copy_string(b, p, end);
            break;
        case '%': {
            const char *q = p + 1;
            while (q < end && nb_is_id((unsigned char)*q))
                q++;
            if (q == p + 1)
                nb_putc(b, *p++);
            else {
                put_value(b, p, (size_t)(q - p - 1),
                          (results && p < results) || defined_here(q, end));
                p = q;
            }
            break;
        }
        case '^': {
            const char *q = p + 1;
            while (q < end && nb_is_id((unsigned char)*q))
                q++;
            const char *d = q;
            while (d > p + 1 && nb_is_digit((unsigned char)d[-1]))
                d--;
            nb_put(b, p, (size_t)(d - p));
            if (q > p + 1 && p == first) /* a block: "^bb1(...):" */
                nb_def(b, b->scope, p, (size_t)(q - p));
            else if (q > p + 1)
                nb_ref(b, b->scope, p, (size_t)(q - p));
            p = q;
            break;
        }
        case '#': {
            const char *q = p + 1;
            while (q < end && nb_is_id((unsigned char)*q))
                q++;
            uint64_t h;
            size_t tl;
            const char *text = q > p + 1 ? nb_alias_text(b, p, (size_t)(q - p), &tl) : NULL;
            if (text)
                nb_put(b, text, tl); /* written out: as printed without aliases */
            else if (q > p + 1 && nb_alias_get(b, p, (size_t)(q - p), &h))
                put_alias_ref(b, p, (size_t)(q - p), h);
            else
                nb_put(b, p, (size_t)(q - p));
            p = q;
            break;
        }
        default: /* 'l' */
            if (end - p >= 4 && memcmp(p, "loc(", 4) == 0 &&
                (p == s || loc_may_follow((unsigned char)p[-1]))) {
                p = skip_loc(p, end);
                if (nb_last(b) == ' ')
                    nb_unput(b);
            } else
                nb_putc(b, *p++);
            break;
        }
    }
    if (alias) {
        size_t e = b->n->text_len;
        while (e > value_at && b->n->text[e - 1] == ' ')
            e--;
        nb_alias_set(b, alias, alias_len,
                     tk_diff_hash(b->n->text + value_at, e - value_at));
        if (b->expand_aliases) {
            /* Its references carry the definition: the line itself goes,
             * as it is absent from a text printed without aliases. */
            nb_alias_set_text(b, alias, alias_len, b->n->text + value_at, e - value_at);
            nb_ignore_line(b, orig);
            return;
        }
    }
    nb_end_line(b, orig);
}
