/* mir.c - one line of machine code as -print-after-all prints it
 * ("# Machine code for function ..."), normalized.
 *
 * Removed: slot indexes ("16B\t" before an instruction, once liveness has
 * numbered them, and the tab that lines without one get), indentation,
 * `debug-location !N` and the "; file:line" comment that repeats it (any
 * comment: the successor percentages are the probabilities again).  Renamed: virtual registers
 * (`%12:b32` -> `%:b32`, AMDGPU's `%74.sub0:vreg_64` -> `%.sub0:vreg_64`),
 * blocks (`%bb.3`, `bb.3.name:`), IR references (`%ir-block.6`, `%ir.5`),
 * metadata (`!5`) lose their numbers.  Physical registers (`$r1`,
 * `$vgpr0_vgpr1`, `$sgpr14`), subregister indices (`%subreg.sub1`) and
 * symbols stay.
 */
#include "normalize/internal.h"

static const unsigned char special[256] = {
    ['"'] = 1, ['%'] = 1, ['!'] = 1, ['d'] = 1, [';'] = 1,
};

/* Writes the name [P, Q) with the numbers that are only numbering erased:
 * digit runs right after '%' or '.', and trailing digits (LLVM's way of
 * making names unique: "%bb.2..lr.ph5"). */
static void put_erased(nb_builder *b, const char *p, const char *q)
{
    const char *tail = q;
    while (tail > p && nb_is_digit((unsigned char)tail[-1]))
        tail--;
    for (const char *r = p; r < tail;) {
        if ((*r == '%' || *r == '.') && r + 1 < tail &&
            nb_is_digit((unsigned char)r[1])) {
            nb_putc(b, *r++);
            while (r < tail && nb_is_digit((unsigned char)*r))
                r++;
        } else
            nb_putc(b, *r++);
    }
}

/* The part of a block name that identifies it: "bb.3" of "bb.3..lr.ph". */
static size_t block_id_len(const char *p, const char *q)
{
    const char *r = p + 3;
    while (r < q && nb_is_digit((unsigned char)*r))
        r++;
    return (size_t)(r - p);
}

static const char *skip_debug_location(nb_builder *b, const char *p,
                                       const char *end)
{
    static const char kw[] = "debug-location !";
    size_t n = sizeof kw - 1;
    if ((size_t)(end - p) <= n || memcmp(p, kw, n) != 0 ||
        !nb_is_digit((unsigned char)p[n]))
        return p;
    p += n;
    while (p < end && nb_is_digit((unsigned char)*p))
        p++;
    if (nb_last(b) == ' ')
        nb_unput(b);
    if (nb_last(b) == ',')
        nb_unput(b);
    return p;
}

void norm_mir_line(nb_builder *b, const char *s, const char *end,
                   uint32_t orig)
{
    const char *p = s;
    /* Slot index: digits and 'B' then a tab; or a bare tab in its place. */
    while (p < end && nb_is_digit((unsigned char)*p))
        p++;
    if (p > s && p + 1 < end && *p == 'B' && p[1] == '\t')
        p += 2;
    else if (s < end && *s == '\t')
        p = s + 1;
    else
        p = s;
    const char *q = p;
    while (q < end && (*q == ' ' || *q == '\t'))
        q++;
    if (q == end) {
        nb_ignore_line(b, orig);
        return;
    }
    static const char banner[] = "# Machine code for function";
    if ((size_t)(end - p) >= sizeof banner - 1 &&
        memcmp(p, banner, sizeof banner - 1) == 0)
        nb_new_scope(b);
    p = q; /* indentation is not written: see tk_normalize.h */
    if (end - p > 3 && memcmp(p, "bb.", 3) == 0 &&
        nb_is_digit((unsigned char)p[3])) {
        /* A block label: "bb.3 (%ir-block.6):" or "bb.3.name:". */
        q = p;
        while (q < end && nb_is_id((unsigned char)*q))
            q++;
        nb_ref(b, b->scope, p, block_id_len(p, q));
        put_erased(b, p, q);
        p = q;
    }

    while (p < end) {
        const char *run = p;
        p = nb_scan5(p, end, special, '"', '%', '!', 'd', ';');
        if (p > run)
            nb_put(b, run, (size_t)(p - run));
        if (p == end || *p == ';')
            break;
        switch (*p) {
        case '"':
            p = nb_copy_string(b, p, end);
            break;
        case '%': {
            q = p + 1;
            while (q < end && nb_is_id((unsigned char)*q))
                q++;
            size_t len = (size_t)(q - p - 1);
            if (len > 7 && memcmp(p + 1, "subreg.", 7) == 0) {
                /* AMDGPU's subregister indices ("%subreg.sub0" in a
                 * REG_SEQUENCE) are names, not numbering. */
                nb_put(b, p, (size_t)(q - p));
                p = q;
                break;
            }
            if (len > 0 && nb_is_digit((unsigned char)p[1])) {
                /* A virtual register, maybe with a subregister:
                 * "%74.sub0:vreg_64" is register 74's "sub0". */
                const char *r = p + 1;
                while (r < q && nb_is_digit((unsigned char)*r))
                    r++;
                nb_ref(b, b->scope, p + 1, (size_t)(r - p - 1));
                nb_putc(b, '%');
                nb_put(b, r, (size_t)(q - r));
                p = q;
                break;
            }
            if (len > 0) {
                if (len > 3 && memcmp(p + 1, "bb.", 3) == 0)
                    len = block_id_len(p + 1, q);
                nb_ref(b, b->scope, p + 1, len);
            }
            put_erased(b, p, q);
            p = q;
            break;
        }
        case '!':
            q = p + 1;
            while (q < end && nb_is_digit((unsigned char)*q))
                q++;
            nb_putc(b, '!');
            if (q > p + 1)
                nb_ref(b, NB_MODULE, p, (size_t)(q - p));
            p = q;
            break;
        default: /* 'd' */
            q = skip_debug_location(b, p, end);
            if (q == p)
                nb_putc(b, *p++);
            else
                p = q;
            break;
        }
    }
    nb_end_line(b, orig);
}
