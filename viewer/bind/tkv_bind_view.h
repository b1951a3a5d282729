/* tkv_bind_view.h - the binding view: a source pane and one or two IR panes,
 * tied together by the library's binding index.
 *
 * What is shown follows one *anchor*, the last thing the user selected:
 *   a source line (FILE:LINE)  -> each IR pane highlights the lines of its
 *      stage bound to the line's statement (tk_bundle_statement(),
 *      tk_bind_lines_to_stage(), "this line only" (TK_MATCH_EXACT) or "this
 *      line and what it called" (TK_MATCH_CALLED)), scrolled to the first
 *      instruction, "k of n" (instructions only) in the pane's header;
 *   an IR line (STAGE:LINE)    -> the source pane highlights the lines of
 *      every frame of its inline stacks that are in the shown file, and the
 *      other IR pane the lines of its stage bound to it
 *      (tk_bind_stage_to_stage()); the stack panel shows the frames.
 * Nothing here reads IR text or computes a binding: every line number comes
 * from tk_bind.h.
 *
 * User input never changes the anchor directly: a click or cursor move in a
 * pane activates the view's action bind-view.select-source-location (su) or
 * bind-view.select-ir-line (su), the stage and file selectors
 * bind-view.stage, bind-view.second-stage and bind-view.source-file, so the
 * UI, the keys and the tests all go through the same actions
 * (tkv_bind_view_actions.c), whose handlers call the functions below.
 */
#ifndef TKV_BIND_VIEW_H
#define TKV_BIND_VIEW_H

#include <gtk/gtk.h>

#include "document/tkv_document.h"
#include "widgets/tkv_code_pane.h"
#include "widgets/tkv_regs_strip.h"
#include "widgets/tkv_find_bar.h"

G_BEGIN_DECLS

#define TKV_TYPE_BIND_VIEW (tkv_bind_view_get_type())
G_DECLARE_FINAL_TYPE(TkvBindView, tkv_bind_view, TKV, BIND_VIEW, GtkWidget)

typedef enum {
    TKV_PANE_SOURCE,
    TKV_PANE_PRIMARY,
    TKV_PANE_SECONDARY
} TkvPaneId;

typedef enum {
    TKV_ANCHOR_NONE,
    TKV_ANCHOR_SOURCE,
    TKV_ANCHOR_IR
} TkvAnchorKind;

/* Shows kernel KERNEL of DOC (DOC NULL: nothing), its own source file, TTGIR
 * (or its first stage) in the primary pane. */
void tkv_bind_view_set_kernel(TkvBindView *self, TkvDocument *doc, guint kernel);
/* Reads the code languages' definitions (once per process, ~30 ms):
 * call when a bundle starts loading on its worker, so that the first view
 * does not. */
void tkv_bind_view_warm_up(void);

/* Anchors on source FILE:LINE, showing FILE.  FALSE when FILE is not one of
 * the kernel's files or LINE is 0. */
gboolean tkv_bind_view_select_source(TkvBindView *self, tk_file_id file, guint line);
/* Anchors on LINE of STAGE; when no pane shows STAGE the primary pane
 * switches to it.  FALSE when the kernel has no such stage or line. */
gboolean tkv_bind_view_select_ir(TkvBindView *self, tk_stage_kind stage, guint line);
/* Shows FILE in the source pane without changing the anchor. */
gboolean tkv_bind_view_show_file(TkvBindView *self, tk_file_id file);

/* The stage of PANE (TKV_PANE_PRIMARY or _SECONDARY); FALSE when the kernel
 * lacks it. */
gboolean tkv_bind_view_set_stage(TkvBindView *self, TkvPaneId pane, tk_stage_kind stage);
tk_stage_kind tkv_bind_view_get_stage(TkvBindView *self, TkvPaneId pane);
void tkv_bind_view_set_second_visible(TkvBindView *self, gboolean visible);
gboolean tkv_bind_view_get_second_visible(TkvBindView *self);
/* Whether the lines that only state a location (MLIR #loc definitions, PTX
 * .loc, SASS //##) are shown; hidden (folded away) by default. */
void tkv_bind_view_set_show_locations(TkvBindView *self, gboolean show);
gboolean tkv_bind_view_get_show_locations(TkvBindView *self);
/* What the notes bar says ("" when hidden), for tests. */
const char *tkv_bind_view_get_notes_text(TkvBindView *self);
/* Shows the helper code the answer leaves out (the notes' "Show them"):
 * the primary pane steps through those lines.  FALSE when there are none. */
gboolean tkv_bind_view_show_shared(TkvBindView *self);

/* "This line only" (TRUE) or "this line and what it called" (FALSE). */
void tkv_bind_view_set_exact(TkvBindView *self, gboolean exact);
gboolean tkv_bind_view_get_exact(TkvBindView *self);

TkvAnchorKind tkv_bind_view_get_anchor(TkvBindView *self, tk_stage_kind *stage,
                                       tk_file_id *file, guint *line);
tk_file_id tkv_bind_view_get_file(TkvBindView *self);

TkvCodePane *tkv_bind_view_get_pane(TkvBindView *self, TkvPaneId pane);
/* The pane that last had the keyboard focus (the primary pane at first). */
TkvCodePane *tkv_bind_view_get_focused_pane(TkvBindView *self);
/* The register strip (tkv_bind_view_regs.c) in *STRIP, the source line of
 * the kernel's register peak in *FILE (TKV_NO_FILE: none) and *LINE; TRUE
 * while the strip is shown (the primary pane shows SASS).  For the tests. */
gboolean tkv_bind_view_get_regs(TkvBindView *self, TkvRegsStrip **strip, tk_file_id *file,
                                guint *line);
/* The view's find bar, over its panes (tkv_find_bar.h). */
TkvFindBar *tkv_bind_view_get_find_bar(TkvBindView *self);
/* Next/previous match in the focused pane, or in the first pane that has
 * matches.  FALSE when no pane has any. */
gboolean tkv_bind_view_step_match(TkvBindView *self, int delta);

/* The remembered layout (the source pane's share, "source-fraction"), given
 * by the view's owner; NULL (the default): the view starts from its own
 * default and remembers nothing.  The view keeps a reference. */
void tkv_bind_view_set_settings(TkvBindView *self, GSettings *settings);

/* The metric the cost columns show (tk_cost.h's index): the kernel's
 * default (samples with a profile, else SASS instructions) until set. */
void tkv_bind_view_set_metric(TkvBindView *self, guint metric);
guint tkv_bind_view_get_metric(TkvBindView *self);
/* What the cost column of PANE shows for LINE ("10.9k"; caller frees), or
 * NULL when it shows nothing there. */
char *tkv_bind_view_heat_text(TkvBindView *self, TkvPaneId pane, guint line);
/* The tooltip of LINE's cost in the IR pane PANE (tkv_cost_ir_tip()), or
 * NULL; caller frees. */
char *tkv_bind_view_heat_tip(TkvBindView *self, TkvPaneId pane, guint line);

/* The worst severity (tk_diag_level) of the compiler messages the
 * message column of PANE marks on LINE, -1 for none (for tests). */
int tkv_bind_view_diag_level(TkvBindView *self, TkvPaneId pane, guint line);
/* The compiler messages of the document came in: the columns show them. */
void tkv_bind_view_refresh_diag(TkvBindView *self);

/* Signals:
 *   "anchor-changed"  the anchor moved (the stack panel follows);
 *   "stage-changed" (guint pane)  a pane's stage changed, or the second pane
 *                     was shown or hidden;
 *   "file-changed"    another source file is shown. */

G_END_DECLS

#endif
