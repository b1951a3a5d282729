/* tk_pysource.h - the statements of a Python source file: which lines make
 * the statement a given line belongs to.
 *
 * A person clicks statements, not lines: Triton records a call wrapped over
 * several lines at one of them (a call's location is its last line, or the
 * line of its callee name), so the IR of
 *
 *     acc, l_i, m_i = _attn_inner(acc, l_i, m_i, q,      # line 71
 *                                 start_m, qk_scale,     # line 72
 *                                 STAGE=1)               # line 73
 *
 * is bound to line 73 only.  The extents here let any of lines 71-73 bind to
 * the statement's IR (tk_bind_lines_to_stage()).
 *
 * The file is read by a small tokenizer (no Python is run): a statement is
 * a logical line in Python's sense, ending at a newline that is outside
 * brackets, outside a string (triple-quoted strings span lines; f-string
 * replacement fields nest) and not escaped by a backslash.  Comments and
 * blank lines between statements belong to none.  Several statements on one
 * line ("a = 1; b = 2") share that line's extent.  Unbalanced brackets or an
 * unterminated string make the statement run to the end of the file, as
 * Python's own tokenizer would refuse it: never a crash, always linear.
 *
 * Ownership: the object owns its tables; free with tk_pysource_free().
 */
#ifndef TKDUMP_TK_PYSOURCE_H
#define TKDUMP_TK_PYSOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "tk_diags.h"
#include "tk_export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_pysource tk_pysource;

/* The statements of the LEN bytes at DATA (any bytes; not kept).  Never
 * fails on content. */
TK_API
tk_pysource *tk_pysource_parse(const char *data, size_t len);

/* The same for the file at PATH; NULL (with an error in DIAGS naming PATH)
 * when it cannot be read or is binary. */
TK_API
tk_pysource *tk_pysource_read(const char *path, tk_diags *diags);

TK_API
void tk_pysource_free(tk_pysource *src);

/* Number of lines (a last line without a newline counts). */
TK_API
uint32_t tk_pysource_line_count(const tk_pysource *src);

typedef enum {
    TK_PYLINE_CODE,     /* the line is part of a statement */
    TK_PYLINE_NO_CODE,  /* blank, or only a comment, outside any statement */
    TK_PYLINE_PAST_END  /* line 0 or past the last line */
} tk_pyline;

/* What line LINE (1-based) is; for TK_PYLINE_CODE *FIRST and *LAST receive
 * the lines of its statement, otherwise both receive LINE. */
TK_API
tk_pyline tk_pysource_statement(const tk_pysource *src, uint32_t line,
                                uint32_t *first, uint32_t *last);

#ifdef __cplusplus
}
#endif
#endif
