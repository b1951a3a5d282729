/* tkv_find.h - what the find bar looks for, found in a text.
 *
 * A query is plain text (folded for case unless MATCH_CASE) or a regular
 * expression (GRegex, PCRE syntax; "^" and "$" at each line's ends), run
 * over a whole text at once: every line, drawn or not.  A hit is a range
 * of one line: a match running over a line end is cut there; an empty
 * match (".*" on an empty line) is no hit.
 */
#ifndef TKV_FIND_H
#define TKV_FIND_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
    guint32 line;  /* 1-based */
    guint32 start; /* byte offsets in the line: [start, end) */
    guint32 end;
} TkvFindHit;

typedef struct _TkvFindQuery TkvFindQuery;

/* A query for TEXT; NULL when TEXT is empty, or (with *ERROR set) when it is
 * a regular expression that does not compile.  Free with
 * tkv_find_query_free(). */
TkvFindQuery *tkv_find_query_new(const char *text, gboolean regex, gboolean match_case,
                                 GError **error);
void tkv_find_query_free(TkvFindQuery *q);

/* Appends to HITS (TkvFindHit) the hits of Q in TEXT (LEN bytes, lines ended
 * by '\n'), in order, at most MAX of them.  Returns how many it appended. */
gsize tkv_find_in_text(const TkvFindQuery *q, const char *text, gsize len, GArray *hits,
                       gsize max);

G_END_DECLS

#endif
