/* levels.c - which passes make one level of a timeline, as "whole level"
 * shows them (tk_timeline_level_after(), tk_timeline_starts_level()).
 *
 * A pass's level is the IR it reads (its dump's).  The pass that turns one
 * IR into the next (ConvertTritonToTritonGPU, ConvertTritonGPUToLLVM)
 * reads one level and leaves another: it is no part of either level's
 * "whole level" diff, whose two ends must be the same IR, and it is a step
 * of its own.  What a pass leaves is the level of the text after it: the
 * dump after it (the next pass's), or its level's final stage.
 */
#include "timeline/internal.h"

tk_pass_level tk_timeline_level_after(const tk_timeline *tl, size_t i)
{
    const tk_timeline_entry *e = tk_timeline_get(tl, i);
    if (!e)
        return TK_PASS_LEVEL_UNKNOWN;
    const tk_pass_dump *d = NULL;
    switch (e->after.kind) {
    case TK_SIDE_DUMP:
    case TK_SIDE_STATE:
        d = tl_dump(tl, e->after.part, e->after.dump);
        break;
    case TK_SIDE_FUNCTIONS:
        if (e->after.n_pieces)
            d = tl_dump(tl, e->after.pieces[0].part, e->after.pieces[0].dump);
        break;
    default: /* FINAL: its own level's stage; NONE: nothing after it */
        break;
    }
    return d && d->level != TK_PASS_LEVEL_UNKNOWN ? d->level : e->level;
}

/* Whether pass I leaves another level than it reads. */
static gboolean changes_level(const tk_timeline *tl, size_t i)
{
    return tk_timeline_level_after(tl, i) != tk_timeline_get(tl, i)->level;
}

int tk_timeline_starts_level(const tk_timeline *tl, size_t i)
{
    if (i == 0)
        return i < tk_timeline_count(tl);
    if (i >= tk_timeline_count(tl))
        return 0;
    return tk_timeline_get(tl, i)->level != tk_timeline_get(tl, i - 1)->level ||
           changes_level(tl, i) || changes_level(tl, i - 1);
}
