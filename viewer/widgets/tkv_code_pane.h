/* tkv_code_pane.h - a code view with its header and go-to-line bar.
 *
 * The header holds a selector (a GtkDropDown whose model the owner sets: the
 * stages for an IR pane, the source files for the source pane), a title, the
 * "k of n" label of the view's matches with previous/next buttons.  Ctrl+L
 * reaches a pane through its view's actions (bind-view.goto-line, ...), which
 * call tkv_code_pane_goto_line() on the pane that last had the focus
 * ("focused" signal).  Find is the view's, over all its panes
 * (tkv_find_bar.h).
 */
#ifndef TKV_CODE_PANE_H
#define TKV_CODE_PANE_H

#include <gtk/gtk.h>

#include "widgets/tkv_code_view.h"

G_BEGIN_DECLS

#define TKV_TYPE_CODE_PANE (tkv_code_pane_get_type())
G_DECLARE_FINAL_TYPE(TkvCodePane, tkv_code_pane, TKV, CODE_PANE, GtkWidget)

/* The view shown (the pane owns it). */
TkvCodeView *tkv_code_pane_get_view(TkvCodePane *self);

/* A pane can hold several views, one shown at a time: a view kept per
 * buffer keeps its lines laid out and measured, where a view given another
 * buffer lays the buffer out again (twice: measured, then drawn) and makes
 * the window measure itself again.  tkv_code_pane_add_view() adds a hidden
 * view (owned by the pane; the caller gives it its buffer);
 * tkv_code_pane_show_view() shows it in place of the shown one (the focus
 * moves along), and the header's match label and go-to-line then
 * act on it. */
TkvCodeView *tkv_code_pane_add_view(TkvCodePane *self);
void tkv_code_pane_show_view(TkvCodePane *self, TkvCodeView *view);
GtkDropDown *tkv_code_pane_get_selector(TkvCodePane *self);

void tkv_code_pane_set_title(TkvCodePane *self, const char *title, const char *tooltip);

/* What the match label says when there are no matches ("" hides it). */
void tkv_code_pane_set_empty_text(TkvCodePane *self, const char *text);
/* The label as shown ("2 of 6"), for tests. */
const char *tkv_code_pane_get_match_text(TkvCodePane *self);

/* STRIP (a widget the pane then owns; NULL: none) put between the header
 * and the code: a view's summary of the whole pane, such as register
 * pressure along a SASS pane (tkv_regs_strip.h). */
void tkv_code_pane_set_strip(TkvCodePane *self, GtkWidget *strip);

/* Shows the go-to-line bar and focuses its entry. */
void tkv_code_pane_goto_line(TkvCodePane *self);

/* Signals: "focused" when the view gets the keyboard focus. */

G_END_DECLS

#endif
