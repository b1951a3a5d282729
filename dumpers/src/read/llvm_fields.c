/* llvm_fields.c - the field lists of LLVM metadata nodes (llvm_fields.h). */
#include "read/llvm_fields.h"

#include <string.h>

#include "util/scan.h"

static int is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

/* Reads the field at P (inside the parentheses) into F and returns the
 * position after it, or NULL at the closing ')' or at anything that is not a
 * "key: value" field.  Values are skipped by bracket depth and quoted
 * strings, so a string containing ", line: 3" is not taken for a field. */
const char *read_md_next_field(const char *p, const char *end, read_md_field *f)
{
    while (p < end && (*p == ' ' || *p == ','))
        p++;
    if (p >= end || *p == ')')
        return NULL;
    f->key = p;
    while (p < end && is_ident(*p))
        p++;
    f->key_len = (size_t)(p - f->key);
    if (f->key_len == 0 || p >= end || *p != ':')
        return NULL;
    p = scan_skip_spaces(p + 1, end);
    f->val = p;
    int depth = 0;
    while (p < end) {
        char c = *p;
        if (c == '"') {
            const char *q = scan_find(p + 1, end, '"');
            p = q ? q + 1 : end;
            continue;
        }
        if (c == '(' || c == '{' || c == '[') {
            depth++;
        } else if (c == ')' || c == '}' || c == ']') {
            if (depth == 0)
                break;
            depth--;
        } else if (c == ',' && depth == 0) {
            break;
        }
        p++;
    }
    f->val_end = p;
    while (f->val_end > f->val && f->val_end[-1] == ' ')
        f->val_end--;
    return p;
}

int read_md_key_is(const read_md_field *f, const char *key)
{
    size_t n = strlen(key);
    return f->key_len == n && memcmp(f->key, key, n) == 0;
}

/* "!N" -> N.  READ_MD_NONE with *BAD = 0 for "null" or no value; *BAD = 1 for a
 * value that is neither. */
uint32_t read_md_val_ref(const read_md_field *f, int *bad)
{
    const char *p = f->val;
    uint32_t v;
    *bad = 0;
    if (f->val_end - p == 4 && memcmp(p, "null", 4) == 0)
        return READ_MD_NONE;
    if (p < f->val_end && *p == '!') {
        p++;
        if (scan_u32(&p, f->val_end, &v) == SCAN_OK && p == f->val_end &&
            v != READ_MD_NONE)
            return v;
    }
    *bad = 1;
    return READ_MD_NONE;
}

/* Decimal value -> *OUT; -1 when not a plain number, -2 on overflow. */
int read_md_val_u32(const read_md_field *f, uint32_t *out)
{
    const char *p = f->val;
    scan_status st = scan_u32(&p, f->val_end, out);
    if (st == SCAN_OVERFLOW)
        return -2;
    if (st != SCAN_OK || p != f->val_end)
        return -1;
    return 0;
}

/* Appends the LLVM string literal value of F ("...", with \XX hex escapes
 * and \\) to S; returns 0, or -1 when F is not a string. */
int read_md_val_string(const read_md_field *f, GString *s)
{
    const char *p = f->val, *end = f->val_end;
    if (end - p < 2 || p[0] != '"' || end[-1] != '"')
        return -1;
    p++;
    end--;
    while (p < end) {
        const char *bs = scan_find(p, end, '\\');
        const char *stop = bs ? bs : end;
        g_string_append_len(s, p, stop - p);
        if (!bs)
            break;
        if (end - bs >= 3 && g_ascii_isxdigit(bs[1]) && g_ascii_isxdigit(bs[2])) {
            char c = (char)(g_ascii_xdigit_value(bs[1]) * 16 +
                            g_ascii_xdigit_value(bs[2]));
            if (c != '\0') /* paths cannot hold NUL; the table refuses it */
                g_string_append_c(s, c);
            p = bs + 3;
        } else if (end - bs >= 2 && bs[1] == '\\') {
            g_string_append_c(s, '\\');
            p = bs + 2;
        } else {
            g_string_append_c(s, '\\');
            p = bs + 1;
        }
    }
    return 0;
}
