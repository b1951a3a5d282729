/* tkv_pass_item.h - one entry of a kernel's pass timeline as a row of the
 * pass list: a pass, or a sub-step of one (SoftwarePipeliner's internal
 * dumps).  The "changed" property feeds the changed-only filter. */
#ifndef TKV_PASS_ITEM_H
#define TKV_PASS_ITEM_H

#include <glib-object.h>

#include "tkdump/tk_timeline.h"

G_BEGIN_DECLS

#define TKV_TYPE_PASS_ITEM (tkv_pass_item_get_type())
G_DECLARE_FINAL_TYPE(TkvPassItem, tkv_pass_item, TKV, PASS_ITEM, GObject)

/* Entry PASS (SUBSTEP TK_TL_NONE) or sub-step SUBSTEP of it, of TL; copies
 * what it shows. */
TkvPassItem *tkv_pass_item_new(const tk_timeline *tl, size_t pass, size_t substep);

size_t tkv_pass_item_get_pass(TkvPassItem *item);
size_t tkv_pass_item_get_substep(TkvPassItem *item);
/* "13" or "13.0": what pass-view.select-pass takes. */
const char *tkv_pass_item_get_spec(TkvPassItem *item);
/* "ConvertTritonToTritonGPU (convert-triton-to-tritongpu)" */
const char *tkv_pass_item_get_title(TkvPassItem *item);
/* "ttir · mlir_passes.txt:1106" */
const char *tkv_pass_item_get_subtitle(TkvPassItem *item);
/* "+21 −20", "unchanged", "unknown" */
const char *tkv_pass_item_get_effect_text(TkvPassItem *item);
tk_effect tkv_pass_item_get_effect(TkvPassItem *item);
gboolean tkv_pass_item_get_changed(TkvPassItem *item);

G_END_DECLS

#endif
