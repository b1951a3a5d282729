/* profile_rows.c - the rows of a profile file read without a JSON tree.
 *
 * JSON-GLib makes a node per number: a 108 KB profile (1100 instructions
 * of 23 metrics) took 80 M instructions to parse and free, more than the
 * rest of `tkview info` on the kernel.  The file is ours (profile.c): its
 * last member is "instructions", one [offset, "OPCODE", numbers] a line.
 * Those rows are read here by a strict scanner, and everything before
 * them by JSON-GLib.  Anything the scanner does not expect (an escape in
 * an opcode, a long integer, a member after the rows, bad JSON) makes it
 * give up, and profile.c then parses the whole file with JSON-GLib as
 * before, so every answer and every message stays that parser's.
 */
#include "cost/internal.h"

#include <string.h>

static const char *ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        p++;
    return p;
}

/* Past a string starting at P (its opening quote), or NULL. */
static const char *skip_string(const char *p, const char *end)
{
    for (p++; p < end; p++) {
        if (*p == '\\')
            p++;
        else if (*p == '"')
            return p + 1;
    }
    return NULL;
}

size_t cost_profile_rows_at(const char *data, size_t len)
{
    const char *p = ws(data, data + len), *end = data + len;
    if (p == end || *p != '{')
        return 0;
    int depth = 0;
    const char *key = NULL, *key_end = NULL;
    while (p < end) {
        char c = *p;
        if (c == '"') {
            const char *s = p;
            if (!(p = skip_string(p, end)))
                return 0;
            if (depth == 1) {
                key = s + 1;
                key_end = p - 1;
            }
            continue;
        }
        if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            depth--;
        } else if (c == ':' && depth == 1 && key) {
            const char *v = ws(p + 1, end);
            if (v < end && *v == '[' && key_end - key == 12 &&
                memcmp(key, "instructions", 12) == 0)
                return (size_t)(v + 1 - data);
        }
        p++;
    }
    return 0;
}

/* A JSON number at *P: its value in *V; FALSE when there is none or it is
 * one whose reading could differ from JSON-GLib's (an integer of more than
 * 15 digits). */
static gboolean number(const char **pp, const char *end, double *v)
{
    const char *p = *pp, *s = p;
    if (p < end && *p == '-')
        p++;
    const char *digits = p;
    while (p < end && *p >= '0' && *p <= '9')
        p++;
    size_t nd = (size_t)(p - digits);
    if (nd == 0 || (nd > 1 && *digits == '0'))
        return FALSE;
    gboolean real = FALSE;
    if (p < end && *p == '.') {
        const char *f = ++p;
        while (p < end && *p >= '0' && *p <= '9')
            p++;
        if (p == f)
            return FALSE;
        real = TRUE;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        const char *e = p;
        while (p < end && *p >= '0' && *p <= '9')
            p++;
        if (p == e)
            return FALSE;
        real = TRUE;
    }
    if (real) {
        char buf[64];
        if ((size_t)(p - s) >= sizeof buf)
            return FALSE;
        memcpy(buf, s, (size_t)(p - s));
        buf[p - s] = 0;
        *v = g_ascii_strtod(buf, NULL);
    } else {
        if (nd > 15)
            return FALSE;
        int64_t x = 0;
        for (const char *d = digits; d < p; d++)
            x = x * 10 + (*d - '0');
        *v = (double)(*s == '-' ? -x : x);
    }
    *pp = p;
    return TRUE;
}

int cost_profile_rows_read(const char *text, size_t len, tk_profile *p, size_t nm)
{
    const char *q = text, *end = text + len;
    double *vals = g_new0(double, nm ? nm : 1);
    int ok = 0;
    q = ws(q, end);
    gboolean first = TRUE;
    while (q < end && *q != ']') {
        if (!first) {
            if (*q != ',')
                goto out;
            q = ws(q + 1, end);
        }
        first = FALSE;
        double off;
        if (q == end || *q != '[')
            goto out;
        q = ws(q + 1, end);
        if (!number(&q, end, &off) || off < 0 || off > UINT32_MAX || off != (double)(uint32_t)off)
            goto out;
        q = ws(q, end);
        if (q == end || *q != ',')
            goto out;
        q = ws(q + 1, end);
        if (q == end || *q != '"')
            goto out;
        const char *op = ++q;
        while (q < end && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20 &&
               (unsigned char)*q < 0x7f)
            q++;
        if (q == end || *q != '"')
            goto out;
        size_t op_len = (size_t)(q - op);
        q++;
        for (size_t m = 0; m < nm; m++) {
            q = ws(q, end);
            if (q == end || *q != ',')
                goto out;
            q = ws(q + 1, end);
            if (!number(&q, end, &vals[m]))
                goto out;
        }
        q = ws(q, end);
        if (q == end || *q != ']')
            goto out;
        cost_profile_add_row(p, (uint32_t)off, op, op_len, vals);
        q = ws(q + 1, end);
    }
    if (q == end)
        goto out;
    q = ws(q + 1, end);
    if (q == end || *q != '}')
        goto out;
    ok = ws(q + 1, end) == end;
out:
    g_free(vals);
    return ok ? 0 : -1;
}
