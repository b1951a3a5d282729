/* tk_lines.h - where a line ends: the one rule every reader of the library
 * and every front end splits text by.
 *
 * A line ends at "\n" or at the end of the text; a "\r" just before that
 * end belongs to the line end, not to the line, so CRLF files read like LF
 * files (a last line that ends in "\r" without "\n" too).  Nothing else
 * ends a line: a lone "\r" inside a line, U+2028 and U+2029 are part of
 * it.  Lines are numbered from 1 by these ends everywhere (stages, pass
 * dumps, source files); a front end that shows text (a GtkTextBuffer, a
 * browser) must not break a line anywhere else, or bindings land on the
 * wrong line.  Inline: readers run it on every line of files of gigabytes.
 */
#ifndef TK_LINES_H
#define TK_LINES_H

#include <stddef.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The length of the line whose N bytes at S run up to its "\n" (or the
 * text's end), without the "\r" before that end. */
static inline size_t tk_lines_trim(const char *s, size_t n)
{
    return n > 0 && s[n - 1] == '\r' ? n - 1 : n;
}

/* The line that starts at P (P < END): returns its length without its
 * line end; *NEXT gets where the next line starts (END after the last). */
static inline size_t tk_lines_next(const char *p, const char *end, const char **next)
{
    const char *nl = (const char *)memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end;
    *next = nl ? nl + 1 : end;
    return tk_lines_trim(p, (size_t)(e - p));
}

#ifdef __cplusplus
}
#endif
#endif
