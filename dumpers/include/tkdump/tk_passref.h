/* tk_passref.h - a pass as a user names it: the one grammar of `tkview
 * diff --pass/--to`, the viewer's pass-view.select-pass ("go to pass") and
 * the report's #pass= fragment (docs/passes.md, "Naming a pass").
 *
 *   N       pass N, its number in `tkview passes` (0-based)
 *   N.J     sub-step J of pass N (SoftwarePipeliner's internal dumps)
 *   N-M     from the IR before pass N to the IR after pass M (N <= M)
 *   NAME    the one pass whose name or argument is NAME
 *           ("TritonGPUCoalesce", "tritongpu-coalesce")
 *
 * N, J and M are decimal digits only.  A spec that starts with a digit is
 * a number form; anything else is a name.  "--to M" (the CLI) and "&to=M"
 * (the report) extend a pass N to M, as "N-M" does.  The report's page
 * parses fragments in the browser with the same grammar; both sides are
 * tested against one table (tests/passref_cases.json).
 *
 * Ownership: the timeline is borrowed; tk_passref_format() returns a
 * string the caller frees with free().
 */
#ifndef TKDUMP_TK_PASSREF_H
#define TKDUMP_TK_PASSREF_H

#include <stddef.h>

#include "tk_export.h"
#include "tk_timeline.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    size_t from; /* the pass, or the first pass of a range */
    size_t sub;  /* a sub-step of FROM, or TK_TL_NONE */
    size_t to;   /* the last pass (FROM for one pass or a sub-step) */
} tk_passref;

typedef enum {
    TK_PASSREF_OK = 0,
    TK_PASSREF_SYNTAX,     /* starts with a digit but is none of the forms */
    TK_PASSREF_NO_PASS,    /* a number past the last pass */
    TK_PASSREF_NO_SUBSTEP, /* N.J: pass N has no sub-step J */
    TK_PASSREF_BACKWARDS,  /* N-M (or N to M) with M before N */
    TK_PASSREF_NO_NAME,    /* no pass has that name or argument */
    TK_PASSREF_AMBIGUOUS,  /* several passes have it: give the number */
    TK_PASSREF_NOT_A_PASS  /* "to" given with a sub-step or a range, or
                              naming one */
} tk_passref_error;

/* Reads SPEC against TL's passes into *REF.  On an error *REF is left
 * with what was read (FROM of a number past the end, say). */
TK_API
tk_passref_error tk_passref_parse(const tk_timeline *tl, const char *spec, tk_passref *ref);

/* Extends *REF, one pass, to the pass TO names (--to, &to=): REF becomes
 * the range REF.from-TO. */
TK_API
tk_passref_error tk_passref_extend(const tk_timeline *tl, tk_passref *ref, const char *to);

/* The spec of REF in the grammar's own form: "N", "N.J" or "N-M" (a range
 * of one pass is "N").  Caller frees with free(); NULL when out of memory. */
TK_API
char *tk_passref_format(const tk_passref *ref);

/* "syntax", "no-pass", "no-substep", "backwards", "no-name", "ambiguous",
 * "not-a-pass" ("ok" for TK_PASSREF_OK): the names the shared test table
 * uses.  Static strings. */
TK_API
const char *tk_passref_error_name(tk_passref_error e);

#ifdef __cplusplus
}
#endif
#endif
