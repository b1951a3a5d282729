/* internal.h - what configs.c and timings.c share. */
#ifndef TKDUMP_CONFIGS_INTERNAL_H
#define TKDUMP_CONFIGS_INTERNAL_H

#include <glib.h>

#include "tkdump/tk_config.h"
#include "tkdump/tk_diags.h"

/* The timings file's "configs" entries, or NULL (no file, or one that
 * cannot be read: then a warning in DIAGS).  Free with
 * configs_timings_free(). */
typedef struct configs_timings configs_timings;
configs_timings *configs_timings_read(const char *path, tk_diags *diags);
void configs_timings_free(configs_timings *t);
/* The median ms of the one entry matching configuration C of kernel NAME;
 * 0 when none or several match. */
int configs_timings_of(const configs_timings *t, const tk_config *c, const char *name,
                       double *ms);
/* The fastest extern choice (Inductor's "extern": true, aten's mm)
 * benchmarked against the compiles of kernel NAME: one of the same "op"
 * as an entry of NAME.  Its name (caller frees) and *MS, or NULL. */
char *configs_timings_extern(const configs_timings *t, const char *name, double *ms);

#endif
