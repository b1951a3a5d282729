/* ptx_files.h - the ".file N "path"" table of an assembly text that LLVM
 * printed: PTX, and AMDGCN's ".file N "dir" "name"" (internal, used by
 * ptx.c, amdgcn.c and ptx_loc.c).
 *
 * LLVM writes PTX's .file directives after the code, so the reader collects
 * them in a first pass.  Besides index -> path, the table answers "which file
 * is 'standard.py'?" for the inline chains in .loc comments, which name files
 * by the DIFile's file name only, not by index.
 */
#ifndef TKDUMP_READER_PTX_FILES_H
#define TKDUMP_READER_PTX_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "tkdump/tk_loctab.h"

#define READ_PTX_NO_FILE ((tk_file_id)UINT32_MAX)

typedef struct read_ptx_files read_ptx_files;

/* An empty table interning paths into TAB.  Free with read_ptx_files_free(). */
read_ptx_files *read_ptx_files_new(tk_loctab *tab);
void read_ptx_files_free(read_ptx_files *f);

/* Reads the directive at P (just past ".file" and its blank) up to END:
 * 'N "path"' (PTX, optionally followed by ", timestamp, size") or
 * 'N "dir" "name"' (AMDGCN; the path is dir/name unless name is absolute).
 * Returns NULL when it was recorded (or repeats an entry), else why not, for
 * a warning. */
const char *read_ptx_files_add(read_ptx_files *f, const char *p, const char *end);

/* The file of index N, or READ_PTX_NO_FILE. */
tk_file_id read_ptx_files_get(const read_ptx_files *f, uint32_t index);

/* The file that NAME (LEN bytes, as a .loc comment writes it) denotes: the
 * one entry whose path is NAME or ends with "/NAME", found by base name.
 * READ_PTX_NO_FILE when none does or when several share that base name: a
 * guess could bind code to the wrong file. */
tk_file_id read_ptx_files_by_name(read_ptx_files *f, const char *name, size_t len);

/* Whether PATH is NAME (LEN bytes) or ends with "/NAME". */
int read_ptx_path_has_name(const char *path, const char *name, size_t len);

#endif
