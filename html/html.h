/* html.h - the static HTML report of a bundle (`tkview --html`).
 *
 * A folder that works from file:// with no server and no network:
 * index.html (the kernels and their metadata, an optional Markdown note),
 * one page per kernel (source and IR panes with click-to-bind, a second IR
 * pane binding stage to stage, inline stacks, layout explanations, pass
 * mode), a page per comparison of two compilations (autotune groups,
 * --compare), the report's own CSS and JS (compiled into the program), and
 * the data as small .js files loaded on demand.  docs/html.md describes it.
 *
 * Ownership: the caller keeps BUNDLE; nothing returned needs freeing.
 */
#ifndef HTML_H
#define HTML_H

#include <glib.h>

#include "tkdump/tk_bundle.h"
#include "tkdump/tk_diags.h"

typedef struct {
    const char *notes_path; /* --notes FILE.md, or NULL */
    gboolean force;         /* replace a non-empty folder that is not a report */
    gboolean no_passes;     /* leave pass mode out (faster on huge dumps) */
    /* Comparison pages (--compare K:K2): "K:K2" specs, K a kernel of the
     * report's bundle, K2 one of OTHER (or of the bundle when OTHER is
     * NULL); NULL-terminated, or NULL.  Autotune groups (kernels of one
     * name) get theirs without asking (data_compare.c). */
    const char *const *compare;
    tk_bundle *other;
} html_options;

typedef struct {
    double seconds;
    guint64 bytes;    /* written */
    guint files;
    size_t kernels;
} html_stats;

/* Writes the report of BUNDLE into OUTDIR (see outdir.h for what OUTDIR may
 * be).  Returns 0, or -1 with an error in DIAGS (OUTDIR then untouched).
 * Problems that leave the report usable (a source file not found, a pass
 * dump that could not be read) are notes and warnings in DIAGS.  STATS may be
 * NULL. */
int html_write(tk_bundle *bundle, const char *outdir,
                  const html_options *opts, html_stats *stats,
                  tk_diags *diags);

#endif
