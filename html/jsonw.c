/* jsonw.c - streaming JSON for script files (jsonw.h). */
#include "jsonw.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

void jw_init(jw *w, GString *out)
{
    memset(w, 0, sizeof *w);
    w->out = out;
}

static void before_value(jw *w)
{
    if (w->after_key) {
        w->after_key = FALSE;
        return;
    }
    if (w->depth == 0)
        return;
    uint64_t bit = UINT64_C(1) << ((w->depth - 1) & 63);
    if (w->need_comma & bit)
        g_string_append_c(w->out, ',');
    w->need_comma |= bit;
}

static void open_(jw *w, char c)
{
    before_value(w);
    g_string_append_c(w->out, c);
    w->depth++;
    w->need_comma &= ~(UINT64_C(1) << ((w->depth - 1) & 63));
}

static void close_(jw *w, char c)
{
    g_string_append_c(w->out, c);
    if (w->depth)
        w->depth--;
}

void jw_obj(jw *w) { open_(w, '{'); }
void jw_obj_end(jw *w) { close_(w, '}'); }
void jw_arr(jw *w) { open_(w, '['); }
void jw_arr_end(jw *w) { close_(w, ']'); }

void jw_key(jw *w, const char *key)
{
    before_value(w);
    g_string_append_c(w->out, '"');
    jw_escape(w->out, key, strlen(key));
    g_string_append(w->out, "\":");
    w->after_key = TRUE;
}

/* 1 for the bytes copied as they are: printable ASCII other than '"',
 * '\\', '<', '>' and '&'. */
static const unsigned char plain[256] = {
#define R4(x) x, x, x, x
#define R16(x) R4(x), R4(x), R4(x), R4(x)
    R16(0), R16(0),                                  /* 0x00-0x1f */
    1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* ' ' '!' '"' ... '&' */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1,  /* '0'-'?': '<' '>' */
    R16(1),                                          /* '@'-'O' */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,  /* 'P'-'_': '\\' */
    R16(1), R16(1),                                  /* '`'-0x7f */
    R16(0), R16(0), R16(0), R16(0), R16(0), R16(0), R16(0), R16(0),
#undef R16
#undef R4
};

/* The first byte in [P, END) that is not plain, or END.  Report data is
 * mostly IR text in long plain runs: SSE2 looks at 16 bytes at a time (a
 * signed compare with 0x20 catches both the controls and the bytes from
 * 0x80). */
static inline const unsigned char *plain_run(const unsigned char *p,
                                             const unsigned char *end)
{
#if defined(__SSE2__)
    const __m128i space = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'),
                  amp = _mm_set1_epi8('&'), lt = _mm_set1_epi8('<'),
                  gt = _mm_set1_epi8('>'), bs = _mm_set1_epi8('\\');
    while (end - p >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i m = _mm_or_si128(
            _mm_or_si128(_mm_cmplt_epi8(x, space), _mm_cmpeq_epi8(x, quote)),
            _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(x, amp), _mm_cmpeq_epi8(x, lt)),
                _mm_or_si128(_mm_cmpeq_epi8(x, gt), _mm_cmpeq_epi8(x, bs))));
        unsigned bits = (unsigned)_mm_movemask_epi8(m);
        if (bits)
            return p + __builtin_ctz(bits);
        p += 16;
    }
#endif
    while (p < end && plain[*p])
        p++;
    return p;
}

/* Escapes are written straight into OUT's buffer, grown once per block of
 * input for the worst case (6 bytes out for a byte in), rather than
 * appended piece by piece: report data holds hundreds of thousands of
 * strings full of '<' and '>'. */
#define ESCAPE_BLOCK ((size_t)4096)

void jw_escape(GString *out, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    while (p < end) {
        size_t block = (size_t)(end - p) < ESCAPE_BLOCK ? (size_t)(end - p) : ESCAPE_BLOCK;
        const unsigned char *bend = p + block;
        gsize at = out->len;
        g_string_set_size(out, at + 6 * block + 8);
        char *o = out->str + at;
        /* A character that starts before BEND is written whole, even when
         * it ends after it. */
        while (p < bend) {
            const unsigned char *run = p;
            /* plain ASCII that needs no escape, copied in one go */
            p = plain_run(p, bend);
            memcpy(o, run, (size_t)(p - run));
            o += p - run;
            if (p >= bend)
                break;
            unsigned c = *p;
            if (c < 0x80) {
                *o++ = '\\';
                if (c == '"')
                    *o++ = '"';
                else if (c == '\\')
                    *o++ = '\\';
                else if (c == '\n')
                    *o++ = 'n';
                else if (c == '\t')
                    *o++ = 't';
                else {
                    memcpy(o, "u00", 3);
                    o[3] = hex[c >> 4];
                    o[4] = hex[c & 15];
                    o += 5;
                }
                p++;
                continue;
            }
            /* multi-byte: validate one character */
            gunichar u = g_utf8_get_char_validated((const gchar *)p, (gssize)(end - p));
            if (u == (gunichar)-1 || u == (gunichar)-2) {
                memcpy(o, "\\ufffd", 6);
                o += 6;
                p++;
                continue;
            }
            const unsigned char *next = (const unsigned char *)g_utf8_next_char(p);
            if (u == 0x2028 || u == 0x2029) {
                memcpy(o, u == 0x2028 ? "\\u2028" : "\\u2029", 6);
                o += 6;
            } else {
                memcpy(o, p, (size_t)(next - p));
                o += next - p;
            }
            p = next;
        }
        g_string_truncate(out, (gsize)(o - out->str));
    }
}

void jw_strn(jw *w, const char *s, size_t len)
{
    before_value(w);
    if (!s) {
        g_string_append(w->out, "null");
        return;
    }
    g_string_append_c(w->out, '"');
    jw_escape(w->out, s, len);
    g_string_append_c(w->out, '"');
}

void jw_str(jw *w, const char *s)
{
    jw_strn(w, s, s ? strlen(s) : 0);
}

void jw_int(jw *w, int64_t v)
{
    /* Without printf: pass data holds hundreds of thousands of numbers. */
    before_value(w);
    char buf[24], *e = buf + sizeof buf, *p = e;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    g_string_append_len(w->out, p, e - p);
}

void jw_bool(jw *w, gboolean v)
{
    before_value(w);
    g_string_append(w->out, v ? "true" : "false");
}

void jw_null(jw *w)
{
    before_value(w);
    g_string_append(w->out, "null");
}

void jw_raw(jw *w, const GString *json)
{
    before_value(w);
    g_string_append_len(w->out, json->str, json->len);
}

void jw_u32s(jw *w, const uint32_t *v, unsigned n)
{
    jw_arr(w);
    for (unsigned i = 0; i < n; i++)
        jw_int(w, v[i]);
    jw_arr_end(w);
}

void jw_u64s(jw *w, const uint64_t *v, unsigned n)
{
    jw_arr(w);
    for (unsigned i = 0; i < n; i++)
        jw_int(w, (int64_t)v[i]);
    jw_arr_end(w);
}

void jw_lines(jw *w, const uint32_t *lines, size_t n)
{
    jw_arr(w);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && lines[j + 1] == lines[j] + 1)
            j++;
        jw_int(w, lines[i]);
        if (j - i >= 2) {
            jw_int(w, -(int64_t)lines[j]);
            i = j + 1;
        } else {
            i++;
        }
    }
    jw_arr_end(w);
}
