/* tkv_diag_panel.h - the Diagnostics panel: what the compiler said about
 * the kernel shown (tk_diag.h through tkv_diag_doc.h), one row per
 * message, the worst first: severity, origin and code, where it points
 * (source line and column, stage and IR line), the message, its notes, the
 * pass that emitted it, and the library's plain words and what to try.  A
 * compile that failed says so in the heading, its error first.
 *
 * Activating a row (a click, or the action diag.activate (u), the row's
 * position as shown) emits "entry-activated" (int stage, guint file,
 * guint line): STAGE -1 with the source FILE:LINE when the message has no
 * IR line, else that stage's LINE (its source line follows through the IR
 * line's stacks).  The window opens it in the binding view.
 *
 * A message that names its pass has an "Open pass" button (or the action
 * diag.open-pass (u), the row's position): it emits "pass-activated"
 * (guint position), and the window opens pass mode at the step of the
 * kernel's timeline that pass is (tk_diag_pass.h's rule, once the
 * timeline is there; tkv_diag_panel_get_entry() gives the message).
 * The window then has the row say which step that is, or why there is
 * none (tkv_diag_panel_say(): tk_diag_step_sentence()'s words).
 */
#ifndef TKV_DIAG_PANEL_H
#define TKV_DIAG_PANEL_H

#include <gtk/gtk.h>

#include "document/tkv_document.h"
#include "tkdump/tk_diag.h"

G_BEGIN_DECLS

#define TKV_TYPE_DIAG_PANEL (tkv_diag_panel_get_type())
G_DECLARE_FINAL_TYPE(TkvDiagPanel, tkv_diag_panel, TKV, DIAG_PANEL, GtkWidget)

/* Shows kernel KERNEL of DOC (DOC NULL: nothing). */
void tkv_diag_panel_show(TkvDiagPanel *self, TkvDocument *doc, guint kernel);

/* The message at POSITION as shown, or NULL; owned by the document. */
const tk_diag_entry *tkv_diag_panel_get_entry(TkvDiagPanel *self, guint position);

/* Shows TEXT under the pass of the row at POSITION (NULL or "": nothing);
 * a row without a pass ignores it. */
void tkv_diag_panel_say(TkvDiagPanel *self, guint position, const char *text);
/* What the row at POSITION says under its pass, or NULL; owned by it. */
const char *tkv_diag_panel_get_said(TkvDiagPanel *self, guint position);

/* For the tests: the heading, and per row shown "SEVERITY ORIGIN[ CODE] |
 * WHERE | MESSAGE" (caller frees with g_strfreev()). */
const char *tkv_diag_panel_get_heading(TkvDiagPanel *self);
char **tkv_diag_panel_get_rows(TkvDiagPanel *self);

G_END_DECLS

#endif
