/* statement.h - the statements of a bundle's source files, kept on the
 * bundle (tk_bundle_statement()); cleared when the bundle is freed. */
#ifndef TKDUMP_STATEMENT_STATEMENT_H
#define TKDUMP_STATEMENT_STATEMENT_H

#include "bundle/internal.h"

/* ---- statement.c ---- */

void bundle_statements_clear(tk_bundle *b);

#endif
