/* tkv_document.h - one loaded bundle as the viewer sees it.
 *
 * A document holds the library's bundle, the diagnostics of loading it, and
 * per kernel its binding index and the source files its locations name.
 * Everything is computed by libtkdump; the viewer never reads IR text itself.
 *
 * Loading runs on a worker thread (a GTask): tk_bundle_load(), then for each
 * kernel tk_bind_new() and tk_bundle_resolve_source() for every file it
 * names.  Those are the only calls that write into the bundle and its
 * location table, so once the task has finished the main thread only reads
 * them, and the worker never touches a widget.  Progress is published through
 * atomics that the window polls.
 *
 * Ownership: the document owns the bundle, the diagnostics, the indexes and
 * every array it returns; they live as long as the document.
 */
#ifndef TKV_DOCUMENT_H
#define TKV_DOCUMENT_H

#include <gio/gio.h>

#include "tkdump/tk_bind.h"
#include "tkdump/tk_bundle.h"
#include "tkdump/tk_compare.h"
#include "tkdump/tk_configs.h"
#include "tkdump/tk_cost.h"
#include "tkdump/tk_diags.h"
#include "tkdump/tk_statement.h"
#include "tkdump/tk_timeline.h"

G_BEGIN_DECLS

#define TKV_TYPE_DOCUMENT (tkv_document_get_type())
G_DECLARE_FINAL_TYPE(TkvDocument, tkv_document, TKV, DOCUMENT, GObject)

#define TKV_NO_FILE ((tk_file_id)UINT32_MAX)

/* A document for PATH (a folder or a file), not loaded yet.  SOURCE_DIRS
 * (NULL-terminated, may be NULL) are searched last for source files. */
TkvDocument *tkv_document_new(const char *path, const char *const *source_dirs);

/* Loads on a worker thread; CALLBACK runs on the calling thread's context. */
void tkv_document_load_async(TkvDocument *doc, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data);
/* TRUE when something was loaded.  FALSE with ERROR set when nothing could
 * be (the diagnostics then say why) or when cancelled. */
gboolean tkv_document_load_finish(TkvDocument *doc, GAsyncResult *result,
                                  GError **error);

/* Progress of a running load, safe to call from any thread: a fraction in
 * [0, 1], or a negative number while it cannot be known (reading files), and
 * what is being done ("Reading dumps", "Indexing kernel 3 of 16"; caller
 * frees). */
double tkv_document_get_progress(TkvDocument *doc, char **phase);

/* The path as given, and its canonical form (for "is this bundle already
 * open"). */
const char *tkv_document_get_path(TkvDocument *doc);
const char *tkv_document_get_canonical_path(TkvDocument *doc);

gboolean tkv_document_is_loaded(TkvDocument *doc);

/* NULL until loaded, and when nothing could be loaded. */
tk_bundle *tkv_document_get_bundle(TkvDocument *doc);
const tk_diags *tkv_document_get_diags(TkvDocument *doc);

/* Seconds the worker spent: reading (tk_bundle_load) and indexing. */
double tkv_document_get_load_seconds(TkvDocument *doc);
double tkv_document_get_index_seconds(TkvDocument *doc);

size_t tkv_document_get_kernel_count(TkvDocument *doc);
const tk_kernel *tkv_document_get_kernel(TkvDocument *doc, size_t i);
const tk_bind *tkv_document_get_index(TkvDocument *doc, size_t i);

/* What kernel I's lines cost (tk_cost.h), with the bundle's profile when
 * it has one; made on the first call (main thread only).  NULL when the
 * kernel has no SASS.  A profile that could not be used is left out and
 * tkv_document_get_cost_problem() says why (NULL: none). */
const tk_cost *tkv_document_get_cost(TkvDocument *doc, size_t i);
const char *tkv_document_get_cost_problem(TkvDocument *doc, size_t i);

/* The source files kernel I's locations name (in any stage, any frame): the
 * kernel's own file first (tk_kernel_main_source(), the one the HTML report
 * opens too), then the others by path.  *FILES is owned by the document. */
size_t tkv_document_get_files(TkvDocument *doc, size_t i,
                              const tk_file_id **files);

/* The file a user means by PATH among kernel I's files, by the library's
 * rule (tk_file_query_find(): the same path, else a suffix of it at a '/'
 * boundary, else the local file it resolves to).  TKV_NO_FILE when none or
 * more than one match. */
tk_file_id tkv_document_find_file(TkvDocument *doc, size_t i, const char *path);

/* The location path of FILE as the dumps name it. */
const char *tkv_document_get_file_path(TkvDocument *doc, tk_file_id file);

/* A local copy of FILE that can be read, or NULL when none was found. */
const char *tkv_document_get_source_path(TkvDocument *doc, tk_file_id file);

/* The text of FILE's local copy made safe for a text buffer (tkv_text.h),
 * read on first use and kept; NULL when there is no local copy or it cannot
 * be read.  Main thread only. */
const char *tkv_document_get_source_text(TkvDocument *doc, tk_file_id file,
                                         size_t *len);

/* Line LINE (1-based) of FILE's text, without its line end, or NULL.  *LEN
 * receives its length.  Main thread only. */
const char *tkv_document_get_source_line(TkvDocument *doc, tk_file_id file,
                                         uint32_t line, size_t *len);

/* The statement line LINE of FILE belongs to (tk_bundle_statement(); the
 * files were read while loading, so this only looks it up).  Main thread. */
tk_statement_status tkv_document_get_statement(TkvDocument *doc, tk_file_id file, guint line,
                                               tk_statement *out);

/* ---- passes ---------------------------------------------------------------- */

/* The pass timeline of kernel I (tk_timeline.h), built on a worker thread on
 * the first request: the first build also indexes the bundle's pass dump
 * files (hundreds of MB for a big capture), which is why the binding view
 * never waits for it.  Builds of one document run one at a time.  CALLBACK
 * runs on the calling thread's context. */
void tkv_document_timeline_async(TkvDocument *doc, size_t i, GCancellable *cancellable,
                                 GAsyncReadyCallback callback, gpointer user_data);
/* The timeline (owned by the document), or NULL: with ERROR set when the
 * build was cancelled, unset when the kernel has no pass dumps. */
const tk_timeline *tkv_document_timeline_finish(TkvDocument *doc, GAsyncResult *result,
                                                GError **error);
/* The timeline of kernel I if it was built; *BUILT (may be NULL) says
 * whether it was (the timeline is NULL when the kernel has none). */
const tk_timeline *tkv_document_get_timeline(TkvDocument *doc, size_t i, gboolean *built);
/* The diff of passes FROM..TO of TL (tk_timeline_diff()), or of sub-step SUB
 * of pass FROM when SUB is not TK_TL_NONE (tk_timeline_diff_substep()),
 * made on a worker thread (reading and normalizing two dumps of a big kernel
 * takes a fraction of a second), one at a time with timeline builds.  TL
 * must be one of this document's timelines.  PREPARE (may be NULL) is then
 * called on the same worker with the diff made, under the same lock, and
 * what it returns is handed back with the diff (freed with PREPARED_FREE
 * when it is not): what the caller would otherwise make from the diff in
 * the click that shows it; it must read the diff alone. */
typedef gpointer (*TkvDiffPrepare)(tk_ir_diff *d);
void tkv_document_diff_async(TkvDocument *doc, const tk_timeline *tl, size_t from, size_t sub,
                             size_t to, TkvDiffPrepare prepare, GDestroyNotify prepared_free,
                             GCancellable *cancellable, GAsyncReadyCallback callback,
                             gpointer user_data);
/* The diff (caller frees with tk_ir_diff_free()) and in *PREPARED (may be
 * NULL) what PREPARE made of it (caller frees with PREPARED_FREE), or NULL
 * with *WHY (caller frees; may be NULL) saying why there is none: the
 * library's first diagnostic, or "cancelled". */
tk_ir_diff *tkv_document_diff_finish(TkvDocument *doc, GAsyncResult *result, gpointer *prepared,
                                     char **why);

/* ---- comparing two kernels ---------------------------------------------------- */

/* Kernels A and B compared pass by pass (tk_compare_build()) on a worker
 * thread, one at a time with the timeline builds and diffs (it reads every
 * pass dump of both).  The comparison touches no location table there:
 * its configurations and per-line counts (tk_compare_config(),
 * tk_compare_lines()) are read on the main thread.  CALLBACK runs on the
 * calling thread's context. */
void tkv_document_compare_async(TkvDocument *doc, size_t a, size_t b,
                                GCancellable *cancellable, GAsyncReadyCallback callback,
                                gpointer user_data);
/* A comparison shared by the view and the diff jobs that read it: a
 * reference-counted box (g_rc_box_acquire() / tkv_compare_hold_release()),
 * the comparison freed with the last reference.  It borrows the document's
 * bundle. */
typedef struct {
    tk_compare *cmp;
} TkvCompareHold;
void tkv_compare_hold_release(TkvCompareHold *hold);

/* The comparison (a new reference), or NULL with ERROR set when
 * cancelled. */
TkvCompareHold *tkv_document_compare_finish(TkvDocument *doc, GAsyncResult *result,
                                            GError **error);
/* The two sides' IR at row ROW of HOLD's comparison
 * (tk_compare_diff_row()), made on a worker thread like
 * tkv_document_diff_async(); the job keeps a reference to HOLD. */
void tkv_document_compare_diff_async(TkvDocument *doc, TkvCompareHold *hold, size_t row,
                                     tk_timeline_point which, GCancellable *cancellable,
                                     GAsyncReadyCallback callback, gpointer user_data);
/* The diff (caller frees), or NULL with *WHY (caller frees) saying why. */
tk_ir_diff *tkv_document_compare_diff_finish(TkvDocument *doc, GAsyncResult *result,
                                             char **why);

/* ---- every compile side by side (configs mode) -------------------------------- */

/* The library's table of the document's compiles (tk_configs.h) with the
 * timings that came with the bundle (tk_bundle_autotune_timings()), shared by the view
 * and the job that fills it in: a reference-counted box
 * (g_rc_box_acquire() / tkv_configs_hold_release()), the table freed with
 * the last reference.  It borrows the document's bundle. */
typedef struct {
    tk_configs *configs;
} TkvConfigsHold;
void tkv_configs_hold_release(TkvConfigsHold *hold);

/* The table without the rows' first divergences (tk_configs_new()), made
 * here: main thread only (it writes the location table).  NULL when the
 * document is not loaded. */
TkvConfigsHold *tkv_document_configs_new(TkvDocument *doc);
/* Fills in every row's first divergence from the winner
 * (tk_configs_diverge()) on a worker thread, one row at a time with the
 * timeline builds and diffs; the job keeps a reference to HOLD.  Until it
 * has finished, the main thread reads every field of the rows but their
 * DIVERGE.  CALLBACK runs on the calling thread's context. */
void tkv_document_configs_diverge_async(TkvDocument *doc, TkvConfigsHold *hold,
                                        GCancellable *cancellable,
                                        GAsyncReadyCallback callback, gpointer user_data);
/* TRUE when every row was done; FALSE with ERROR set when cancelled. */
gboolean tkv_document_configs_diverge_finish(TkvDocument *doc, GAsyncResult *result,
                                             GError **error);

/* What indexing the pass files and building timelines reported, formatted
 * like tkv_document_format_diags(); caller frees.  Main thread, after a
 * timeline callback. */
char *tkv_document_format_pass_diags(TkvDocument *doc);

/* Every error and warning of the load as "file:line: severity: message"
 * lines; caller frees. */
char *tkv_document_format_diags(TkvDocument *doc, tk_diag_severity at_least);

G_END_DECLS

#endif
