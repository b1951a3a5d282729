/* tk_input_file.h - opening a file that may come from a stranger.
 *
 * A bundle is mailed around, so everything tkview reads may have been made
 * by someone else: a manifest.json that is a FIFO (opening it would wait
 * forever for a writer), a NAME.json that is a symbolic link to /dev/zero
 * (reading it would fill the memory), a 2 GB sparse stage file.  Every
 * file the library, the report, the viewer and the capture read goes
 * through one of the two calls below, which
 *   - open with O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, so that
 *     opening never blocks and never takes a terminal;
 *   - check with fstat() that what was opened is a regular file: a FIFO, a
 *     character or block device, a socket or a folder is refused and named
 *     ("a FIFO (named pipe), not a regular file");
 *   - check the size against the limit of the file's kind before anything
 *     is allocated, and read at most that limit whatever the size said (a
 *     file still growing, a /proc file that calls itself empty).
 *
 * The limits are far above what real captures hold (the largest files of
 * the shared dumps and sample bundles: a 0.6 MB LLVM IR stage, a 40 KB
 * manifest, a 30 KB cubin); docs/bundle.md lists them.  Pass dump files
 * are streamed (tk_passes.h), never held whole, so their kind has no size
 * limit: only the regular-file check.
 *
 * Ownership: the caller owns what is returned (a descriptor to close(), a
 * buffer and a reason to g_free()).
 */
#ifndef TKDUMP_TK_INPUT_FILE_H
#define TKDUMP_TK_INPUT_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "tk_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a file is read as; each kind has its size limit. */
typedef enum {
    TK_INPUT_FILE_MANIFEST,  /* a bundle's manifest.json: 64 MiB */
    TK_INPUT_FILE_METADATA,  /* Triton's NAME.json: 16 MiB */
    TK_INPUT_FILE_CUBIN,     /* a kernel's cubin: 256 MiB */
    TK_INPUT_FILE_STAGE,     /* a final stage file (.ttir ... .sass): 1 GiB */
    TK_INPUT_FILE_SOURCE,    /* a source file a location names: 16 MiB */
    TK_INPUT_FILE_NOTES,     /* the report's --notes Markdown: 4 MiB */
    TK_INPUT_FILE_PROFILE,   /* a kernel's measured cost (profile.json): 256 MiB */
    TK_INPUT_FILE_NCU_EXPORT, /* an Nsight Compute CSV export, read a line at
                                 a time: 1 GiB */
    TK_INPUT_FILE_TIMINGS,   /* the autotuner's timings
                                (autotune_timings.json): 16 MiB */
    TK_INPUT_FILE_PASS_DUMP, /* a pass dump file, streamed: no limit */
    TK_INPUT_FILE_KIND_COUNT
} tk_input_file_kind;

/* ---- the budget of a whole load ---------------------------------------
 *
 * Limits per file do not bound a load: a 1 MB archive can name the same
 * gigabyte eight times, a 5 MB gzip can hold billions of lines.  Every
 * reader of the library also charges what it reads to a budget: the
 * calling thread's (tk_input_budget_use()), else the process's, which is
 * one command of the CLI.  The defaults are far above the largest real
 * captures (docs/bundle.md, "The budget of a load"). */
typedef enum {
    TK_INPUT_BUDGET_WHOLE_BYTES,  /* bytes of files read whole: 512 MiB */
    TK_INPUT_BUDGET_STREAM_BYTES, /* bytes of pass dumps streamed (their text,
                                     decompressed): 16 GiB */
    TK_INPUT_BUDGET_LINES,        /* lines indexed: 32 Mi */
    TK_INPUT_BUDGET_DUMPS,        /* pass dumps indexed: 256 Ki */
    TK_INPUT_BUDGET_KERNELS,      /* kernels loaded: 4096 */
    TK_INPUT_BUDGET_COUNT
} tk_input_budget_item;

typedef struct tk_input_budget tk_input_budget;

/* A budget with the default limits, nothing spent.  Caller frees with
 * tk_input_budget_free(). */
TK_API
tk_input_budget *tk_input_budget_new(void);

TK_API
void tk_input_budget_free(tk_input_budget *budget);

/* Sets the limit of ITEM (a test, a user who needs more). */
TK_API
void tk_input_budget_set_limit(tk_input_budget *budget,
                               tk_input_budget_item item, uint64_t limit);

/* Makes BUDGET the one the calling thread charges (NULL: the process's
 * own) and returns the one it charged before.  BUDGET must outlive its
 * use; a viewer window gives each load of its own one. */
TK_API
tk_input_budget *tk_input_budget_use(tk_input_budget *budget);

/* Charges N of ITEM to the calling thread's budget.  Returns 0, or -1 when
 * that goes over its limit (nothing is charged then), with *WHY (if not
 * NULL) set to "over the load's budget of 32 Mi lines indexed" (caller
 * frees). */
TK_API
int tk_input_budget_charge(tk_input_budget_item item, uint64_t n, char **why);

/* What is left of ITEM in the calling thread's budget. */
TK_API
uint64_t tk_input_budget_left(tk_input_budget_item item);

/* Gives N of ITEM back to the calling thread's budget (a file indexed a
 * second time for the same load is charged once). */
TK_API
void tk_input_budget_refund(tk_input_budget_item item, uint64_t n);

/* The most bytes a file of KIND may have (UINT64_MAX: no limit). */
TK_API
uint64_t tk_input_file_limit(tk_input_file_kind kind);

/* "manifest", "metadata file", "cubin", "stage file", "source file",
 * "note", "profile", "Nsight Compute export", "pass dump file": for
 * messages. */
TK_API
const char *tk_input_file_kind_name(tk_input_file_kind kind);

/* Opens PATH for reading as a file of KIND.  Returns a descriptor (caller
 * closes; opened O_NONBLOCK, which changes nothing for a regular file), with
 * *SIZE (if not NULL) set to the file's size.  Returns -1 when PATH cannot be
 * opened, is not a regular file, or is larger than KIND's limit, with *WHY
 * (if not NULL) set to a reason in words, without the path: "a FIFO (named
 * pipe), not a regular file", "2147483648 bytes, over the 1 GiB a stage file
 * may have" (caller frees). */
TK_API
int tk_input_file_open(const char *path, tk_input_file_kind kind,
                       uint64_t *size, char **why);

/* Reads the whole file PATH as a file of KIND: at most its limit, a larger
 * file refused before anything is allocated, a file growing past the limit
 * while read refused too.  Returns the bytes followed by a NUL (caller frees
 * with g_free()) with *LEN set to their number, or NULL with *WHY set as for
 * tk_input_file_open() (caller frees).  A PASS_DUMP file is not read whole:
 * NULL, "pass dump files are streamed".
 *
 * A PATH whose name ends in ".zst" (a format-4 bundle stores its kernel
 * files so, docs/bundle.md) is one zstd frame, and what is returned is its
 * text: the frame must declare its content size, that size must be within
 * KIND's limit and is what is charged to the load's budget (before anything
 * is allocated), and the frame must decode to exactly that size, checksum
 * included.  A frame that is not zstd, is cut, declares no size or a wrong
 * one, or would inflate past the limit is refused with *WHY saying which
 * ("inflates to 2147483648 bytes, over the 1 GiB a stage file may have"). */
TK_API
char *tk_input_file_read(const char *path, tk_input_file_kind kind,
                         size_t *len, char **why);

/* Whether tk_input_file_read() inflates PATH: its name ends in ".zst".
 * A program given the file itself (nvdisasm on a cubin) needs the plain
 * bytes written somewhere first. */
TK_API
int tk_input_file_is_zstd(const char *path);

#ifdef __cplusplus
}
#endif
#endif
