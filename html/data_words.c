/* data_words.c - the changed words of a replaced line written into the
 * report's data (data_words.h). */
#include "data_words.h"

#include <glib.h>
#include <stdint.h>

#include "tkdump/tk_ir_diff.h"

/* Walks TEXT from byte 0 on, counting UTF-16 units: each UTF-8 sequence
 * is one unit, a 4-byte one two.  (A byte of invalid UTF-8, which jsonw
 * writes as U+FFFD, counts as one unit only when it is not a
 * continuation byte: such lines are not IR.)  The spans of a line come in
 * order, so one walk serves them all (a 32 KB line has thousands). */
typedef struct {
    const char *text;
    uint32_t byte, unit;
} utf16_walk;

static uint32_t utf16_at(utf16_walk *u, uint32_t off)
{
    if (off < u->byte) /* out of order: from the start again */
        u->byte = u->unit = 0;
    for (; u->byte < off; u->byte++) {
        unsigned char c = (unsigned char)u->text[u->byte];
        if ((c & 0xC0) != 0x80)
            u->unit += c >= 0xF0 ? 2 : 1;
    }
    return u->unit;
}

static void write_spans(jw *w, const char *text, const tk_ir_span *sp, size_t n)
{
    utf16_walk u = {text, 0, 0};
    jw_arr(w);
    for (size_t i = 0; i < n; i++) {
        jw_int(w, utf16_at(&u, sp[i].off));
        jw_int(w, utf16_at(&u, sp[i].off + sp[i].len));
    }
    jw_arr_end(w);
}

void html_report_write_words(jw *w, const char *a, size_t la, const char *b, size_t lb)
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
