/* internal.h - the pass dump index, shared by the files of passes/
 * (internal).
 *
 * Split by purpose: mlir.c (MLIR headers and module bodies),
 * llvm.c (LLVM headers, IR and MIR bodies, pass manager chatter),
 * digest.c (content hashes of bodies and stages), index.c (the
 * streaming pass over the file, on-demand reads), attrib.c (sequences
 * per compile, matching a kernel key), sniff.c (finding pass dump
 * files by content).
 */
#ifndef TKDUMP_PASSES_INTERNAL_H
#define TKDUMP_PASSES_INTERNAL_H

#include <glib.h>
#include <stdint.h>
#include <sys/types.h>
#include <string.h>

#include "tkdump/tk_input_file.h"
#include "tkdump/tk_passes.h"

/* A piece of a line; not NUL-terminated. */
typedef struct {
    const char *p;
    size_t n;
} passes_span;

/* A header line taken apart; spans point into the line. */
typedef struct {
    tk_pass_kind kind;
    tk_pass_when when;
    tk_pass_status status;
    tk_pass_scope_kind scope_kind;
    passes_span pass, arg, scope, scope_name;
    int bad; /* recognized by its start, but cut or malformed */
} passes_header;

/* Parses LEN bytes at S (one line, no line end) as a dump header of any
 * form.  Returns 1 and fills H, or 0 when the line is no header. */
int passes_parse_header(const char *s, size_t len, passes_header *h);
/* The forms of each family (called by the one above). */
int passes_mlir_header(const char *s, size_t len, passes_header *h);
int passes_llvm_header(const char *s, size_t len, passes_header *h);

/* What a body is made of so far, to tell where it ends and whether it is
 * whole.  Zeroed, with KIND set, at each header. */
typedef struct {
    tk_pass_kind kind;
    int open;        /* column-0 openers not closed yet (module, define) */
    int closed;      /* a top-level op was closed (MLIR) */
    int in_resource; /* inside an MLIR "{-# ... #-}" block */
    int mir;         /* 0 before "# Machine code", 1 inside, 2 after its end */
    int saw_module, saw_llvm_func, saw_ir;
    int saw_preheader; /* "; Preheader:": a loop printed on its own (what
                          legacy loop passes print) */
    int truncated;   /* the line given is only the start of a line longer
                        than the read window: its end is unknown, so a
                        definition is assumed to open a region */
    unsigned flags;  /* TK_PASS_INTERLEAVED, ... */
} passes_body_state;

/* What one body line says about attribution. */
typedef struct {
    passes_span function;  /* a function defined on this line */
    int kernel;        /* 1: marked as the kernel (tt.func public, nvvm.kernel,
                          ptx_kernel); 2: could be (externally visible, no
                          marker); 0: a helper */
    passes_span module_attrs;
} passes_body_facts;

/* Whether the line S (non-blank, not a header) belongs to a body of
 * ST->kind; updates ST and fills FACTS.  0 means the body has ended before
 * this line. */
int passes_mlir_body_line(passes_body_state *st, const char *s, size_t len,
                          passes_body_facts *facts);
int passes_llvm_body_line(passes_body_state *st, const char *s, size_t len,
                          passes_body_facts *facts);
int passes_mir_body_line(passes_body_state *st, const char *s, size_t len,
                         passes_body_facts *facts);

/* Whether the line is what the legacy CGSCC printer writes after its
 * header for the call graph's external node: "Printing <null> Function". */
int passes_llvm_no_function_line(const char *s, size_t len);

/* LLVM's pass manager chatter ("Running pass: ", "Invalidating analysis: ",
 * ...), indented or not: never part of a body. */
int passes_noise_line(const char *s, size_t len);

/* Whether a line outside any dump looks like IR: a sign that a dump was torn
 * apart (two processes writing at once). */
int passes_ir_like(const char *s, size_t len);
/* Whether an other line is a compiler message ("F:L:C: error: ..."): MLIR
 * prints the operation or module it is about after it, which is IR but
 * no dump. */
int passes_message_like(const char *s, size_t len);

/* ---- digests ------------------------------------------------------------ */

typedef struct {
    uint64_t h[2];  /* two lanes: even and odd words of the stream */
    uint64_t words; /* words mixed so far: the next one's lane */
    uint64_t total;
    uint64_t tail;
    unsigned n_tail;
} passes_hasher;

typedef enum { PASSES_DIGEST_RAW, PASSES_DIGEST_MLIR, PASSES_DIGEST_LLVM } passes_digest_lang;

/* Hashes a body line by line, with lines longer than the read window fed in
 * pieces: begin (the first piece, which decides what the line is), more
 * (the rest, hashed as it is), end. */
typedef struct {
    passes_digest_lang lang;
    passes_hasher noloc; /* the text without its locations */
    passes_hasher left;  /* what noloc left out, and where (digest.c) */
    int skip_exact, skip_noloc; /* the current line is left out */
} passes_digester;

void passes_digester_init(passes_digester *d, passes_digest_lang lang);
void passes_digester_begin(passes_digester *d, const char *s, size_t len);
void passes_digester_more(passes_digester *d, const char *s, size_t len);
void passes_digester_end(passes_digester *d);
void passes_digester_finish(passes_digester *d, tk_pass_digest *out);

/* ---- the index ------------------------------------------------------------ */

/* ---- a text made of pieces of a shared pool (refs.c) --------------------- */

#define PASSES_REFS_MAGIC "tkview-dump-refs 1\n"  /* pieces: gzip members */
#define PASSES_REFS_MAGIC2 "tkview-dump-refs 2\n" /* zstd frames, bases */
/* Text of one piece, at most (the writer cuts bodies at PASSES_REFS_PIECE). */
#define PASSES_REFS_PIECE (1 << 20)
#define PASSES_REFS_MAX_PIECE (4 << 20)

typedef struct passes_refs passes_refs;

/* A pool as it was when a refs file was opened (frame_cache.c). */
typedef struct {
    uint64_t dev, ino, size;
    int64_t mtime_ns;
} passes_pool_id;

/* frame_cache.c: the text of the pool's frame of IN_LEN bytes at IN,
 * decoded alone, copied to OUT if it was decoded before and holds LEN
 * bytes (1), else 0; and a frame's TEXT (LEN bytes) kept for the next
 * reader (small frames only, a bounded total). */
int passes_frame_cache_get(const passes_pool_id *pool, uint64_t in, uint64_t in_len,
                           uint64_t len, unsigned char *out);
void passes_frame_cache_put(const passes_pool_id *pool, uint64_t in, uint64_t in_len,
                            const unsigned char *text, uint64_t len);
/* Whether the file open as FD is a refs file (its first line). */
int passes_refs_is(int fd);
/* The pool the refs file PATH names (caller frees), or NULL with *WHY set
 * (caller frees): for the bundle's trust check, before it is opened. */
char *passes_refs_pool_path(const char *path, char **why);
/* Opens the refs file PATH and its pool.  NULL with *WHY set (caller
 * frees) when either is not what it must be (refs.c says what). */
passes_refs *passes_refs_open(const char *path, char **why);
void passes_refs_free(passes_refs *r); /* NULL: nothing */
uint64_t passes_refs_size(const passes_refs *r);
/* Why the last read failed ("line 7: ..."), or NULL; R's own. */
const char *passes_refs_why(const passes_refs *r);
/* Whether the refs file ends inside a line (cut short): its text is that
 * of the pieces before. */
int passes_refs_cut(const passes_refs *r);
/* Up to N bytes of text at OFF; -1 when a piece cannot be read. */
int64_t passes_refs_pread(passes_refs *r, uint64_t off, char *buf, size_t n);
/* Frees the piece of text it holds. */
void passes_refs_drop(passes_refs *r);

/* ---- gzip files read as their text (gz.c) -------------------------------- */

typedef struct passes_gz passes_gz;
/* A refs file's text read through the calls below, as a gzip file's is
 * (takes R). */
passes_gz *passes_gz_new_refs(passes_refs *r);

/* Reads the gzip file open as FD as its text: first once in order
 * (passes_gz_next(), recording restart points), then at any offset
 * (passes_gz_pread(), after passes_gz_done()).  NULL when zlib cannot
 * start. */
passes_gz *passes_gz_new(int fd);
void passes_gz_free(passes_gz *g);
/* The next up to N bytes of text: their count, 0 at the end (or where the
 * data is damaged: passes_gz_damage() says so), -1 on a read error. */
ssize_t passes_gz_next(passes_gz *g, char *buf, size_t n);
/* The pass in order made on a worker thread (gz_pipe.c): started before
 * the first passes_gz_next() (NULL when there is one processor or no
 * thread: read G directly then), read like passes_gz_next(), ended (the
 * worker joined, G free to use again) by passes_gz_pipe_end(). */
typedef struct passes_gz_pipe passes_gz_pipe;
passes_gz_pipe *passes_gz_pipe_start(passes_gz *g);
ssize_t passes_gz_pipe_read(passes_gz_pipe *p, char *buf, size_t n);
void passes_gz_pipe_end(passes_gz_pipe *p); /* NULL: nothing */
/* Ends the pass in order: the text's size is known. */
void passes_gz_done(passes_gz *g);
/* Whether the pass in order is still going (reads are passes_gz_next()). */
int passes_gz_in_order(const passes_gz *g);
uint64_t passes_gz_size(const passes_gz *g);
/* Why the pass in order stopped early (damaged or cut short), or NULL. */
const char *passes_gz_damage(const passes_gz *g);
/* Up to N bytes of text at OFF (fewer at its end); -1 on a read error.
 * Safe from two threads (one read at a time). */
int64_t passes_gz_pread(passes_gz *g, uint64_t off, char *buf, size_t n);

struct tk_passes {
    char *path;
    int fd;
    passes_gz *gz;        /* a gzip file: its text is read through this */
    uint64_t file_size;   /* the file's own size (compressed, for a gzip) */
    uint64_t size;
    int64_t mtime;
    uint64_t n_lines;
    /* What indexing charged to the load's budget (tk_input_file.h), given
     * back by tk_passes_refund_budget() when the same file is indexed again. */
    uint64_t charged[TK_INPUT_BUDGET_COUNT];
    GArray *dumps;        /* tk_pass_dump */
    GArray *func_first;   /* guint per dump: its first entry in funcs */
    GPtrArray *funcs;     /* interned function names of all dumps */
    GArray *others;       /* tk_pass_range */
    GStringChunk *strings;
    GHashTable *interned; /* string in STRINGS -> itself */
    GString *scratch;     /* NUL-terminated copy for lookups while indexing */
    GArray *seqs;         /* tk_pass_seq */
    size_t *seq_dumps;    /* the dump lists of all sequences */
    int stored;           /* read from a stored index (stored.c), not from
                             the text: each body is checked when read */
    GMutex check_lock;    /* guards BODY_OK, set by readers on any thread */
    guint8 *body_ok;      /* per dump: its body was checked (stored only) */
    tk_passes *retired;   /* the stored index's arrays, once the text was
                             indexed instead (freed with this one) */
};

/* The number written in base BASE (10 or 16, lower or upper case) by the
 * digits at P, when there are at most as many as cannot overflow (19, 16):
 * how many were read, its value in *V.  0 where P starts with no digit or
 * with too many: the caller asks strtoull(), which gives the same value
 * where this one gives one (the readers of stored numbers call this for
 * speed: their strtoull() was a tenth of `tkview info`, issue 25). */
static inline size_t passes_digits_u64(const char *p, int base, uint64_t *v)
{
    uint64_t x = 0;
    size_t n = 0;
    for (;; n++) {
        unsigned c = (unsigned char)p[n], d;
        if (c - '0' < 10)
            d = c - '0';
        else if (base == 16 && (c | 0x20) - 'a' < 6)
            d = (c | 0x20) - 'a' + 10;
        else
            break;
        if (n == (base == 16 ? 16 : 19))
            return 0;
        x = x * (unsigned)base + d;
    }
    *v = x;
    return n;
}

/* A copy of N bytes at S owned by the index; equal strings share one copy. */
const char *passes_intern(tk_passes *p, const char *s, size_t n);
/* The same for the NUL-terminated S, with no copy to look it up. */
const char *passes_intern_str(tk_passes *p, const char *s);

/* Indexes with a read window of WINDOW bytes (tests use small ones to
 * exercise lines longer than the window). */
tk_passes *passes_index_window(const char *path, size_t window,
                               tk_diags *diags);

/* The same, in one scan whatever the file's size (a big file is otherwise
 * indexed in two halves on two threads): the reference tests check the
 * split against. */
tk_passes *passes_index_one_scan(const char *path, tk_diags *diags);

/* Makes the index name PATH (tk_passes_path(), its diagnostics) instead of
 * the file it read: the loader indexes the decompressed copy of a .gz pass
 * file under a temporary name (passfiles/passfiles.c). */
void passes_set_path(tk_passes *p, const char *path);

/* ---- a stored index (stored.c) ------------------------------------------- */

#define PASSES_STORED_MAGIC "tkview-pass-index 1\n"

/* Writing one: OUT emptied, then one line per dump D of the slice, which
 * lies there at HEADER_OFFSET (line HEADER_LINE), its body at BODY_OFFSET;
 * then the whole file's text (caller frees), for a slice of N_DUMPS dumps,
 * TEXT_SIZE bytes and N_LINES lines whose refs file has REFS_SIZE bytes. */
void passes_stored_begin(GString *out);
void passes_stored_dump(GString *out, const tk_pass_dump *d, uint64_t header_offset,
                        uint64_t header_line, uint64_t body_offset);
char *passes_stored_finish(const GString *dumps, size_t n_dumps, uint64_t text_size,
                           uint64_t n_lines, uint64_t refs_size);
/* The index of the refs file PATH read from INDEX_PATH, checked against
 * the slice (stored.c says how), its sequences made, the warnings indexing
 * the text gives about its dumps (cut, empty...) added to DIAGS; NULL with *WHY set
 * (caller frees) when it is refused: then the text must be indexed. */
tk_passes *passes_stored_open(const char *path, const char *index_path, tk_diags *diags,
                              char **why);
/* Whether dump I's body, BODY (LEN bytes, read by its offsets), is what a
 * stored index says (stored_check.c): 1, or 0 with *WHY set (caller frees).
 * An index read from the text: always 1. */
int passes_stored_check_body(const tk_passes *p, size_t i, const char *body, size_t len,
                             char **why);
/* P's stored index did not match its text (WHY): says so in DIAGS, naming
 * the file, and indexes the text into P instead (a slice: one compile).
 * Returns 0, or -1 when the text could not be indexed (P unchanged). */
int passes_stored_fallback(const tk_passes *p, const char *why, tk_diags *diags);

/* The warnings indexing gives about dump D of the file NAME, for the
 * flags in WHICH (TK_PASS_BAD_HEADER, _EMPTY, _CUT, _INTERLEAVED): said
 * by the indexer (index_builder.c) and again from a stored index. */
void passes_warn_dump(tk_diags *diags, const char *name, const tk_pass_dump *d,
                      unsigned which);

/* Groups the dumps into sequences and sets each dump's seq
 * (attrib.c). */
void passes_attribute(tk_passes *p);
/* Groups P's dumps again into one sequence: P holds one compile's only (a
 * capture's per-compile file), whatever levels and names its dumps show. */
void passes_attribute_one_compile(tk_passes *p);

static inline passes_span passes_span_of(const char *p, size_t n)
{
    passes_span s = {p, n};
    return s;
}

/* S without the spaces and tabs at its ends. */
static inline passes_span passes_span_trim(passes_span s)
{
    while (s.n > 0 && (s.p[0] == ' ' || s.p[0] == '\t')) {
        s.p++;
        s.n--;
    }
    while (s.n > 0 && (s.p[s.n - 1] == ' ' || s.p[s.n - 1] == '\t'))
        s.n--;
    return s;
}

static inline int passes_span_starts(passes_span s, const char *lit)
{
    size_t n = strlen(lit);
    return s.n >= n && memcmp(s.p, lit, n) == 0;
}

static inline int passes_span_ends(passes_span s, const char *lit)
{
    size_t n = strlen(lit);
    return s.n >= n && memcmp(s.p + s.n - n, lit, n) == 0;
}

/* The last occurrence of LIT in S, or NULL. */
static inline const char *passes_span_rfind(passes_span s, const char *lit)
{
    size_t n = strlen(lit);
    if (n == 0 || s.n < n)
        return NULL;
    for (size_t i = s.n - n + 1; i-- > 0;)
        if (s.p[i] == lit[0] && memcmp(s.p + i, lit, n) == 0)
            return s.p + i;
    return NULL;
}

/* The first occurrence of LIT in S, or NULL. */
static inline const char *passes_span_find(passes_span s, const char *lit)
{
    size_t n = strlen(lit);
    if (!s.p || n == 0 || s.n < n)
        return NULL;
    return memmem(s.p, s.n, lit, n);
}

static inline int passes_span_eq(passes_span a, const char *lit)
{
    size_t n = strlen(lit);
    /* an absent span (NULL, 0) equals "" */
    return a.n == n && (n == 0 || memcmp(a.p, lit, n) == 0);
}

/* The index P is complete: frees what building needed and points each
 * dump at its functions (index.c; the stored index too). */
void passes_index_seal(tk_passes *p);

#endif
