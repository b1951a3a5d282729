/* tkv_meta_panel.h - what the bundle says about the selected kernel: its
 * metadata (warps, stages, shared memory, registers, spills, target), each
 * stage's file with its line counts, and where the bundle came from. */
#ifndef TKV_META_PANEL_H
#define TKV_META_PANEL_H

#include <gtk/gtk.h>

#include "document/tkv_document.h"

G_BEGIN_DECLS

#define TKV_TYPE_META_PANEL (tkv_meta_panel_get_type())
G_DECLARE_FINAL_TYPE(TkvMetaPanel, tkv_meta_panel, TKV, META_PANEL, GtkWidget)

GtkWidget *tkv_meta_panel_new(void);

/* Shows kernel KERNEL of DOC; DOC NULL clears. */
void tkv_meta_panel_show(TkvMetaPanel *self, TkvDocument *doc, guint kernel);

/* The rows shown as "key: value" lines, for tests; caller frees. */
char *tkv_meta_panel_get_text(TkvMetaPanel *self);

G_END_DECLS

#endif
