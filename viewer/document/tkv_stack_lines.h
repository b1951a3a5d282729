/* tkv_stack_lines.h - the source lines an IR line's inline stacks name.
 *
 * Selecting an IR line (of a stage in the binding view, or of a side of a
 * pass diff) highlights in the source pane every line that a frame of its
 * stacks names in the file the pane shows; when they name none there, the
 * pane shows instead the file of the outermost frame that is at hand (the
 * user's kernel file, usually).  The other way round, a selected source line
 * finds the diff lines whose stacks pass through it.  Both views ask here, so
 * that the rule is written once.
 *
 * Nothing here is GTK's: both questions belong in libtkdump as calls on a
 * tk_loctab (tk_loctab.h): "the lines of FILE that these stacks name" and "do
 * these stacks pass through FILE:LINE"; they are here until it has them.
 */
#ifndef TKV_STACK_LINES_H
#define TKV_STACK_LINES_H

#include <glib.h>

#include "document/tkv_document.h"

G_BEGIN_DECLS

/* The lines (guint32, ascending, no repeats) that frames of the stacks IDS
 * (N of them) name in the file to show, and in *FILE that file: SHOWN when
 * they name lines of it, else the file of the outermost frame whose text DOC
 * has at hand (the first stack that has one decides), else SHOWN with no
 * lines.  The caller shows *FILE when it is not SHOWN.  Caller frees the array
 * with g_array_unref(). */
GArray *tkv_stack_lines_to_show(TkvDocument *doc, const tk_stack_id *ids, size_t n,
                                tk_file_id shown, tk_file_id *file);

/* Whether a frame of the stacks IDS (N of them) is FILE:LINE. */
gboolean tkv_stack_lines_name(TkvDocument *doc, const tk_stack_id *ids, size_t n,
                              tk_file_id file, guint line);

G_END_DECLS

#endif
