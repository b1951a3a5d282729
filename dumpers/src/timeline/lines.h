/* lines.h - texts held as line records, read back on demand (internal).
 *
 * A text the timeline compares is a dump body, functions cut out of dumps,
 * a module with functions replaced, or a final stage.  It is held as one
 * record per line: where its bytes are (a pass dump file and an offset, a
 * line of a stage, an offset in memory), its length, a hash of its bytes
 * and what kind of line it is.  Never its bytes: a 2 GB dump costs a few
 * words per line.  Bytes are read back when needed: streamed once to
 * normalize and to read locations, and one line at a time for what a
 * front end shows (through a small cache: neighbouring lines cost one
 * read).
 */
#ifndef TKDUMP_TIMELINE_LINES_H
#define TKDUMP_TIMELINE_LINES_H

#include <glib.h>
#include <stdint.h>

#include "read/linemap.h"
#include "read/lines.h"
#include "tkdump/tk_diags.h"
#include "tkdump/tk_normalize.h"
#include "tkdump/tk_timeline.h"

/* tl_line.src values besides a part index. */
#define TL_SRC_STAGE 0xfffeu /* OFF: the line's number in the text's stage */
#define TL_SRC_MEM 0xffffu   /* OFF: a byte offset in the text's memory */

/* tl_line.flags: what a line is, read from its first bytes. */
#define TL_LF_DEFINE (1u << 0)    /* "define ": LLVM IR opens a function */
#define TL_LF_MIR_OPEN (1u << 1)  /* "# Machine code for function " */
#define TL_LF_BRACE (1u << 2)     /* "}" alone: LLVM IR closes a function */
#define TL_LF_MIR_CLOSE (1u << 3) /* "# End machine code for function " */
#define TL_LF_META (1u << 4)      /* '!' first: LLVM debug metadata */
#define TL_LF_HASH (1u << 5)      /* '#' first: an MLIR attribute alias */
#define TL_LF_CUT (1u << 6)       /* longer than TL_LINE_MAX: only its
                                     first TL_LINE_MAX bytes are read,
                                     normalized and hashed */

/* The longest line read whole (a hostile 2 GB line is not). */
#define TL_LINE_MAX ((size_t)64 << 20)

typedef struct {
    uint64_t off;   /* see src */
    uint64_t hash;  /* tk_diff_hash() of its bytes (of its first
                       TL_LINE_MAX, mixed with its length, when cut) */
    uint32_t len;   /* bytes, without "\n" and a "\r" before it */
    uint16_t src;   /* a part index, TL_SRC_STAGE or TL_SRC_MEM */
    uint16_t flags; /* TL_LF_... */
} tl_line;

/* Dump bodies kept in memory once read (tl_stream_range()).  The lines of
 * a pass's two sides are read back several times after the first read
 * (normalized, bound to source lines, shown, split into words), and a
 * body of a few MB costs less held than read again (on a 150 MB capture
 * the report read 4.6x its bytes).  Bounded: a body of up to
 * TL_RESIDENT_BODY_MAX, TL_RESIDENT_MAX in all, the least recently used
 * dropped first; a bigger body (a 2 GB pass dump) is streamed as before.
 * A reader that hands out a line of a kept body holds a reference to it
 * (tl_reader.held), so dropping one never frees bytes still in use.
 * One per walker: not shared between threads. */
typedef struct tl_resident tl_resident;
#define TL_RESIDENT_BODY_MAX ((uint64_t)16 << 20)
#define TL_RESIDENT_MAX ((uint64_t)64 << 20)

tl_resident *tl_resident_new(void);
void tl_resident_free(tl_resident *c);

/* Where the lines of a text are. */
typedef struct {
    tl_resident *res;              /* bodies kept in memory; may be NULL */
    const tk_timeline_part *parts; /* src < n_parts: parts[src].passes */
    size_t n_parts;
    const tk_stage *stage;         /* TL_SRC_STAGE */
    const char *mem;               /* TL_SRC_MEM */
    size_t mem_len;
} tl_srcs;

/* A line's flags from its first N bytes at S. */
unsigned tl_line_flags(const char *s, size_t n);

/* Reads lines back, keeping the last block read (neighbouring lines cost
 * one read).  Zero-initialize; free with tl_reader_clear(). */
typedef struct {
    char *buf;
    size_t cap;
    GBytes *held; /* the kept body the last line came from, or NULL */
    int valid;
    uint16_t src;
    uint64_t off; /* BUF holds bytes [OFF, OFF + LEN) of SRC */
    size_t len;
} tl_reader;

void tl_reader_clear(tl_reader *r);

/* The bytes of line L, at most MAX of them (0: all its bytes read), valid
 * until the next call on R; *LEN how many.  NULL, with an error in DIAGS
 * (may be NULL), when they cannot be read. */
const char *tl_reader_line(tl_reader *r, const tl_srcs *s, const tl_line *l,
                           size_t max, size_t *len, tk_diags *diags);

/* The same, reading only what is asked for (no block around it): for a
 * line looked at alone, like the name on a function's first line. */
const char *tl_reader_peek(tl_reader *r, const tl_srcs *s, const tl_line *l,
                           size_t max, size_t *len, tk_diags *diags);

/* Each line of bytes [OFF, OFF + LEN) of part PART of S, in order: its
 * record and its bytes (REC->len of them, or TL_LINE_MAX when cut), valid
 * during the call.  Split at "\n"; a last line without one counts.  Read a
 * bounded buffer at a time (BUF, *CAP: kept by the caller between calls),
 * or, when S keeps bodies and the range is small enough, read whole once
 * and kept (tl_resident).
 * Returns 0, FN's nonzero value, or -1 with an error in DIAGS. */
typedef int (*tl_line_fn)(void *user, const tl_line *rec, const char *text);
int tl_stream_range(const tl_srcs *s, uint16_t part, uint64_t off,
                    uint64_t len, char **buf, size_t *cap, tl_line_fn fn,
                    void *user, tk_diags *diags);

/* Appends a record per line of the LEN bytes at TEXT, of source SRC (MEM:
 * offsets from TEXT's start plus BASE). */
void tl_lines_of_memory(GArray *out, const char *text, size_t len,
                        uint64_t base);

/* Appends a record per line of STAGE (src TL_SRC_STAGE). */
void tl_lines_of_stage(GArray *out, const tk_stage *stage);

/* Normalizes LINES (tl_line), read back through R, as DIALECT, keeping
 * hashes only.  NULL with an error in DIAGS when a line cannot be read or
 * there are too many lines (NAME names the text). */
tk_normalize *tl_normalize_lines(const GArray *lines, const tl_srcs *s,
                                 tl_reader *r, tk_ir_dialect dialect,
                                 const char *name, tk_diags *diags);
/* The same with tk_normalize_builder_new()'s FLAGS (hashes only added). */
tk_normalize *tl_normalize_lines_flags(const GArray *lines, const tl_srcs *s,
                                       tl_reader *r, tk_ir_dialect dialect,
                                       const char *name, tk_diags *diags,
                                       unsigned flags);

/* Whether two line arrays are the same bytes (by their lengths and
 * hashes). */
int tl_lines_same(const GArray *a, const GArray *b);

/* The lines of LINES, then (when META is not NULL) a blank line and the
 * lines of META, as a read_lines over R (read/lines.h), named NAME, for the
 * location readers.  Valid while its arguments are. */
typedef struct {
    read_lines rl;
    const GArray *lines, *meta;
    const tl_srcs *s;
    tl_reader *r;
    tk_diags *diags;
} tl_feed;

void tl_feed_init(tl_feed *f, const GArray *lines, const GArray *meta,
                  const tl_srcs *s, tl_reader *r, const char *name,
                  tk_diags *diags);

/* The stacks of every line of F read as KIND (TTIR/TTGIR: MLIR; LLIR:
 * LLVM IR) into MAP, interning in TAB; problems to DIAGS. */
void tl_read_locations(tk_stage_kind kind, tl_feed *f, tk_loctab *tab,
                       read_linemap *map, tk_diags *diags);

#endif
