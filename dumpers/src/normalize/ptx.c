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
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        if (c == '/' && p + 1 < end && p[1] == '/')
            break; /* a comment to the end of the line */
        if (c == '%' && p + 1 < end && nb_is_id((unsigned char)p[1])) {
            const char *q = p + 1;
            while (q < end && nb_is_id((unsigned char)*q))
                q++;
            if (nb_is_digit((unsigned char)q[-1]))
                put_renamed(b, p, q);
            else
                nb_put(b, p, (size_t)(q - p));
            p = q;
        } else if (c == '$' && p + 3 < end && p[1] == 'L' && p[2] == '_') {
            const char *q = p + 1;
            while (q < end && nb_is_id((unsigned char)*q))
                q++;
            put_renamed(b, p, q);
            p = q;
        } else if (nb_is_id(c)) {
            const char *q = p;
            while (q < end && is_word((unsigned char)*q))
                q++;
            nb_put(b, p, (size_t)(q - p));
            p = q;
        } else {
            nb_putc(b, (char)c);
            p++;
        }
    }
    nb_end_line(b, orig);
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

void norm_sass_line(nb_builder *b, const char *s, const char *end, uint32_t orig)
{
    const char *p = skip_space(s, end);
    if (p == end || (end - p >= 2 && p[0] == '/' && p[1] == '/')) {
        nb_ignore_line(b, orig);
        return;
    }
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        if (c == '/' && p + 1 < end && p[1] == '*') {
            /* the address comment */
            const char *q = p + 2;
            while (q + 1 < end && !(q[0] == '*' && q[1] == '/'))
                q++;
            p = q + 1 < end ? q + 2 : end;
            p = skip_space(p, end);
            continue;
        }
        if (c == '/' && p + 1 < end && p[1] == '/')
            break;
        size_t r = (p == s || !is_word((unsigned char)p[-1])) ? sass_reg(p, end) : 0;
        if (r) {
            put_renamed(b, p, p + r);
            p += r;
        } else if (c == '.' && end - p > 4 && memcmp(p, ".L_x_", 5) == 0) {
            const char *q = p + 5;
            while (q < end && nb_is_id((unsigned char)*q))
                q++;
            put_renamed(b, p, q);
            p = q;
        } else if (is_word(c)) {
            const char *q = p;
            while (q < end && is_word((unsigned char)*q))
                q++;
            nb_put(b, p, (size_t)(q - p));
            p = q;
        } else {
            nb_putc(b, (char)c);
            p++;
        }
    }
    nb_end_line(b, orig);
}
