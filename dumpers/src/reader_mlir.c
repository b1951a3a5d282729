/* reader_mlir.c - placeholder until the reader lands. */
#include "readers.h"

void tk_read_mlir_locs(const tk_text *text, tk_loctab *tab,
                       tk_linemap_builder *out, tk_reader_info *info,
                       tk_diags *diags)
{
    (void)text; (void)tab; (void)out; (void)info; (void)diags;
}
