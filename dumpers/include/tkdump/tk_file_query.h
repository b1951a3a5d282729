/* tk_file_query.h - which located file a user means by the FILE they typed.
 *
 * Locations carry the capture machine's paths ("/tmp/capture/vector_add/src/
 * vector_add.py"); a user types a base name, a tail of the path, or the path
 * of their own copy.  `tkview bind|history --source FILE:LINE` and the
 * viewer's select-source-location all ask this one rule.
 *
 * Ownership: a query owns its copy of what was typed; arrays it returns are
 * the caller's (g_free()).  It borrows the bundle, which must outlive it.
 * Threads: a query resolves source files through its bundle
 * (tk_bundle_resolve_source()), with the same rules as the bundle.
 */
#ifndef TKDUMP_TK_FILE_QUERY_H
#define TKDUMP_TK_FILE_QUERY_H

#include <stddef.h>

#include "tk_bundle.h"
#include "tk_export.h"
#include "tk_loctab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a located path matches FILE, the rules in order of precedence:
 *   TK_FILE_EXACT     the location's path itself;
 *   TK_FILE_SUFFIX    a tail of it that starts at a '/' boundary
 *                     ("vector_add.py" and "src/vector_add.py" name
 *                     "/tmp/capture/vector_add/src/vector_add.py"; so does
 *                     "/src/vector_add.py", "add.py" does not);
 *   TK_FILE_RESOLVED  a file on this machine (relative to the working
 *                     folder, or absolute) that is the file the location
 *                     resolves to (tk_bundle_resolve_source(), compared
 *                     after resolving symbolic links).
 * A more precise rule decides when it finds anything: an exact path wins
 * over tails of longer paths, and the disk is read only when the text of
 * no path matches. */
typedef enum {
    TK_FILE_NO_MATCH = 0,
    TK_FILE_RESOLVED,
    TK_FILE_SUFFIX,
    TK_FILE_EXACT
} tk_file_match;

typedef struct tk_file_query tk_file_query;

/* A query for what the user typed as TYPED, over BUNDLE's files (BUNDLE
 * must outlive it).  Free with tk_file_query_free(); NULL is fine. */
TK_API
tk_file_query *tk_file_query_new(tk_bundle *bundle, const char *typed);
TK_API
void tk_file_query_free(tk_file_query *query);
/* TYPED as given; owned by the query. */
TK_API
const char *tk_file_query_typed(const tk_file_query *query);

/* How FILE matches (TK_FILE_NO_MATCH for an id out of range). */
TK_API
tk_file_match tk_file_query_match(tk_file_query *query, tk_file_id file);

/* The files that match by the most precise rule that matches any: among
 * the N ids at AMONG (a kernel's files), or every file of the bundle's
 * location table when AMONG is NULL.  Returns their number (more than one:
 * FILE is ambiguous, say which); *FOUND (if not NULL) receives them, in the
 * order looked at, caller frees with g_free() (NULL when none). */
TK_API
size_t tk_file_query_find(tk_file_query *query, const tk_file_id *among,
                          size_t n, tk_file_id **found);

/* A tk_file_pred (tk_timeline.h) for QUERY: whether FILE matches by the
 * rule the last tk_file_query_find() decided on, or a more precise one (by
 * any rule before a find, or when it found nothing).  Files interned after
 * the find, from pass dumps, are judged by the same rule.  TAB is unused:
 * the query's bundle's table is asked. */
TK_API
int tk_file_query_accepts(const tk_loctab *tab, tk_file_id file, void *query);

#ifdef __cplusplus
}
#endif
#endif
