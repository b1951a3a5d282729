/* tkv_text.c - text made safe for a GtkTextBuffer without moving lines. */
#include "document/tkv_text.h"

#include <string.h>

#include "tkdump/tk_lines.h"

/* Whether LEN bytes at S can go into a buffer as they are: valid UTF-8
 * without NUL (g_utf8_validate_len stops at NUL), no "\r", no U+2029. */
static gboolean line_is_safe(const char *s, size_t len)
{
    if (memchr(s, '\r', len))
        return FALSE;
    const char *e3 = s;
    while ((e3 = memchr(e3, 0xE2, len - (size_t)(e3 - s)))) {
        if ((size_t)(e3 - s) + 2 < len && (unsigned char)e3[1] == 0x80 &&
            (unsigned char)e3[2] == 0xA9)
            return FALSE;
        e3++;
    }
    return g_utf8_validate_len(s, len, NULL);
}

void tkv_text_append_line(GString *out, const char *s, size_t len)
{
    if (line_is_safe(s, len)) {
        g_string_append_len(out, s, (gssize)len);
        return;
    }
    const char *p = s, *end = s + len;
    while (p < end) {
        const char *bad;
        /* Longest valid run (up to NUL or an invalid byte). */
        g_utf8_validate_len(p, (gsize)(end - p), &bad);
        for (const char *q = p; q < bad;) {
            gunichar c = g_utf8_get_char(q);
            const char *next = g_utf8_next_char(q);
            if (c == '\r')
                g_string_append(out, "\xE2\x90\x8D"); /* U+240D */
            else if (c == 0x2029)
                g_string_append(out, "\xEF\xBF\xBD");
            else
                g_string_append_len(out, q, next - q);
            q = next;
        }
        if (bad < end) {
            g_string_append(out, "\xEF\xBF\xBD"); /* one per bad byte */
            bad++;
        }
        p = bad;
    }
}

GString *tkv_text_from_stage(const tk_stage *stage)
{
    GString *out = g_string_sized_new(tk_stage_size(stage) + 16);
    uint32_t n = tk_stage_line_count(stage);
    for (uint32_t i = 1; i <= n; i++) {
        if (i > 1)
            g_string_append_c(out, '\n');
        /* the library's rule for what a pane shows (SASS without
         * nvdisasm's blanks); the line's number and words do not move */
        tk_display_line d;
        if (tk_stage_line_display(stage, i, &d)) {
            tkv_text_append_line(out, d.head, d.head_len);
            g_string_append(out, "  ");
        }
        if (d.body)
            tkv_text_append_line(out, d.body, d.body_len);
    }
    return out;
}

GString *tkv_text_from_bytes(const char *data, size_t len)
{
    GString *out = g_string_sized_new(len + 16);
    const char *p = data, *end = data + len;
    gboolean first = TRUE;
    while (p < end) {
        /* The library's line ends (tk_lines.h), or line N of the buffer is
         * not line N of the file. */
        const char *next;
        size_t l = tk_lines_next(p, end, &next);
        if (!first)
            g_string_append_c(out, '\n');
        tkv_text_append_line(out, p, l);
        first = FALSE;
        p = next;
    }
    return out;
}
