/* jsonw.h - a small streaming JSON writer whose output is safe to load as a
 * script: the report's data files are `.js` files (file:// pages cannot
 * fetch() local JSON in Chromium), so every string is escaped for both JSON
 * and a script context.
 *
 * Strings: any bytes in, valid JSON out.  Invalid UTF-8 becomes U+FFFD;
 * control characters, '"', '\\', '<', '>', '&', U+2028 and U+2029 are written
 * as \uXXXX escapes, so no dump text can end a <script> element, open a
 * comment or break a JavaScript string.  Nothing is allocated per value; the
 * output grows in one GString.
 *
 * Commas are placed by the writer: call the value functions in order and
 * jw_key() before each member of an object.
 */
#ifndef HTML_JSONW_H
#define HTML_JSONW_H

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    GString *out;
    /* one bit per open container: whether it has a value yet */
    uint64_t need_comma;
    unsigned depth;
    gboolean after_key;
} jw;

void jw_init(jw *w, GString *out);

void jw_obj(jw *w);
void jw_obj_end(jw *w);
void jw_arr(jw *w);
void jw_arr_end(jw *w);
void jw_key(jw *w, const char *key); /* KEY is ASCII, written as is */
void jw_str(jw *w, const char *s);   /* NULL writes null */
void jw_strn(jw *w, const char *s, size_t len);
void jw_int(jw *w, int64_t v);
void jw_bool(jw *w, gboolean v);
void jw_null(jw *w);
/* A complete JSON value made by another writer (its text is appended). */
void jw_raw(jw *w, const GString *json);

/* Arrays of N unsigned numbers. */
void jw_u32s(jw *w, const uint32_t *v, unsigned n);
void jw_u64s(jw *w, const uint64_t *v, unsigned n);

/* A list of ascending 1-based line numbers, runs of 3 or more written as
 * `a, -b` (a through b): the report's compact form of line sets. */
void jw_lines(jw *w, const uint32_t *lines, size_t n);

/* Escapes LEN bytes of S as the body of a JSON string (no quotes) onto OUT. */
void jw_escape(GString *out, const char *s, size_t len);

#endif
