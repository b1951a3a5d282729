/* tkv_text.h - dump and source text made safe for a GtkTextBuffer, line for
 * line.
 *
 * The library numbers lines by "\n" (a "\r" before it belongs to the line
 * end).  A GtkTextBuffer also breaks lines at a lone "\r" and at U+2029, and
 * refuses invalid UTF-8 outright.  Line N of the buffer must be line N of the
 * stage, or every binding would land on the wrong line, so text goes through
 * here: invalid bytes and NUL become U+FFFD, a lone "\r" becomes U+240D (the
 * visible CR symbol), U+2029 becomes U+FFFD; lines are joined with "\n".
 */
#ifndef TKV_TEXT_H
#define TKV_TEXT_H

#include <glib.h>

#include "tkdump/tk_stage.h"

/* Appends one line (LEN bytes, no line end) to OUT, made safe as above. */
void tkv_text_append_line(GString *out, const char *s, size_t len);

/* The whole text of STAGE, one buffer line per stage line, no final "\n"
 * (SASS: the blanks around an instruction's address cut, tkv_text.c).
 * Caller frees with g_string_free(). */
GString *tkv_text_from_stage(const tk_stage *stage);

/* The same for LEN bytes of a file (a source file), split like a stage.
 * Caller frees with g_string_free(). */
GString *tkv_text_from_bytes(const char *data, size_t len);

#endif
