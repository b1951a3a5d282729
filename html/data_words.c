/* data_words.c - the changed words of a replaced line written into the
 * report's data (data_words.h). */
#include "data_words.h"

#include <glib.h>
#include <stdint.h>

#include "tkdump/tk_ir_diff.h"

/* The offset in UTF-16 units of byte OFF of TEXT: each UTF-8 sequence is
 * one unit, a 4-byte one two.  (A byte of invalid UTF-8, which jsonw
 * writes as U+FFFD, counts as one unit only when it is not a
 * continuation byte: such lines are not IR.) */
static uint32_t utf16_at(const char *text, uint32_t off)
{
    uint32_t u = 0;
    for (uint32_t i = 0; i < off; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c & 0xC0) != 0x80)
            u += c >= 0xF0 ? 2 : 1;
    }
    return u;
}

static void write_spans(jw *w, const char *text, const tk_ir_span *sp, size_t n)
{
    jw_arr(w);
    for (size_t i = 0; i < n; i++) {
        jw_int(w, utf16_at(text, sp[i].off));
        jw_int(w, utf16_at(text, sp[i].off + sp[i].len));
    }
    jw_arr_end(w);
}

void tk_report_write_words(jw *w, const char *a, size_t la, const char *b, size_t lb)
{
    tk_ir_span *sa, *sb;
    size_t na, nb;
    tk_ir_diff_words(a, la, b, lb, &sa, &na, &sb, &nb);
    jw_arr(w);
    write_spans(w, a, sa, na);
    write_spans(w, b, sb, nb);
    jw_arr_end(w);
    g_free(sa);
    g_free(sb);
}
