/* index_builder.h - what the pass dump indexer's files share (index.c
 * reads a file through a window and feeds its lines; index_builder.c turns
 * lines into dumps and other text; index_halves.c indexes a big file as two
 * halves on two threads).  Internal to passes/. */
#ifndef TKDUMP_PASSES_INDEX_BUILDER_H
#define TKDUMP_PASSES_INDEX_BUILDER_H

#include "passes/internal.h"
#include "tkdump/tk_input_file.h"

#include <sys/stat.h>

typedef enum {
    PASSES_ROLE_HEADER,
    PASSES_ROLE_BANNER,     /* a header with no body by design */
    PASSES_ROLE_HEADER_TAIL,/* a line that completes the header ("Printing <null>
                        Function"): kept with it, no body */
    PASSES_ROLE_BODY,
    PASSES_ROLE_BODY_BLANK,
    PASSES_ROLE_OTHER,
    PASSES_ROLE_OTHER_BLANK
} passes_line_role;

typedef struct {
    tk_passes *ix;
    tk_diags *diags;
    const char *name;
    uint64_t line;     /* number of the current line */
    uint64_t charged;  /* lines charged to the load's budget so far */
    int over_budget;   /* the load's budget ran out: the scan stops */
    int again;         /* the same text indexed again: not charged twice, */
    uint64_t stop_line; /* but stopped where the budget stopped it (0: no) */
    uint64_t line_off; /* its offset */
    passes_line_role role;
    uint64_t nul_until; /* lines starting before this offset may hold NULs */

    int in_dump;
    tk_pass_dump cur;
    passes_body_state body;
    passes_digester dig;
    const char *candidate; /* a function that could be the kernel */
    uint64_t content_end;  /* after the last non-blank body line */
    uint64_t content_line;

    int in_other;
    tk_pass_range oth;
    uint64_t oth_end, oth_last;
    uint64_t ir_lines, ir_first;
    int line_ir; /* the current other line looks like IR */
    int line_message; /* ... is a compiler message */
    int after_message; /* this other run had a compiler message: the IR
                          after it is what the message printed */

    int in_binary;
    int one_scan; /* never in two halves (passes_index_one_scan()) */
} passes_builder;

/* Where a file's text comes from: up to N bytes at file offset OFF (or,
 * for a file that cannot seek, at the current position: SEQ), stopping at
 * LIMIT. */

typedef struct {
    int fd;
    int seq;        /* read(), not pread(): the whole file from the start */
    uint64_t limit; /* offset where the scan stops (UINT64_MAX: at EOF) */
    passes_gz *gz;  /* a gzip file: its text, in order */
    passes_gz_pipe *pipe; /* or GZ's text inflated on a worker (gz_pipe.c) */
} passes_source;

/* index_builder.c: the line at file offset OFF begins, S holding LEN bytes
 * of it without its "\n" (all of it unless MORE); more of it; it ends, the
 * next starting at NEXT.  Then the dump or other text open at the end is
 * finished. */
void passes_line_begin(passes_builder *b, uint64_t off, const char *s, size_t len,
                       int more);
void passes_line_more(passes_builder *b, const char *s, size_t len);
void passes_line_end(passes_builder *b, uint64_t next);
void passes_finish_dump(passes_builder *b);
void passes_finish_other(passes_builder *b);
/* Whether S (N bytes) is blank. */
int passes_is_blank(const char *s, size_t n);
/* Charges N of ITEM to the load's budget, kept on the index for
 * tk_passes_refund_budget(); -1 (and *WHY) when it runs out. */
int passes_charge(passes_builder *b, tk_input_budget_item item, uint64_t n, char **why);

/* index.c: feeds every line of SRC from offset START (a line start) to B
 * through BUF (WINDOW bytes); 0, or -1 on a read error (reported).  An
 * empty index of PATH. */
int passes_scan(passes_builder *b, const passes_source *src, uint64_t start, size_t window,
                char *buf);
tk_passes *passes_new(const char *path);

/* index_halves.c: indexes FD (ST its stat) into B, in two halves when it is
 * big and there are two processors; passes_scan()'s result, B->line then
 * the number of lines. */
int passes_scan_file(passes_builder *b, int fd, const struct stat *st, size_t window);

#endif
