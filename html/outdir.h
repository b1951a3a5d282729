/* outdir.h - the report folder: where it is built and how it replaces what
 * was there.
 *
 * The report is written into a new hidden folder beside OUTDIR
 * (".NAME.tkview-tmp-XXXXXX", tk_staged_dir.h) and renamed into place at the
 * end, so a failed run (or one interrupted, in a program that asked for
 * tk_staged_dir_clean_on_signal()) never leaves a half report at OUTDIR.  OUTDIR may be
 * missing, an empty folder, or an earlier tkview report (it holds the marker
 * file HTML_REPORT_MARKER); anything else is refused unless FORCE.  Every file
 * is created with a name the generator made (never one from a dump) relative
 * to the staging folder, with O_EXCL and O_NOFOLLOW: nothing in the input can
 * place a file outside OUTDIR.
 */
#ifndef HTML_OUTDIR_H
#define HTML_OUTDIR_H

#include <glib.h>

#include "tkdump/tk_diags.h"

#define HTML_REPORT_MARKER "tkview-report.json"

typedef struct html_outdir html_outdir;

/* Checks OUTDIR and creates the staging folder.  Returns NULL with an error
 * in DIAGS when OUTDIR is refused or the folder cannot be made. */
html_outdir *html_outdir_begin(const char *outdir, gboolean force, tk_diags *diags);

/* Creates the subfolder REL (generator-made, '/'-separated, no "..") in the
 * staging folder.  Returns 0 or -1 with an error in DIAGS. */
int html_outdir_mkdir(html_outdir *o, const char *rel, tk_diags *diags);

/* Writes LEN bytes as the new file REL.  Returns 0 or -1 (error in DIAGS).
 * Two threads may write files at the same time (each with its own DIAGS);
 * the folders must exist first. */
int html_outdir_write(html_outdir *o, const char *rel, const void *data, size_t len,
                    tk_diags *diags);

/* Bytes written so far (for the benchmark's report). */
guint64 html_outdir_bytes(const html_outdir *o);

/* Renames the staging folder to OUTDIR (an earlier report or a forced
 * folder is moved aside first and removed after).  Frees O.  Returns 0, or
 * -1 with an error in DIAGS, the staging folder removed. */
int html_outdir_commit(html_outdir *o, tk_diags *diags);

/* Removes the staging folder and frees O.  NULL is fine. */
void html_outdir_abort(html_outdir *o);

/* Whether REL is a name the generator may use: ASCII letters, digits, '-',
 * '_', '.', '/' between parts, no empty part, no part starting with '.'. */
gboolean html_outdir_name_ok(const char *rel);

#endif
