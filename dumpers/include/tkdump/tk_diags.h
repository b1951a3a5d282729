/* tk_diags.h - diagnostics: what a reader could not read, and where.
 *
 * Every reader in this library returns what it could read plus a list of
 * diagnostics.  The library never prints and never exits: the program decides
 * how to show a diagnostic and which exit code it deserves.
 *
 * Ownership: a tk_diags owns copies of every string added to it.
 */
#ifndef TKDUMP_TK_DIAGS_H
#define TKDUMP_TK_DIAGS_H

#include <stddef.h>
#include <stdint.h>

#include "tk_export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TK_DIAG_NOTE,    /* worth knowing, nothing lost (a source file not found) */
    TK_DIAG_WARNING, /* something was skipped; the rest is usable */
    TK_DIAG_ERROR    /* nothing useful could be made of this input */
} tk_diag_severity;

typedef struct {
    tk_diag_severity severity;
    const char *file; /* the file read, as given by the caller; never NULL */
    uint64_t line;    /* 1-based line in that file, 0 when not about a line */
    const char *message;
} tk_diag;

typedef struct tk_diags tk_diags;

/* A new, empty list.  Free it with tk_diags_free(). */
TK_API
tk_diags *tk_diags_new(void);
TK_API
void tk_diags_free(tk_diags *diags);

/* Adds one diagnostic.  FILE may be NULL (stored as "").  A flood from one
 * broken file is capped: past TK_DIAGS_PER_FILE diagnostics for the same file
 * only a count is kept, reported as one final "... more" diagnostic. */
#define TK_DIAGS_PER_FILE 100
TK_API
void tk_diags_add(tk_diags *diags, tk_diag_severity severity, const char *file,
                  uint64_t line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Number of diagnostics, including the "... more" summaries. */
TK_API
size_t tk_diags_count(const tk_diags *diags);

/* The I-th diagnostic; valid until the list is freed or added to. */
TK_API
const tk_diag *tk_diags_get(const tk_diags *diags, size_t i);

/* Number of diagnostics of SEVERITY or worse. */
TK_API
size_t tk_diags_count_at_least(const tk_diags *diags, tk_diag_severity severity);

/* "error", "warning" or "note". */
TK_API
const char *tk_diag_severity_name(tk_diag_severity severity);

#ifdef __cplusplus
}
#endif
#endif
