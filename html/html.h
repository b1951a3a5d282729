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
 *
 * Built as a module (libtkview-html.so) that the program loads when it
 * writes a report (cli/cmd_html.c), so that libxml2 and cmark load only
 * then: HTML_API marks its interface, the two functions below, which the
 * program looks up by the names HTML_WRITE_SYMBOL and
 * HTML_VERSION_SYMBOL.
 */
#ifndef HTML_H
#define HTML_H

#include <glib.h>

#include "tkdump/tk_bundle.h"
#include "tkdump/tk_diags.h"

#define HTML_API __attribute__((visibility("default")))
#define HTML_MODULE_NAME "libtkview-html.so"
#define HTML_WRITE_SYMBOL "html_write"
#define HTML_VERSION_SYMBOL "html_module_version"

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
HTML_API
int html_write(tk_bundle *bundle, const char *outdir,
                  const html_options *opts, html_stats *stats,
                  tk_diags *diags);
typedef int (*html_write_fn)(tk_bundle *bundle, const char *outdir,
                             const html_options *opts, html_stats *stats,
                             tk_diags *diags);

/* The version of tkview the module was built with (TKVIEW_VERSION): the
 * program refuses a module of another version (module.c). */
HTML_API
const char *html_module_version(void);
typedef const char *(*html_module_version_fn)(void);

#endif
