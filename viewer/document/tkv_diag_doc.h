/* tkv_diag_doc.h - what the compiler said about a kernel (libtkdump's
 * tk_diag.h), as the viewer looks it up: the messages, whether the compile
 * failed, and per source line and per IR line the worst severity of the
 * messages about it.
 *
 * Every answer is the library's: a message's kernel, its stack, its stage
 * and IR line, its pass and the known-message explanation come from
 * tk_diag_set_load() on the document's folder (its stdout.txt and
 * stderr.txt, or capture/ in a bundle), as for `tkview diagnostics` and the
 * report (html/data_diag.c; assets/diag.js marks the same lines: any frame
 * of a message's stack, and its stage's IR line).  Nothing here reads a
 * stream or decides a tie.
 *
 * Read once per document and kept with it (main thread only, but for the
 * worker tkv_diag_doc_load_async() starts).  The source files are matched by the paths the locations name, looked
 * up in the bundle's location table (never added to it).
 */
#ifndef TKV_DIAG_DOC_H
#define TKV_DIAG_DOC_H

#include <glib.h>

#include "document/tkv_document.h"
#include "tkdump/tk_diag.h"

G_BEGIN_DECLS

typedef struct TkvDiagKernel TkvDiagKernel;

/* Starts reading DOC's streams on a worker, once per document (a raw
 * folder's stderr may be hundreds of MB); the messages are tied to the
 * kernels on the main thread when read.  Returns the object that emits
 * "ready" (no arguments) then, owned by DOC, or NULL when DOC is not
 * loaded.  Until ready, tkv_diag_doc_kernel() answers NULL; when nobody
 * started it, the first tkv_diag_doc_kernel() reads them itself. */
gpointer tkv_diag_doc_load_async(TkvDocument *doc);
gboolean tkv_diag_doc_is_ready(TkvDocument *doc);

/* Kernel KERNEL's messages, or NULL when the compiler said nothing about
 * it (or the folder has no streams).  Owned by DOC. */
const TkvDiagKernel *tkv_diag_doc_kernel(TkvDocument *doc, guint kernel);

/* Whether an error was tied to the kernel (its compile failed). */
gboolean tkv_diag_kernel_failed(const TkvDiagKernel *k);
/* Its messages, in the order read. */
guint tkv_diag_kernel_count(const TkvDiagKernel *k);
const tk_diag_entry *tkv_diag_kernel_entry(const TkvDiagKernel *k, guint i);
/* The file of entry I's innermost frame, TKV_NO_FILE when none. */
tk_file_id tkv_diag_kernel_entry_file(const TkvDiagKernel *k, guint i);

/* The worst severity (tk_diag_level) of the messages about source FILE:LINE
 * (any frame of their stacks) or STAGE:LINE; -1 when none. */
int tkv_diag_kernel_source_level(const TkvDiagKernel *k, tk_file_id file, guint line);
int tkv_diag_kernel_ir_level(const TkvDiagKernel *k, tk_stage_kind stage, guint line);
/* Those messages in words, one paragraph each (caller frees), or NULL. */
char *tkv_diag_kernel_source_text(const TkvDiagKernel *k, tk_file_id file, guint line);
char *tkv_diag_kernel_ir_text(const TkvDiagKernel *k, tk_stage_kind stage, guint line);

/* Entry E in words: "error (ptxas C7602): MESSAGE", its notes, "pass: P",
 * "what it means: ...", "what to try: ..." (the library's table), one per
 * line.  Caller frees. */
char *tkv_diag_entry_text(const tk_diag_entry *e);
/* Where E points: "file.py:28:18 [ttgir:46]", "no source line [ptx:630]". */
char *tkv_diag_entry_where(const tk_diag_entry *e);

G_END_DECLS

#endif
