/* tkv_find_bar.h - one find bar for a view, over all its panes.
 *
 * Ctrl+F in the binding view or the pass view opens the view's find bar,
 * which searches every pane the view shows (the source, the IR pane or
 * panes; in pass mode both sides of the diff and the source below), every
 * line of each (tkv_find.h: plain text or a regular expression), and counts
 * the hits of all of them: "k of n".  Enter / Shift+Enter (Ctrl+G /
 * Ctrl+Shift+G) step through them pane after pane, in the panes' order;
 * the hit stepped to comes to the middle of its pane, and into view
 * sideways.  Every hit is painted, the current one in a color of its own
 * (tkv_code_view_set_find_hits()).  Stepping does not select a line:
 * the binding shown stays.  Escape closes the bar and clears the hits.
 *
 * The owner says what the panes are through a callback, asked at each
 * search; it calls tkv_find_bar_refresh() when what they show changes (a
 * stage switched, a new diff): an open bar then searches again.  Lines a
 * buffer hides (location lines) are not searched.
 */
#ifndef TKV_FIND_BAR_H
#define TKV_FIND_BAR_H

#include <gtk/gtk.h>

#include "widgets/tkv_code_view.h"

G_BEGIN_DECLS

#define TKV_TYPE_FIND_BAR (tkv_find_bar_get_type())
G_DECLARE_FINAL_TYPE(TkvFindBar, tkv_find_bar, TKV, FIND_BAR, GtkWidget)

/* A pane searched: its view shown, and a name for the tests ("source",
 * "primary", "a"). */
typedef struct {
    TkvCodeView *view;
    const char *name;
} TkvFindTarget;

/* Fills TARGETS (TkvFindTarget, in the order hits are stepped through) and
 * *FOCUSED (the index of the pane that last had the focus, -1 none). */
typedef void (*TkvFindTargetsFunc)(gpointer data, GArray *targets, int *focused);

GtkWidget *tkv_find_bar_new(TkvFindTargetsFunc func, gpointer data);

/* Shows the bar and puts the focus in its entry (its text selected). */
void tkv_find_bar_open(TkvFindBar *self);
/* Shows the bar searching TEXT (what typing it does): the first hit at or
 * after the cursor of the pane that had the focus becomes current. */
void tkv_find_bar_set_query(TkvFindBar *self, const char *text, gboolean regex,
                            gboolean match_case);
/* Steps to the next (DIR > 0) or previous hit, round from the last to the
 * first.  FALSE when there is none. */
gboolean tkv_find_bar_step(TkvFindBar *self, int dir);
/* What the panes show changed: an open bar searches again. */
void tkv_find_bar_refresh(TkvFindBar *self);
void tkv_find_bar_close(TkvFindBar *self);

/* For the tests: what the bar shows. */
gboolean tkv_find_bar_is_open(TkvFindBar *self);
const char *tkv_find_bar_get_text(TkvFindBar *self);
const char *tkv_find_bar_get_label(TkvFindBar *self);
/* Hits in all, the index of the current one (-1), and where it is: the
 * pane's name, line and byte range (NULL when none). */
guint tkv_find_bar_get_total(TkvFindBar *self);
int tkv_find_bar_get_current(TkvFindBar *self, const char **pane, TkvFindHit *hit);
/* The number of panes searched, and pane I's name and hit count. */
guint tkv_find_bar_get_n_panes(TkvFindBar *self);
const char *tkv_find_bar_get_pane(TkvFindBar *self, guint i, guint *hits);
/* How long the last search took, in ms (all panes, hits painted). */
double tkv_find_bar_get_last_ms(TkvFindBar *self);

G_END_DECLS

#endif
