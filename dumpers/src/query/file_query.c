/* file_query.c - which located file a user meant by the FILE they typed
 * (`tkview bind|history --source FILE:LINE`, the viewer's
 * select-source-location action).
 *
 * Locations carry the capture machine's paths; users type a base name, a
 * tail of the path, or the path of their own copy.  The rules, tried in
 * this order so that a more precise one decides when it can
 * (tk_file_query.h): the same path, then a tail of the path at a '/'
 * boundary, then the file the location resolves to on this machine being
 * the file typed.
 */
#include "bundle/internal.h"
#include "tkdump/tk_file_query.h"

#include <stdlib.h>
#include <string.h>

struct tk_file_query {
    tk_bundle *bundle;
    char *typed;
    char *typed_real; /* realpath of TYPED; NULL when it names no file here */
    tk_file_match best; /* of the last tk_file_query_find() */
};

tk_file_query *tk_file_query_new(tk_bundle *bundle, const char *typed)
{
    tk_file_query *q = g_new0(tk_file_query, 1);
    q->bundle = bundle;
    q->typed = g_strdup(typed ? typed : "");
    char *real = *q->typed ? realpath(q->typed, NULL) : NULL;
    q->typed_real = g_strdup(real); /* freed with g_free, as the rest */
    free(real);
    return q;
}

void tk_file_query_free(tk_file_query *q)
{
    if (!q)
        return;
    g_free(q->typed);
    g_free(q->typed_real);
    g_free(q);
}

const char *tk_file_query_typed(const tk_file_query *q)
{
    return q->typed;
}

/* The rules that look at the path's text alone. */
static tk_file_match text_match(const char *path, const char *typed)
{
    size_t lp = strlen(path), lt = strlen(typed);
    if (lt == 0)
        return TK_FILE_NO_MATCH;
    if (lp == lt && memcmp(path, typed, lp) == 0)
        return TK_FILE_EXACT;
    if (lt < lp && memcmp(path + lp - lt, typed, lt) == 0 &&
        (typed[0] == '/' || path[lp - lt - 1] == '/'))
        return TK_FILE_SUFFIX;
    return TK_FILE_NO_MATCH;
}

static gboolean resolves_to_typed(tk_file_query *q, tk_file_id file)
{
    if (!q->typed_real)
        return FALSE;
    const char *local = bundle_sources_resolve(q->bundle, file, NULL);
    char *real = local ? realpath(local, NULL) : NULL;
    gboolean same = real && strcmp(real, q->typed_real) == 0;
    free(real);
    return same;
}

tk_file_match tk_file_query_match(tk_file_query *q, tk_file_id file)
{
    tk_loctab *tab = tk_bundle_loctab(q->bundle);
    if (file >= tk_loctab_file_count(tab))
        return TK_FILE_NO_MATCH;
    tk_file_match m = text_match(tk_loctab_file_path(tab, file), q->typed);
    if (m == TK_FILE_NO_MATCH && resolves_to_typed(q, file))
        m = TK_FILE_RESOLVED;
    return m;
}

size_t tk_file_query_find(tk_file_query *q, const tk_file_id *among, size_t n,
                          tk_file_id **found)
{
    tk_loctab *tab = tk_bundle_loctab(q->bundle);
    size_t count = among ? n : tk_loctab_file_count(tab);
    GArray *hits[TK_FILE_EXACT + 1] = {NULL};
    for (int m = TK_FILE_RESOLVED; m <= TK_FILE_EXACT; m++)
        hits[m] = g_array_new(FALSE, FALSE, sizeof(tk_file_id));
    for (size_t i = 0; i < count; i++) {
        tk_file_id f = among ? among[i] : (tk_file_id)i;
        if (f >= tk_loctab_file_count(tab))
            continue;
        tk_file_match m = text_match(tk_loctab_file_path(tab, f), q->typed);
        if (m != TK_FILE_NO_MATCH)
            g_array_append_val(hits[m], f);
    }
    /* Resolving reads the disk: only when the text found nothing. */
    if (hits[TK_FILE_EXACT]->len == 0 && hits[TK_FILE_SUFFIX]->len == 0)
        for (size_t i = 0; i < count; i++) {
            tk_file_id f = among ? among[i] : (tk_file_id)i;
            if (f < tk_loctab_file_count(tab) && resolves_to_typed(q, f))
                g_array_append_val(hits[TK_FILE_RESOLVED], f);
        }
    q->best = TK_FILE_NO_MATCH;
    for (int m = TK_FILE_EXACT; m >= TK_FILE_RESOLVED && !q->best; m--)
        if (hits[m]->len)
            q->best = (tk_file_match)m;
    size_t got = q->best ? hits[q->best]->len : 0;
    if (found) {
        *found = got ? g_memdup2(hits[q->best]->data, got * sizeof(tk_file_id))
                     : NULL;
    }
    for (int m = TK_FILE_RESOLVED; m <= TK_FILE_EXACT; m++)
        g_array_free(hits[m], TRUE);
    return got;
}

int tk_file_query_accepts(const tk_loctab *tab, tk_file_id file, void *query)
{
    (void)tab; /* the query's bundle's table */
    tk_file_query *q = query;
    tk_loctab *t = tk_bundle_loctab(q->bundle);
    if (file >= tk_loctab_file_count(t))
        return 0;
    tk_file_match m = text_match(tk_loctab_file_path(t, file), q->typed);
    /* The disk is asked only when the decided rule is the resolved file. */
    if (m == TK_FILE_NO_MATCH && q->best <= TK_FILE_RESOLVED &&
        resolves_to_typed(q, file))
        m = TK_FILE_RESOLVED;
    return m != TK_FILE_NO_MATCH && m >= q->best;
}
