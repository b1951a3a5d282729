/* data_words.h - the changed words of a replaced line, as the report's
 * data stores them (data_words.c).
 *
 * The words are the library's (tk_ir_diff_words(), tk_ir_diff.h): the
 * report never finds them itself.  Written as [aWords, bWords], each a
 * flat array [start, end, start, end, ...] of offsets in UTF-16 units (the
 * characters of a JavaScript string), so the page slices its strings with
 * them as they are.
 */
#ifndef HTML_DATA_WORDS_H
#define HTML_DATA_WORDS_H

#include <stddef.h>

#include "jsonw.h"

/* Writes [aWords, bWords] for line A (LA bytes) replaced by line B (LB).
 * A pair written before is written again from memory (data_words.c); any
 * thread may call it. */
void html_report_write_words(jw *w, const char *a, size_t la, const char *b, size_t lb);

/* Frees what html_report_write_words() kept (html_write() calls it when
 * the report is written). */
void html_report_words_forget(void);

#endif
