/* ptx.c - one line of PTX or of SASS (nvdisasm), normalized.
 *
 * The final stages have numbered registers too, and two compiles of one
 * kernel number them differently from the first change on: without
 * renaming, a diff of two PTX files is mostly renumbering.  They are renamed
 * by first use as MLIR and LLVM values are (nb_ref: equal lines must agree on
 * the registers they name, so a real change still shows).
 *
 * PTX: virtual registers `%r12`, `%rd3`, `%f7`, `%p2`, `%rs1`, `%fd4` (a '%',
 * letters, digits) lose their digits; special registers without digits
 * (`%tid.x`, `%ctaid.y`) stay; block labels `$L__BB0_3` (and `$L__tmp2`)
 * lose their numbers (the function's `0_` stays).  Indentation goes; `.loc`
 * and `.file` directives are locations, not
 * code: ignored, as is a `//` comment.
 *
 * SASS: registers `R12`, `UR4`, `P0`, `UP1`, `B3` lose their digits (`RZ`,
 * `URZ`, `PT`, `UPT` stay), labels `.L_x_7` their numbers; the address
 * comment (slash-star 0040 star-slash) and `//##` location lines go.
 */
#include "normalize/internal.h"

#include <string.h>

static int is_word(unsigned char c)
{
    return nb_is_id(c) || c == '.';
}

/* Writes [P, Q) without its trailing digits and names it. */
static void put_renamed(nb_builder *b, const char *p, const char *q)
{
    const char *d = q;
    while (d > p && nb_is_digit((unsigned char)d[-1]))
        d--;
    nb_put(b, p, (size_t)(d - p));
    nb_ref(b, 0, p, (size_t)(q - p));
}

static const char *skip_space(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* What a dialect's token at P is; *Q is set past it. */
typedef enum {
    TOK_CHAR,    /* one character, kept */
    TOK_KEPT,    /* [P, *Q) kept as it is */
    TOK_RENAMED, /* [P, *Q) a numbered name: renamed (put_renamed) */
    TOK_SKIP,    /* [P, *Q) dropped */
    TOK_END      /* a comment to the end of the line */
} token_kind;

/* The token at P of line S..END. */
typedef token_kind (*token_fn)(const char *s, const char *p, const char *end,
                               const char **q);

/* The rest of a line from P, token by token (PTX and SASS differ only in
 * their tokens): numbered names renamed, comments dropped. */
static void renumber(nb_builder *b, const char *s, const char *p, const char *end,
                     uint32_t orig, token_fn token)
{
    while (p < end) {
        const char *q = p + 1;
        token_kind k = token(s, p, end, &q);
        if (k == TOK_END)
            break;
        if (k == TOK_CHAR)
            nb_putc(b, *p);
        else if (k == TOK_KEPT)
            nb_put(b, p, (size_t)(q - p));
        else if (k == TOK_RENAMED)
            put_renamed(b, p, q);
        p = q;
    }
    nb_end_line(b, orig);
}

/* PTX: `%r12` renamed, `%tid` kept; `$L__BB0_3` renamed; words kept. */
static token_kind ptx_token(const char *s, const char *p, const char *end,
                            const char **q)
{
    (void)s;
    unsigned char c = (unsigned char)*p;
    if (c == '/' && p + 1 < end && p[1] == '/')
        return TOK_END;
    if (c == '%' && p + 1 < end && nb_is_id((unsigned char)p[1])) {
        const char *e = p + 1;
        while (e < end && nb_is_id((unsigned char)*e))
            e++;
        *q = e;
        return nb_is_digit((unsigned char)e[-1]) ? TOK_RENAMED : TOK_KEPT;
    }
    if (c == '$' && p + 3 < end && p[1] == 'L' && p[2] == '_') {
        const char *e = p + 1;
        while (e < end && nb_is_id((unsigned char)*e))
            e++;
        *q = e;
        return TOK_RENAMED;
    }
    if (nb_is_id(c)) {
        const char *e = p;
        while (e < end && is_word((unsigned char)*e))
            e++;
        *q = e;
        return TOK_KEPT;
    }
    return TOK_CHAR;
}

void norm_ptx_line(nb_builder *b, const char *s, const char *end, uint32_t orig)
{
    const char *p = skip_space(s, end);
    if (p == end || (end - p >= 4 && memcmp(p, ".loc", 4) == 0 &&
                     (end - p == 4 || p[4] == ' ' || p[4] == '\t')) ||
        (end - p >= 5 && memcmp(p, ".file", 5) == 0) ||
        (end - p >= 2 && p[0] == '/' && p[1] == '/')) {
        nb_ignore_line(b, orig);
        return;
    }
    renumber(b, s, p, end, orig, ptx_token);
}

/* R12, UR4, P0, UP1, B3: a register class and a number. */
static size_t sass_reg(const char *p, const char *end)
{
    const char *q = p;
    if (q < end && *q == 'U')
        q++;
    if (q >= end || (*q != 'R' && *q != 'P' && *q != 'B'))
        return 0;
    q++;
    const char *d = q;
    while (q < end && nb_is_digit((unsigned char)*q))
        q++;
    if (q == d || (q < end && nb_is_id((unsigned char)*q)))
        return 0;
    return (size_t)(q - p);
}

/* SASS: the address comment dropped; registers and `.L_x_7` renamed;
 * words kept. */
static token_kind sass_token(const char *s, const char *p, const char *end,
                             const char **q)
{
    unsigned char c = (unsigned char)*p;
    if (c == '/' && p + 1 < end && p[1] == '*') {
        /* the address comment */
        const char *e = p + 2;
        while (e + 1 < end && !(e[0] == '*' && e[1] == '/'))
            e++;
        *q = skip_space(e + 1 < end ? e + 2 : end, end);
        return TOK_SKIP;
    }
    if (c == '/' && p + 1 < end && p[1] == '/')
        return TOK_END;
    size_t r = (p == s || !is_word((unsigned char)p[-1])) ? sass_reg(p, end) : 0;
    if (r) {
        *q = p + r;
        return TOK_RENAMED;
    }
    if (c == '.' && end - p > 4 && memcmp(p, ".L_x_", 5) == 0) {
        const char *e = p + 5;
        while (e < end && nb_is_id((unsigned char)*e))
            e++;
        *q = e;
        return TOK_RENAMED;
    }
    if (is_word(c)) {
        const char *e = p;
        while (e < end && is_word((unsigned char)*e))
            e++;
        *q = e;
        return TOK_KEPT;
    }
    return TOK_CHAR;
}

void norm_sass_line(nb_builder *b, const char *s, const char *end, uint32_t orig)
{
    const char *p = skip_space(s, end);
    if (p == end || (end - p >= 2 && p[0] == '/' && p[1] == '/')) {
        nb_ignore_line(b, orig);
        return;
    }
    renumber(b, s, p, end, orig, sass_token);
}
