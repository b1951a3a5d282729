/* llvm.c - one line of LLVM IR, normalized.
 *
 * Removed: indentation, `!dbg !N` attachments (with the ", " before them),
 * and the debug metadata nodes (`!N = !DI...`, `!N = distinct !DI...`).  Renamed: local
 * values and labels lose their numbers (`%12`, `12:`, the digits LLVM appends
 * to keep a name unique, `%.critedge1`), metadata ids become `!`, attribute
 * groups `#` (inside a function, values of that function: a function printed
 * alone numbers them afresh).  Globals (`@add_kernel`) stay.  The padding after a label (the
 * spaces that align `; preds = ...`) shrinks to one space.
 */
#include "normalize/internal.h"

static const unsigned char special[256] = {
    ['"'] = 1, ['%'] = 1, ['!'] = 1, ['#'] = 1, ['@'] = 1,
};

/* "!12 = !DI..." or "!12 = distinct !DI...": debug information only. */
static int is_debug_node(const char *s, const char *end)
{
    const char *p = s + 1;
    if (p >= end || !nb_is_digit((unsigned char)*p))
        return 0;
    while (p < end && nb_is_digit((unsigned char)*p))
        p++;
    static const char *const forms[] = {" = !DI", " = distinct !DI"};
    for (size_t i = 0; i < 2; i++) {
        size_t n = strlen(forms[i]);
        if ((size_t)(end - p) >= n && memcmp(p, forms[i], n) == 0)
            return 1;
    }
    return 0;
}

/* A local name after the '%' at P (or a label at P with no sigil): writes it
 * without its trailing digits and records it as "%name".  Returns the byte
 * after it. */
static const char *put_local(nb_builder *b, const char *p,
                             const char *end, int sigil)
{
    const char *id = p + sigil;
    if (id < end && *id == '"') {
        /* %"quoted name": kept whole. */
        const char *q = id + 1;
        while (q < end && *q != '"')
            q++;
        if (q < end)
            q++;
        nb_put(b, p, (size_t)(q - p));
        nb_ref(b, b->scope, id, (size_t)(q - id));
        return q;
    }
    const char *q = id;
    while (q < end && nb_is_id((unsigned char)*q))
        q++;
    const char *d = q;
    while (d > id && nb_is_digit((unsigned char)d[-1]))
        d--;
    nb_put(b, p, (size_t)(d - p));
    nb_ref(b, b->scope, id, (size_t)(q - id));
    return q;
}

/* "!dbg !12" at P: the location attachment.  Returns the byte after it, or P
 * when P holds something else. */
static const char *skip_dbg(const char *p, const char *end)
{
    if (end - p < 7 || memcmp(p, "!dbg !", 6) != 0 ||
        !nb_is_digit((unsigned char)p[6]))
        return p;
    p += 6;
    while (p < end && nb_is_digit((unsigned char)*p))
        p++;
    return p;
}

void norm_llvm_line(nb_builder *b, const char *s, const char *end,
                    uint32_t orig)
{
    const char *p = s;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p == end || (*s == '!' && is_debug_node(s, end))) {
        nb_ignore_line(b, orig);
        return;
    }
    if (end - s >= 7 && memcmp(s, "define ", 7) == 0) {
        nb_new_scope(b);
        b->in_body = 1;
    } else if (end - s == 1 && *s == '}')
        b->in_body = 0;
    else if (p == s && (nb_is_id((unsigned char)*s) || *s == '"')) {
        /* A label ("12:", ".lr.ph:", "\"x\":") starts at column 0; so do
         * keywords (define, declare, target...), which have no ':' right
         * after the name. */
        const char *q = s;
        if (*q == '"') {
            for (q++; q < end && *q != '"'; q++)
                ;
            if (q < end)
                q++;
        } else
            while (q < end && nb_is_id((unsigned char)*q))
                q++;
        if (q < end && *q == ':') {
            p = put_local(b, s, end, 0);
            /* The padding that aligns "; preds = ..." depends on the
             * label's length: one space instead. */
            nb_putc(b, *p++);
            while (p < end && *p == ' ')
                p++;
            if (p < end)
                nb_putc(b, ' ');
        }
    }
    /* Indentation is not written: see tk_normalize.h. */

    while (p < end) {
        const char *run = p;
        p = nb_scan5(p, end, special, '"', '%', '!', '#', '@');
        if (p > run)
            nb_put(b, run, (size_t)(p - run));
        if (p == end)
            break;
        switch (*p) {
        case '"':
            p = nb_copy_string(b, p, end);
            break;
        case '%':
            p = put_local(b, p, end, 1);
            break;
        case '@': {
            /* Globals keep their name; quoted ones may hold anything. */
            if (p + 1 < end && p[1] == '"') {
                nb_putc(b, '@');
                p = nb_copy_string(b, p + 1, end);
            } else
                nb_putc(b, *p++);
            break;
        }
        case '#':
        case '!': {
            const char *q = *p == '!' ? skip_dbg(p, end) : p;
            if (q != p) {
                /* Drop the ", " or " " that led to the attachment. */
                if (nb_last(b) == ' ')
                    nb_unput(b);
                if (nb_last(b) == ',')
                    nb_unput(b);
                p = q;
                break;
            }
            q = p + 1;
            while (q < end && nb_is_digit((unsigned char)*q))
                q++;
            nb_putc(b, *p);
            /* In a function, numbered in that function: LLVM numbers the
             * attribute groups and metadata of a function printed alone
             * afresh, so a function pass's text put into its module
             * (TK_TIMELINE_WHOLE_UNITS) compares as the function alone
             * does. */
            if (q > p + 1 && (q == end || !nb_is_id((unsigned char)*q)))
                nb_ref(b, b->in_body ? b->scope : NB_MODULE, p, (size_t)(q - p));
            else
                q = p + 1;
            p = q;
            break;
        }
        }
    }
    nb_end_line(b, orig);
}
