/* tkv_stack_panel.h - the inline stack(s) of the selected IR line.
 *
 * One row per frame, innermost first (the code that really ran, often a line
 * of Triton's library), out to the user's kernel line.  Each row shows the
 * frame's file:line:col and the text of that source line when the file is at
 * hand; clicking it activates win.select-source-location for that place,
 * which the window hands to the view shown: the same as a click in that
 * view's source pane.  An IR line with several
 * stacks (a fused location, located block arguments) shows each.
 */
#ifndef TKV_STACK_PANEL_H
#define TKV_STACK_PANEL_H

#include <gtk/gtk.h>

#include "document/tkv_document.h"

G_BEGIN_DECLS

#define TKV_TYPE_STACK_PANEL (tkv_stack_panel_get_type())
G_DECLARE_FINAL_TYPE(TkvStackPanel, tkv_stack_panel, TKV, STACK_PANEL, GtkWidget)

GtkWidget *tkv_stack_panel_new(void);

/* Shows the stacks of LINE of STAGE in kernel KERNEL of DOC. */
void tkv_stack_panel_show(TkvStackPanel *self, TkvDocument *doc, guint kernel,
                          tk_stage_kind stage, guint line);
/* Shows the stacks IDS (N of them) under HEADING ("TTGIR line 32", "after
 * pass 14, line 27"): for lines that are not a kernel's stage lines (a pass
 * dump's), whose stacks tk_ir_diff_line_stacks() gives.  INFERRED_FROM: the
 * stage the callers were taken from (tk_bind_inferred_from()), or
 * TK_STAGE_UNKNOWN when the stacks are the line's own. */
void tkv_stack_panel_show_stacks(TkvStackPanel *self, TkvDocument *doc, const char *heading,
                                 const tk_stack_id *ids, size_t n,
                                 tk_stage_kind inferred_from);

/* Shows no stack, and HINT in its place. */
void tkv_stack_panel_clear(TkvStackPanel *self, const char *hint);

/* What is shown, for tests: per stack, its frames. */
typedef struct {
    guint stack; /* 0-based */
    tk_frame frame;
} TkvShownFrame;
/* Owned by the panel. */
const GArray *tkv_stack_panel_get_frames(TkvStackPanel *self);
/* The heading ("TTGIR line 32") and the note ("callers from the PTX"). */
const char *tkv_stack_panel_get_heading(TkvStackPanel *self);
gboolean tkv_stack_panel_get_inferred(TkvStackPanel *self);
/* The title of each frame's row as shown ("standard.py:263:15"), in order;
 * caller frees with g_ptr_array_unref. */
GPtrArray *tkv_stack_panel_get_row_titles(TkvStackPanel *self);

G_END_DECLS

#endif
