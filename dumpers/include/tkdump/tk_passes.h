/* tk_passes.h - pass dumps: where each one lies in a (possibly huge) file,
 * which pass printed it, and which compile of which kernel it belongs to.
 *
 * Two kinds of files hold pass dumps:
 *  - MLIR_ENABLE_DUMP output (an MLIR_DUMP_PATH file, or stderr): headers
 *    "// -----// IR Dump Before Pass (arg) ('op' operation: @sym) //----- //"
 *    followed by the whole module;
 *  - a stderr with LLVM's print-after-all output: "; *** IR Dump After P on F
 *    ***" (new pass manager), "*** IR Dump After Description (arg) ***"
 *    (legacy codegen IR passes), "# *** IR Dump After ... ***:" (machine
 *    code, MIR), -print-changed banners, Triton's "// -----// SoftwarePipeliner
 *    internal IR Dump After: Stage" dumps, and anything else the program wrote
 *    (warnings, tracebacks, "Running pass:" lines), kept aside as "other".
 * docs/passes.md lists every header form and the attribution rules.
 *
 * Indexing reads the file once, front to back, a bounded window at a time:
 * a 2 GB file costs the window plus the index entries, never the file.  The
 * dumps' text stays on disk; tk_passes_read() fetches one body on demand,
 * tk_passes_read_at() any piece.  A gzip file is read as its text, in
 * place: indexing records restart points (about 32 KB per 4 MB of text) so
 * that a piece at any offset costs at most 4 MB of inflating; offsets and
 * sizes are those of the text (docs/bundle.md).
 *
 * Dumps are grouped into sequences, one per compile of one kernel: several
 * kernels interleave in one file, and one kernel compiled for several
 * configurations (autotuning) gives one sequence per compile.  The grouping
 * looks at the content (the kernel a dump defines, the IR level it is at),
 * never at the position alone.  tk_passes_find_seq() picks the sequence of
 * a kernel by comparing what is known of it (a tk_pass_key: its name,
 * num_warps and the digests of its final stages, which tk_kernel_pass_key()
 * of tk_bundle.h fills in) with the dumps.
 *
 * Ownership: a tk_passes owns its entries and every string they point to;
 * freeing it frees all of them.  It keeps the file open for reads until freed.
 */
#ifndef TKDUMP_TK_PASSES_H
#define TKDUMP_TK_PASSES_H

#include <stddef.h>
#include <stdint.h>

#include "tk_diags.h"
#include "tk_export.h"
#include "tk_stage.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- finding pass dumps by content ------------------------------------ */

typedef enum {
    TK_PASSES_FILE_NONE,  /* no pass dump header: not a pass dump file */
    TK_PASSES_FILE_MLIR,  /* MLIR pass manager dumps only (MLIR_DUMP_PATH) */
    TK_PASSES_FILE_LLVM,  /* LLVM dumps and/or Triton's internal MLIR dumps:
                             a captured stderr */
    TK_PASSES_FILE_MIXED  /* both: MLIR_ENABLE_DUMP went to stderr too */
} tk_passes_file_kind;

/* How much of a file the sniffers look at. */
#define TK_PASSES_SNIFF_BYTES ((size_t)256 * 1024)

/* Tells from the first LEN bytes of a file (at most TK_PASSES_SNIFF_BYTES are
 * looked at) whether it holds pass dumps: a line starting with a header this
 * module parses.  Binary data (a NUL byte) is never a pass dump file. */
TK_API
tk_passes_file_kind tk_passes_sniff(const char *data, size_t len);

/* The same on the first TK_PASSES_SNIFF_BYTES of the file at PATH;
 * TK_PASSES_FILE_NONE when it cannot be read. */
TK_API
tk_passes_file_kind tk_passes_sniff_file(const char *path);

/* "none", "mlir", "llvm", "mixed". */
TK_API
const char *tk_passes_file_kind_name(tk_passes_file_kind kind);

/* ---- one dump ---------------------------------------------------------- */

typedef enum {
    TK_PASS_MLIR,          /* MLIR pass manager: "// -----// IR Dump ..." */
    TK_PASS_MLIR_INTERNAL, /* a pass's own dump: "// -----// SoftwarePipeliner
                              internal IR Dump After: LowerLoops" */
    TK_PASS_LLVM_IR,       /* new pass manager: "; *** IR Dump After P on F
                              ***", and the -print-changed forms */
    TK_PASS_LLVM_LEGACY,   /* legacy pass manager (codegen IR passes):
                              "*** IR Dump After Description (arg) ***" */
    TK_PASS_LLVM_MACHINE   /* machine code: "# *** IR Dump After ... ***:" */
} tk_pass_kind;

typedef enum {
    TK_PASS_BEFORE,       /* the IR before the pass ran */
    TK_PASS_AFTER,        /* the IR after it ran */
    TK_PASS_AFTER_FAILED, /* MLIR: "IR Dump After P Failed" */
    TK_PASS_AT_START,     /* -print-changed: "*** IR Dump At Start ***" */
    TK_PASS_LABEL         /* MLIR's print-ir pass: "// -----// IR Dump LABEL
                             //----- //"; the label is the pass name */
} tk_pass_when;

/* Whether a body follows the header.  -print-changed prints banners with no
 * body for passes that changed nothing. */
typedef enum {
    TK_PASS_PRINTED,     /* a body follows (it may still be empty: see
                            TK_PASS_EMPTY) */
    TK_PASS_NO_CHANGE,   /* "... omitted because no change ***" */
    TK_PASS_FILTERED,    /* "... filtered out ***" */
    TK_PASS_IGNORED,     /* "*** IR Pass P on F ignored ***" */
    TK_PASS_INVALIDATED, /* "*** IR Pass P invalidated ***" */
    TK_PASS_DELETED,     /* "*** IR Deleted After P on F ***" */
    TK_PASS_NO_FUNCTION  /* a legacy call graph pass on the call graph's
                            external node: "Printing <null> Function"
                            (the line after the header, before
                            body_offset) instead of a body: nothing to
                            change */
} tk_pass_status;

typedef enum {
    TK_PASS_SCOPE_NONE,      /* the header names no IR unit */
    TK_PASS_SCOPE_MODULE,    /* "('builtin.module' operation)", "[module]",
                                a legacy module pass */
    TK_PASS_SCOPE_OPERATION, /* "('tt.func' operation: @add_kernel)" */
    TK_PASS_SCOPE_FUNCTION,  /* "on add_kernel", a machine function */
    TK_PASS_SCOPE_CGSCC,     /* "on (add_kernel)" */
    TK_PASS_SCOPE_LOOP       /* "on loop %x in function add_kernel"; a
                                legacy dump whose body is a loop ("; Preheader:"),
                                which names neither loop nor function */
} tk_pass_scope_kind;

/* How far down the pipeline the IR of a dump is, read from its content.
 * Within one compile the level never goes down; a dump of a kernel at a
 * lower level than the last one seen for it starts a new compile. */
typedef enum {
    TK_PASS_LEVEL_UNKNOWN = 0,  /* no body, or nothing recognizable in it */
    TK_PASS_LEVEL_TTIR = 1,     /* MLIR with no "ttg." module attributes */
    TK_PASS_LEVEL_TTGIR = 2,    /* MLIR whose module has "ttg." attributes */
    TK_PASS_LEVEL_LLVM_MLIR = 3,/* MLIR defining llvm.func (LLVM dialect) */
    TK_PASS_LEVEL_LLVM_IR = 4,  /* LLVM IR, new pass manager */
    TK_PASS_LEVEL_CODEGEN = 5,  /* LLVM IR, legacy codegen passes */
    TK_PASS_LEVEL_MACHINE = 6   /* machine code */
} tk_pass_level;

/* "ttir", "ttgir", "llvm-dialect", "llvm-ir", "codegen-ir", "machine", or
 * "unknown". */
TK_API
const char *tk_pass_level_name(tk_pass_level level);

/* Problems of one dump (bits of tk_pass_dump.flags); each comes with a
 * warning in the diagnostics naming the file and line. */
#define TK_PASS_CUT         (1u << 0) /* the body ends inside a module or
                                         function: the file was cut, or the
                                         next header came too early */
#define TK_PASS_EMPTY       (1u << 1) /* a header that needs a body has none */
#define TK_PASS_INTERLEAVED (1u << 2) /* lines of another dump are mixed in
                                         (two processes writing at once) */
#define TK_PASS_BINARY      (1u << 3) /* the body was ended by binary data */
#define TK_PASS_BAD_HEADER  (1u << 4) /* the header is cut or malformed; what
                                         could be read of it is kept */

/* Content identity of a text: one hash of its non-blank lines as they are,
 * one with the debug locations left out (MLIR "#loc" lines and "loc(...)",
 * LLVM "!N = " metadata lines and ", !dbg !N"). */
typedef struct {
    uint64_t exact;
    uint64_t noloc;
} tk_pass_digest;

typedef struct {
    /* Where it is.  The body runs from body_offset for body_len bytes
     * (trailing blank lines left out); its first line is header_line + 1. */
    uint64_t header_offset;
    uint64_t header_line; /* 1-based */
    uint64_t body_offset;
    uint64_t body_len;
    uint64_t body_lines;

    tk_pass_kind kind;
    tk_pass_when when;
    tk_pass_status status;
    tk_pass_scope_kind scope_kind;
    tk_pass_level level;
    unsigned flags; /* TK_PASS_CUT, ... */

    /* From the header; never NULL, "" when absent. */
    const char *pass;       /* "Canonicalizer", "InstCombinePass", "Global
                               Value Numbering", "SoftwarePipeliner" */
    const char *arg;        /* "canonicalize", "canonicalize{...}", "gvn",
                               "LowerLoops" */
    const char *scope;      /* as printed: "('tt.func' operation: @f)",
                               "[module]", "(f)", "f" */
    const char *scope_name; /* the symbol or function the scope names: "f" */

    /* From the body, for attribution; never NULL, "" when absent. */
    const char *kernel;       /* the kernel it defines: "tt.func public @k",
                                 "llvm.func @k ... nvvm.kernel", "define
                                 ptx_kernel ... @k(" */
    const char *module_attrs; /* MLIR: inside "module attributes {...}" */
    const char *const *functions; /* every function it defines, in order
                                     (MLIR tt.func/llvm.func/func.func, LLVM
                                     define, MIR "Machine code for function") */
    size_t n_functions;
    tk_pass_digest digest; /* of the body */

    size_t seq; /* the sequence it was attributed to */
} tk_pass_dump;

/* Text outside any dump (warnings, tracebacks, "Running pass:" lines, program
 * output), blank lines at its ends left out. */
typedef struct {
    uint64_t offset;
    uint64_t len;
    uint64_t line;    /* 1-based line of its first byte */
    uint64_t n_lines;
} tk_pass_range;

/* ---- the index ---------------------------------------------------------- */

typedef struct tk_passes tk_passes;

/* Indexes the pass dumps in the file at PATH in one pass over it.  Returns
 * NULL, with an error in DIAGS, only when the file cannot be opened or read;
 * otherwise an index of every dump that could be read, with a warning naming
 * the file and line for each damaged dump, each run of binary data and each
 * run of IR text found outside any dump.  A file with no dump at all gives an
 * empty index and a note.  Free with tk_passes_free(). */
TK_API
tk_passes *tk_passes_index(const char *path, tk_diags *diags);
TK_API
void tk_passes_free(tk_passes *passes);

/* Indexing charges the load's budget (tk_input_file.h: lines, dumps, text
 * read).  Gives back to the calling thread's budget what indexing PASSES
 * charged, for a file about to be indexed again for the same load. */
TK_API
void tk_passes_refund_budget(tk_passes *passes);

/* The path as given; owned by the index. */
TK_API
const char *tk_passes_path(const tk_passes *passes);
/* Size of the file when it was indexed, and its number of lines. */
TK_API
uint64_t tk_passes_file_size(const tk_passes *passes);
TK_API
uint64_t tk_passes_line_count(const tk_passes *passes);

TK_API
size_t tk_passes_count(const tk_passes *passes);

/* What the file holds, from every dump indexed in it (tk_passes_sniff()
 * looks at the head only): TK_PASSES_FILE_MLIR, _LLVM (Triton's internal
 * MLIR dumps count as LLVM: they come in the same stderr), _MIXED, or
 * TK_PASSES_FILE_NONE for a file with no dump. */
TK_API
tk_passes_file_kind tk_passes_content_kind(const tk_passes *passes);
/* Dump I, in file order; NULL when out of range.  Owned by the index. */
TK_API
const tk_pass_dump *tk_passes_get(const tk_passes *passes, size_t i);

TK_API
size_t tk_passes_other_count(const tk_passes *passes);
TK_API
const tk_pass_range *tk_passes_other(const tk_passes *passes, size_t i);

/* Reads the body of dump I from the file.  Returns a NUL-terminated copy that
 * the caller frees with g_free(), *LEN (if not NULL) its length; NULL with an
 * error in DIAGS when it cannot be read or the file has shrunk since it was
 * indexed.  An empty body gives "". */
TK_API
char *tk_passes_read(const tk_passes *passes, size_t i, size_t *len,
                     tk_diags *diags);

/* The same into the caller's BUF of CAP bytes (not NUL-terminated), so that a
 * consumer can reuse two buffers for a whole pipeline.  Returns the body's
 * length; when it exceeds CAP nothing is read and the caller retries with a
 * larger buffer.  Returns -1 with an error in DIAGS when it cannot be read. */
TK_API
int64_t tk_passes_read_into(const tk_passes *passes, size_t i, char *buf,
                            size_t cap, tk_diags *diags);

/* An index read from a bundle's stored index (docs/bundle.md, "The stored
 * index of a slice") rather than from the text is checked a dump at a time
 * as bodies are read: tk_passes_read() and tk_passes_read_into() do it
 * themselves; a reader that reads a body by its offsets gives what it read
 * (BODY, LEN bytes: the body_len bytes at body_offset) to
 * tk_passes_check_body() first, or has tk_passes_check_dump() read it.
 * Returns 1 when dump I may be shown as the index says (always, for an index
 * made from the text); 0 when the stored index did not match the text: a
 * warning naming the file is in DIAGS and PASSES now holds the index made
 * from its text (its dumps and sequences may differ: ask again; pointers
 * taken before stay valid, but describe the stored index); -1 with an
 * error in DIAGS when the text could not be read. */
TK_API
int tk_passes_check_body(const tk_passes *passes, size_t i, const char *body, size_t len,
                         tk_diags *diags);
TK_API
int tk_passes_check_dump(const tk_passes *passes, size_t i, tk_diags *diags);
/* Whether PASSES was read from a stored index (and not replaced by the
 * index of its text since): its dumps are checked as they are read. */
TK_API
int tk_passes_is_stored(const tk_passes *passes);

/* Reads up to LEN bytes at OFFSET into the caller's BUF (fewer at the end
 * of the file as indexed): for reading a dump back a piece at a time.
 * Returns how many, or -1 with an error in DIAGS when the file cannot be
 * read (or has shrunk since it was indexed). */
TK_API
int64_t tk_passes_read_at(const tk_passes *passes, uint64_t offset, char *buf,
                          size_t len, tk_diags *diags);

/* Reads LEN bytes at OFFSET (an "other" range, a header line).  Caller frees
 * with g_free(); NULL with an error in DIAGS on failure. */
TK_API
char *tk_passes_read_range(const tk_passes *passes, uint64_t offset,
                           uint64_t len, tk_diags *diags);

/* ---- sequences: one per compile of one kernel --------------------------- */

typedef struct {
    const char *kernel;       /* "" when no dump named one */
    const size_t *dumps;      /* indices into the index, in file order */
    size_t n_dumps;
    const char *module_attrs; /* of its first TTGIR-level dump ("ttg.num-warps"
                                 and the like); "" when it has none */
    tk_pass_digest first;     /* digest of its first dump */
    tk_pass_level first_level;
    tk_pass_level last_level;
    /* 0 for a compile's own sequence.  N (2 or more) for one that
     * tk_passes_share() made: the dumps that N compiles have identical, in
     * the first one's place, shown for each of them. */
    size_t shared_by;
    /* With shared_by: how many dumps the first of those compiles has;
     * more than n_dumps when the compiles part later (an option that acts
     * only in LLVM's back end), and the rest is nobody's to show. */
    size_t full_dumps;
    /* With shared_by: the ttg.total-num-warps (a warp-specialized compile
     * counts its partitions' warps too) its dumps give, or -1. */
    int64_t total_warps;
} tk_pass_seq;

TK_API
size_t tk_passes_seq_count(const tk_passes *passes);
/* Sequence I, in the order of their first dumps; NULL when out of range. */
TK_API
const tk_pass_seq *tk_passes_seq(const tk_passes *passes, size_t i);

/* How many leading dumps sequences A and B have identical (their bodies'
 * exact digests equal, one by one); 0 when either is out of range. */
TK_API
size_t tk_passes_seq_common(const tk_passes *passes, size_t a, size_t b);

/* The dumps that the N sequences SEQS (2 or more) have in common, from the
 * first on, as a sequence of its own (shared_by = N), made once per set:
 * several compiles that the dumps cannot tell apart (the same kernel
 * compiled twice, or with options that act after LLVM IR) each show it.
 * Returns its index, or -1 when the sequences' first dumps already differ
 * or an index is out of range.  Pointers from tk_passes_seq() taken before
 * the call are no longer valid after it. */
TK_API
ptrdiff_t tk_passes_share(tk_passes *passes, const size_t *seqs, size_t n);

/* Digest of a text as the index computes it for a body, reading it as KIND
 * (TTIR and TTGIR as MLIR, LLIR as LLVM IR; others are hashed as they are). */
TK_API
void tk_pass_digest_text(tk_stage_kind kind, const char *data, size_t len,
                         tk_pass_digest *out);
/* The same for a stage's text. */
TK_API
void tk_pass_digest_stage(const tk_stage *stage, tk_pass_digest *out);

/* What a compile is recognized by: a kernel's name, its num_warps and the
 * digests of its final stages.  The index knows nothing of kernels; the
 * loader fills a key from one (tk_kernel_pass_key(), tk_bundle_passes.h). */
#define TK_PASS_KEY_STAGES 3 /* indexed by TK_STAGE_TTIR, _TTGIR, _LLIR */
typedef struct {
    const char *name;   /* the kernel's name; borrowed */
    int64_t num_warps;  /* -1 when unknown */
    int have[TK_PASS_KEY_STAGES];             /* whether stage[i] is known */
    tk_pass_digest stage[TK_PASS_KEY_STAGES]; /* tk_pass_digest_stage() */
} tk_pass_key;

/* How well sequence SEQ matches KEY: 0 when the names differ or the
 * sequence contradicts the key's num_warps (its "ttg.num-warps" is another,
 * and so is its "ttg.total-num-warps" when it has one);
 * otherwise 1, plus 8 for each of the key's TTIR, TTGIR and LLIR digests that
 * equals a dump of the sequence, or 4 when it equals one modulo
 * locations. */
TK_API
int tk_passes_seq_score(const tk_passes *passes, size_t seq,
                        const tk_pass_key *key);

/* The sequence of KEY: the best-scoring one, the first in file order among
 * equals (sequences tk_passes_share() made are not candidates).  Returns its index, or -1 when no sequence has the key's name.
 * *N_BEST (if not NULL) receives how many sequences share the best score: 2
 * or more means the dumps cannot tell those compiles apart (the same kernel
 * compiled twice with the same configuration). */
TK_API
ptrdiff_t tk_passes_find_seq(const tk_passes *passes, const tk_pass_key *key,
                             size_t *n_best);

#ifdef __cplusplus
}
#endif
#endif
