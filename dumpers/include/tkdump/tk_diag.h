/* tk_diag.h - what the compiler said about a kernel: MLIR remarks, warnings
 * and errors, LLVM's, ptxas's log and its warnings and fatals, and Triton's
 * front-end CompilationError, each tied to its kernel, its source line
 * (with the inline stack), its IR line and its pass.
 *
 * Not to be confused with tk_diags.h, which is what tkview's own readers
 * could not read: these are the compiler's messages, read as data.  The
 * object is the set (tk_diag_set); one message is a tk_diag_entry.
 *
 * Where they come from: the program's two text streams.
 *   stderr  MLIR diagnostics (MLIR_ENABLE_DIAGNOSTICS=warnings,remarks):
 *           "PATH:L:C: remark|warning|error: MESSAGE", the source line and
 *           a caret under it, "PATH:L:C: note: ..." lines that belong to
 *           the message before; "Pipeline failed while executing [`PASS`
 *           on ...]" names the pass that failed; Python tracebacks, whose
 *           last line is the exception (a CompilationError "at L:C:" counts
 *           L from the kernel's `def` line and C from 0);
 *   stdout  ptxas's log (TRITON_DUMP_PTXAS_LOG=1), one block per ptxas run:
 *           "ptxas info : (C7511) ...", "Compiling entry function 'K'",
 *           the stack/spill line, "Used N registers, used B barriers,
 *           ..., cmem[...]"; and Triton's "`ptxas` stderr:" with the
 *           "ptxas fatal : (C7602) ... at line L in function K" of a failed
 *           run (also inside the PTXASError message on stderr: one message
 *           read twice is listed once).
 *
 * How each is tied (never guessed; what the text does not show stays
 * unknown, NULL or 0):
 *   kernel  an MLIR message: the kernels whose TTIR (else any stage) has a
 *           line located at its source line; exactly one, else unknown.  A
 *           ptxas message: the function ptxas names; when several kernels
 *           share that name, the one whose cubin metadata has ptxas's
 *           register and spill counts (a summary), or the one without a
 *           cubin (a fatal); exactly one, else the name only, hash unknown.
 *           A front-end error: the `def` line of its snippet names the
 *           kernel; it has no IR, so it is a kernel of its own, failed,
 *           with no hash.
 *   line    MLIR: the PATH:L:C the message names; "called from" notes add
 *           the callers.  ptxas "at line L": line L of the kernel's PTX,
 *           located by the `.loc` that governs it (the PTX reader's stack,
 *           innermost frame first).  Front end: the snippet's `def` line
 *           found in the source file and checked line by line, plus L - 1;
 *           column C + 1 (1-based, like MLIR's).  Columns are 1-based, 0
 *           when unknown.
 *   stage   ptxas: "ptx" (the IR ptxas read); MLIR: the stage Triton was
 *           making (the traceback's make_ttir/make_ttgir/...), else the
 *           stage the known-message table gives; else none.
 *   ir_line ptxas: the PTX line it names.  MLIR: the first line of STAGE's
 *           file whose innermost frame is the message's PATH:L:C, when the
 *           kernel has that stage; else 0.
 *   pass    MLIR: the pass a "Pipeline failed while executing" note names,
 *           for the messages of that compile before it (since the previous
 *           traceback); else the pass the known-message table says emits
 *           that message (PASS_FROM says which); else NULL.
 *
 * A message printed twice in a row with the same location (Triton 3.6's
 * AccelerateMatmul remarks "MMA version 3 acceleration not applied" twice
 * in one run of the pass: mlir_passes.txt shows one AccelerateMatmul dump
 * per kernel) is one entry with COUNT 2.
 *
 * Ownership: a set owns its entries, kernels and strings; it keeps no
 * pointer into the bundle it was attached to except the tk_kernel pointers
 * of tk_diag_kernel (valid while that bundle lives).  Free with
 * tk_diag_set_free().
 */
#ifndef TKDUMP_TK_DIAG_H
#define TKDUMP_TK_DIAG_H

#include <stddef.h>
#include <stdint.h>

#include "tk_bundle.h"
#include "tk_diags.h"
#include "tk_export.h"
#include "tk_kernel.h"
#include "tk_stage.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TK_DIAG_ORIGIN_MLIR,
    TK_DIAG_ORIGIN_LLVM,
    TK_DIAG_ORIGIN_PTXAS,
    TK_DIAG_ORIGIN_FRONTEND
} tk_diag_origin;

/* "mlir", "llvm", "ptxas", "frontend". */
TK_API
const char *tk_diag_origin_name(tk_diag_origin origin);

/* ptxas's "info" lines with a C75xx code are performance warnings and are
 * WARNING; its "fatal" is ERROR; a summary with spills gives a WARNING. */
typedef enum {
    TK_DIAG_LEVEL_REMARK,
    TK_DIAG_LEVEL_WARNING,
    TK_DIAG_LEVEL_ERROR
} tk_diag_level;

/* "remark", "warning", "error". */
TK_API
const char *tk_diag_level_name(tk_diag_level level);

/* One frame of a message's source stack; FILE as the text or the IR names
 * it. */
typedef struct {
    const char *file;
    uint32_t line;
    uint32_t column; /* 1-based; 0 unknown */
} tk_diag_frame;

typedef struct {
    size_t kernel;            /* index for tk_diag_set_kernel(); SIZE_MAX:
                                 unknown */
    tk_diag_origin origin;
    tk_diag_level level;
    const char *code;         /* "C7602"; NULL when the text has none */
    const char *message;
    const char *const *notes; /* N_NOTES notes, in order */
    size_t n_notes;
    const tk_diag_frame *stack; /* innermost first; N_STACK may be 0 */
    size_t n_stack;
    int has_stage;            /* STAGE is meaningful */
    tk_stage_kind stage;
    uint32_t ir_line;         /* 1-based line of STAGE's file; 0 unknown */
    const char *pass;         /* NULL: unknown */
    const char *pass_from;    /* "stream" or "table"; NULL with PASS */
    unsigned count;           /* times printed on its stream (repeats merged) */
    const char *stream;       /* "stdout" or "stderr": where it was read */
    uint64_t stream_line;     /* its first line there */
} tk_diag_entry;

/* What ptxas's log says of one compiled function. */
typedef struct {
    int present;              /* 0: no summary was read */
    int64_t registers, barriers;
    int64_t stack_frame, spill_stores, spill_loads;
    int64_t cumulative_stack; /* -1 when not printed */
    int64_t gmem;             /* -1 when not printed */
    int64_t cmem[4];          /* cmem[0..3] bytes, -1 when not printed */
} tk_diag_ptxas_summary;

typedef struct {
    const char *name;         /* NULL: unknown */
    const char *hash;         /* NULL: unknown (a front-end failure, or
                                 several same-named kernels) */
    const tk_kernel *kernel;  /* the bundle's kernel; NULL when none */
    int failed;               /* an error was tied to it */
    tk_diag_ptxas_summary ptxas;
} tk_diag_kernel;

typedef struct tk_diag_set tk_diag_set;

/* Reads the diagnostics of a capture folder: FOLDER/stdout.txt and
 * FOLDER/stderr.txt (a raw capture), else FOLDER/capture/stdout.txt and
 * FOLDER/capture/stderr.txt (a tkview bundle: the program's stdout and the
 * lines of its stderr that were not dumps); either may be missing.  FOLDER
 * may also be one saved stream (a file: every form is looked for in it,
 * and FOLDER's own folder stands for the capture folder).  Ties them to BUNDLE's kernels (BUNDLE may be NULL: a
 * capture whose kernels never got IR).  Front-end errors' source files are
 * looked up through BUNDLE, else as FOLDER/src/BASENAME.  Streams are read
 * line by line (a line is cut at 64 KiB), never held whole.  Returns a set,
 * maybe empty; problems reading go to DIAGS.  Free with tk_diag_set_free().
 */
TK_API
tk_diag_set *tk_diag_set_load(const char *folder, tk_bundle *bundle,
                              tk_diags *diags);

/* The reading half of tk_diag_set_load(): FOLDER's streams read into SET,
 * not yet tied to kernels (then tk_diag_set_attach() once, whose NULL
 * SOURCE_DIR then means FOLDER's src/).  Needs no bundle, so it may run on
 * a worker while the bundle loads; touches nothing but SET and DIAGS.
 * Returns how many stream files it found. */
TK_API
size_t tk_diag_set_read_folder(tk_diag_set *set, const char *folder,
                               tk_diags *diags);

/* How many of the stream files tk_diag_set_load() found (0, 1 or 2). */
TK_API
size_t tk_diag_set_stream_count(const tk_diag_set *set);

/* An empty set; add streams with tk_diag_set_read(), then
 * tk_diag_set_attach() once. */
TK_API
tk_diag_set *tk_diag_set_new(void);
TK_API
void tk_diag_set_free(tk_diag_set *set);

/* Reads LEN bytes of a stream named NAME ("stdout" or "stderr": ptxas's log
 * is looked for in both, MLIR messages and tracebacks in both). */
TK_API
void tk_diag_set_read(tk_diag_set *set, const char *name, const char *data,
                      size_t len);

/* Ties the messages read to BUNDLE's kernels (may be NULL) as the header
 * says.  SOURCE_DIR (may be NULL: tk_diag_set_read_folder()'s, else none)
 * is where front-end errors' source files are looked for by base name when
 * BUNDLE cannot resolve them. */
TK_API
void tk_diag_set_attach(tk_diag_set *set, tk_bundle *bundle,
                        const char *source_dir, tk_diags *diags);

TK_API
size_t tk_diag_set_count(const tk_diag_set *set);
/* The I-th message, in the order read (stderr, then stdout). */
TK_API
const tk_diag_entry *tk_diag_set_entry(const tk_diag_set *set, size_t i);

/* The kernels messages were tied to, plus every kernel of the bundle, in
 * the bundle's order, then those not in the bundle. */
TK_API
size_t tk_diag_set_kernel_count(const tk_diag_set *set);
TK_API
const tk_diag_kernel *tk_diag_set_kernel(const tk_diag_set *set, size_t i);
/* The index of KERNEL, or SIZE_MAX. */
TK_API
size_t tk_diag_set_find_kernel(const tk_diag_set *set,
                               const tk_kernel *kernel);

/* Known messages in plain words (docs/diagnostics.md shows the same
 * table). */
typedef struct {
    const char *key;          /* "C7602", "spill", "mma-v3-not-applied" */
    const char *meaning;      /* what it means, in plain words */
    const char *try_this;     /* what to try */
    const char *pass;         /* the pass that emits it, or NULL */
    tk_stage_kind stage;      /* the stage it is about (with PASS) */
} tk_diag_known;

/* The known-message row for ENTRY, or NULL.  Owned by the library. */
TK_API
const tk_diag_known *tk_diag_entry_explain(const tk_diag_entry *entry);
TK_API
size_t tk_diag_known_count(void);
TK_API
const tk_diag_known *tk_diag_known_get(size_t i);

#ifdef __cplusplus
}
#endif

#endif
