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

/* Writes [aWords, bWords] for line A (LA bytes) replaced by line B (LB). */
void html_report_write_words(jw *w, const char *a, size_t la, const char *b, size_t lb);

#endif
