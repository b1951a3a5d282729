/* seq.c - where a compile starts in a pass dump file: the shared base of
 * passfiles/, used by the finder (passfiles.c) and by the kernels made
 * from pass dumps alone (passfiles_only.c). */
#include "passfiles/internal.h"


unsigned long long bundle_passfiles_seq_line(const tk_passes *p, size_t s)
{
    const tk_pass_seq *q = tk_passes_seq(p, s);
    return q && q->n_dumps
               ? (unsigned long long)tk_passes_get(p, q->dumps[0])->header_line
               : 0;
}
