/* store.h - a bundle's kernel files, each distinct content stored once and
 * compressed when that is smaller (format 4, docs/bundle.md "Kernel files
 * stored once"). */
#ifndef TKDUMP_WRITE_STORE_H
#define TKDUMP_WRITE_STORE_H

#include "tkdump/tk_input_file.h"

#include <glib.h>

/* What bundle_write_store_put() returns when FROM is refused before
 * anything is written: the input is at fault, not the bundle. */
#define BUNDLE_WRITE_REFUSED (-2)

typedef struct bundle_write_store bundle_write_store;

/* A store writing into the bundle folder ROOT (being built).  Caller frees
 * with bundle_write_store_free(). */
bundle_write_store *bundle_write_store_new(const char *root);

void bundle_write_store_free(bundle_write_store *store);

/* Puts the file FROM (read as a file of KIND through tk_input_file_read(),
 * so a FROM.zst is its text) into the bundle as *REL (relative to the
 * bundle).  When a file already put holds the same bytes under the same
 * extension, nothing is written and *REL becomes that file's path;
 * otherwise the file is written as *REL, or as *REL.zst (one zstd frame with
 * its content size and checksum, level 6) when that is smaller, and *REL
 * says which.  Returns 0, BUNDLE_WRITE_REFUSED when FROM cannot be read as
 * such a file (*ERR: why, without the path), or -1 when the write failed
 * (*ERR: what, with the path); caller frees *ERR. */
int bundle_write_store_put(bundle_write_store *store, const char *from,
                           char **rel, tk_input_file_kind kind, char **err);

#endif
