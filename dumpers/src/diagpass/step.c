/* step.c - a message's pass placed on its kernel's timeline, by the rule
 * tk_diag_pass.h states. */
#include <string.h>

#include <glib.h>

#include "tkdump/tk_diag_pass.h"

static int named(const tk_timeline_entry *t, const char *pass)
{
    return !(t->flags & TK_TL_PLACEHOLDER) &&
           (strcmp(t->pass, pass) == 0 || strcmp(t->arg, pass) == 0);
}

tk_diag_step tk_diag_entry_step(const tk_diag_entry *e, const tk_timeline *tl)
{
    tk_diag_step s = {TK_TL_NONE, TK_TL_NONE, 0, TK_DIAG_STEP_NO_PASS};
    if (!e || !e->pass)
        return s;
    s.how = TK_DIAG_STEP_NOT_RUN;
    if (!tl)
        return s;
    size_t first = TK_TL_NONE, last = TK_TL_NONE;
    for (size_t i = 0; i < tk_timeline_count(tl); i++)
        if (named(tk_timeline_get(tl, i), e->pass)) {
            if (first == TK_TL_NONE)
                first = i;
            last = i;
            s.n_runs++;
        }
    if (s.n_runs == 0)
        return s;
    if (e->pass_from && strcmp(e->pass_from, "stream") == 0) {
        /* The pipeline stopped in this pass: nothing of its name ran
         * after the run that failed. */
        s.how = TK_DIAG_STEP_FAILED_RUN;
        s.step = last;
        s.run = s.n_runs - 1;
    } else if (s.n_runs == 1) {
        s.how = TK_DIAG_STEP_ONLY_RUN;
        s.step = first;
        s.run = 0;
    } else {
        s.how = TK_DIAG_STEP_SEVERAL;
    }
    return s;
}

const char *tk_diag_step_how_name(tk_diag_step_how how)
{
    switch (how) {
    case TK_DIAG_STEP_NO_PASS:
        return "no-pass";
    case TK_DIAG_STEP_NOT_RUN:
        return "not-run";
    case TK_DIAG_STEP_SEVERAL:
        return "several";
    case TK_DIAG_STEP_ONLY_RUN:
        return "only-run";
    case TK_DIAG_STEP_FAILED_RUN:
        return "failed-run";
    }
    return "";
}

char *tk_diag_step_sentence(const tk_diag_step *s)
{
    switch (s->how) {
    case TK_DIAG_STEP_ONLY_RUN:
        return g_strdup_printf("step %zu of `tkview passes` (its only run)", s->step);
    case TK_DIAG_STEP_FAILED_RUN:
        return g_strdup_printf("step %zu of `tkview passes` (run %zu of %zu: the "
                               "pipeline failed in it)",
                               s->step, s->run + 1, s->n_runs);
    case TK_DIAG_STEP_SEVERAL:
        return g_strdup_printf("it ran %zu times; which run printed this is unknown",
                               s->n_runs);
    case TK_DIAG_STEP_NOT_RUN:
        return g_strdup("no such step in the kernel's pass dumps");
    case TK_DIAG_STEP_NO_PASS:
        break;
    }
    return NULL;
}
