/* tkv_find.c - a query run over a whole text. */
#include "widgets/tkv_find.h"

#include <string.h>

struct _TkvFindQuery {
    GRegex *re;
};

TkvFindQuery *tkv_find_query_new(const char *text, gboolean regex, gboolean match_case,
                                 GError **error)
{
    if (!text || !*text)
        return NULL;
    /* Plain text is a regular expression of itself, escaped: one matcher
     * (PCRE, compiled to machine code where GLib can) for both. */
    char *pattern = regex ? g_strdup(text) : g_regex_escape_string(text, -1);
    GRegexCompileFlags flags = G_REGEX_MULTILINE | G_REGEX_OPTIMIZE;
    if (!match_case)
        flags |= G_REGEX_CASELESS;
    GRegex *re = g_regex_new(pattern, flags, 0, error);
    g_free(pattern);
    if (!re)
        return NULL;
    TkvFindQuery *q = g_new0(TkvFindQuery, 1);
    q->re = re;
    return q;
}

void tkv_find_query_free(TkvFindQuery *q)
{
    if (!q)
        return;
    g_regex_unref(q->re);
    g_free(q);
}

gsize tkv_find_in_text(const TkvFindQuery *q, const char *text, gsize len, GArray *hits,
                       gsize max)
{
    if (!q || !text || !max)
        return 0;
    GMatchInfo *mi = NULL;
    gsize found = 0;
    /* the line a match is on: counted from the last match onwards */
    guint32 line = 1;
    gsize line_start = 0, counted = 0;
    g_regex_match_full(q->re, text, (gssize)len, 0, 0, &mi, NULL);
    while (g_match_info_matches(mi) && found < max) {
        int s, e;
        if (g_match_info_fetch_pos(mi, 0, &s, &e) && e > s) {
            const char *p = text + counted;
            const char *nl;
            while ((nl = memchr(p, '\n', (size_t)(text + s - p)))) {
                line++;
                line_start = (gsize)(nl - text) + 1;
                p = nl + 1;
            }
            counted = (gsize)s;
            /* cut at the line's end */
            const char *end_nl = memchr(text + s, '\n', (size_t)(e - s));
            gsize end = end_nl ? (gsize)(end_nl - text) : (gsize)e;
            if (end > (gsize)s) {
                TkvFindHit h = {line, (guint32)((gsize)s - line_start),
                                (guint32)(end - line_start)};
                g_array_append_val(hits, h);
                found++;
            }
        }
        if (!g_match_info_next(mi, NULL))
            break;
    }
    g_match_info_free(mi);
    return found;
}
