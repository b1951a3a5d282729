/* put_queue.h - compressing and writing the report's data files on writer
 * threads of their own (put_queue.c: one, or one per four cores).
 *
 * gzip costs about as much as building the pass timeline whose diffs it
 * compresses; done on a writer thread, it overlaps that build instead of
 * following it.  With one writer files are written in the order they were
 * queued; each file's bytes do not depend on which writer made them.  At
 * most about 64 MiB of JSON wait at any time: a producer faster than the
 * writers waits for them.
 *
 * Ownership: the queue takes the JSON strings given to it; the outdir must
 * outlive the queue (html_put_queue_finish() before committing or aborting).
 * Several threads may push at the same time.
 */
#ifndef HTML_PUT_QUEUE_H
#define HTML_PUT_QUEUE_H

#include <glib.h>

#include "outdir.h"
#include "tkdump/tk_diags.h"

typedef struct html_put_queue html_put_queue;

html_put_queue *html_put_queue_new(html_outdir *out);

/* Queues JSON (taken) to be written as REL: `TK.putz("KEY", "BASE64");`
 * with the gzip-compressed JSON.  KEY is generator-made ASCII.  Returns 0,
 * or -1 when a file queued earlier could not be written (the rest is
 * pointless: the report fails). */
int html_put_queue_push(html_put_queue *q, const char *rel, const char *key,
                      GString *json);

/* Waits until every queued file is written, moves the writer's
 * diagnostics into DIAGS and frees Q.  Returns 0, or -1 when a file could
 * not be written.  NULL is fine (returns 0). */
int html_put_queue_finish(html_put_queue *q, tk_diags *diags);

#endif
