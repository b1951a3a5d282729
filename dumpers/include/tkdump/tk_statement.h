/* tk_statement.h - the statement a source line of a bundle belongs to
 * (statement/).
 */
#ifndef TKDUMP_TK_STATEMENT_H
#define TKDUMP_TK_STATEMENT_H

#include <stdint.h>

#include "tk_bundle.h"
#include "tk_export.h"
#include "tk_loctab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The statement a source line belongs to (tk_pysource.h), for binding a
 * click on any line of a wrapped call to the IR Triton recorded at one of
 * them (tk_bind_lines_to_stage()). */
typedef enum {
    TK_STATEMENT_CODE,     /* a line of the statement FIRST..LAST */
    TK_STATEMENT_NO_CODE,  /* a blank or comment line: FIRST = LAST = LINE */
    TK_STATEMENT_PAST_END, /* past the file's N_LINES lines */
    TK_STATEMENT_UNKNOWN   /* the file is not at hand or not Python: the
                              line alone, FIRST = LAST = LINE */
} tk_statement_status;

typedef struct {
    tk_statement_status status;
    uint32_t first, last;
    uint32_t n_lines; /* lines of the file; 0 when not read */
} tk_statement;

/* Fills *OUT for line LINE of FILE: the file is resolved
 * (tk_bundle_resolve_source()) and, when its path ends in ".py", read and
 * tokenized once and kept.  Returns OUT->status.  Fills the bundle's caches
 * (see "Threads" in tk_bundle.h). */
TK_API
tk_statement_status tk_bundle_statement(tk_bundle *bundle, tk_file_id file,
                                        uint32_t line, tk_statement *out);

#ifdef __cplusplus
}
#endif
#endif
