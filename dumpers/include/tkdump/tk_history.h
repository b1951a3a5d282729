/* tk_history.h - the pass history of one source line: the passes and
 * sub-steps of a kernel's timeline that added or removed IR bound to it,
 * made by tk_timeline_history() (tk_timeline.h).
 *
 * Ownership: a history owns its steps; free it with tk_history_free().  It
 * does not keep the timeline it was made from.
 */
#ifndef TKDUMP_TK_HISTORY_H
#define TKDUMP_TK_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "tk_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One pass or sub-step that touched the line. */
typedef struct {
    size_t pass;      /* index of the pass */
    size_t substep;   /* TK_TL_NONE (tk_timeline.h), or the sub-step of that
                         pass */
    /* Lines the pass removed / added whose stacks name the source line (in
     * any frame with TK_MATCH_CALLED, innermost with TK_MATCH_EXACT).  A
     * changed line counts once on each side. */
    uint32_t removed, added;
} tk_history_step;

typedef struct tk_history tk_history;

TK_API
void tk_history_free(tk_history *h);

TK_API
size_t tk_history_count(const tk_history *h);
TK_API
const tk_history_step *tk_history_get(const tk_history *h, size_t i);
/* Number of changed entries looked at, and how many had no location at all
 * on their changed lines (machine code, Triton's internal dumps): the
 * history cannot say whether those touched the line. */
TK_API
size_t tk_history_entries_read(const tk_history *h);
TK_API
size_t tk_history_entries_unlocated(const tk_history *h);

#ifdef __cplusplus
}
#endif
#endif
