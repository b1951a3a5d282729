/* tkv_kernel_item.h - one kernel of a bundle as a row of the kernel list.
 *
 * The list model holds these; a GtkStringFilter matches the "search-text"
 * property (name and hash), so filtering hundreds of kernels costs the list
 * nothing but a string search per row.
 */
#ifndef TKV_KERNEL_ITEM_H
#define TKV_KERNEL_ITEM_H

#include <glib-object.h>

#include "tkdump/tk_bundle.h"

G_BEGIN_DECLS

#define TKV_TYPE_KERNEL_ITEM (tkv_kernel_item_get_type())
G_DECLARE_FINAL_TYPE(TkvKernelItem, tkv_kernel_item, TKV, KERNEL_ITEM, GObject)

/* An item for kernel INDEX of a bundle; copies what it shows. */
TkvKernelItem *tkv_kernel_item_new(guint index, const tk_kernel *kernel);

guint tkv_kernel_item_get_index(TkvKernelItem *item);
const char *tkv_kernel_item_get_name(TkvKernelItem *item);
const char *tkv_kernel_item_get_hash(TkvKernelItem *item);
/* "ttir ttgir llir ptx sass · 4 warps · 3 stages" */
const char *tkv_kernel_item_get_subtitle(TkvKernelItem *item);
/* The kernel's compile failed (tk_diag.h): the subtitle says so. */
void tkv_kernel_item_set_failed(TkvKernelItem *item);

G_END_DECLS

#endif
