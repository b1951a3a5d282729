/* cmd_bind.h - what `tkview bind` --source (cmd_bind_source.c) and --ir
 * (cmd_bind.c) share: the arguments and the printers of IR lines, as text
 * and as JSON (docs/cli-json.md). */
#ifndef TKVIEW_CMD_BIND_H
#define TKVIEW_CMD_BIND_H

#include "cli.h"

/* IR lines shown per stage on a terminal unless --lines says (piped: all). */
#define CMD_BIND_TERM_LINES 12

typedef struct {
    cli_common common;
    char *source;
    char *ir;
    char *kernel;
    char *stage;
    gboolean exact;
    gboolean shared;
    tk_diag_set *diag; /* the compiler's messages beside PATH, or NULL */
    int lines;        /* --lines: IR lines per stage, 0 all, -1 not given */
} cmd_bind_args;

/* The text of LINE without its indentation, in at most COLS columns
 * (0: all, cli_term_put()); returns the columns written. */
int cmd_bind_put_line(const tk_stage *st, uint32_t line, int cols);

/* The stacks of LINE as "a.py:3:1 <- b.py:9:5 | ..." with "(callers from
 * STAGE)" when inferred; caller frees. */
char *cmd_bind_stacks_string(const tk_bind *ix, const tk_loctab *tab,
                             tk_stage_kind k, uint32_t line);
/* The same printed, fitted to the terminal after USED columns. */
void cmd_bind_put_stacks(const tk_bind *ix, const tk_loctab *tab,
                            tk_stage_kind k, uint32_t line, int used);

/* How many of N IR lines of a stage to print (--lines, or the terminal's
 * default); cmd_bind_put_more() says how many were left out. */
size_t cmd_bind_lines_shown(const cmd_bind_args *a, size_t n);
void cmd_bind_put_more(tk_stage_kind s, size_t more);

/* An IR line as JSON (docs/cli-json.md): its text, stacks, kind, and
 * "directive": true when it is not an instruction (a located .loc, //##,
 * region end...); APPROX adds "approximate": true (a match on the innermost
 * frame only, tk_bind_match_approximate()). */
void cmd_bind_json_line_flags(JsonBuilder *j, const tk_bind *ix, const tk_loctab *tab,
                            const tk_stage *st, tk_stage_kind k, uint32_t line,
                            gboolean approx);

void cmd_bind_json_line(JsonBuilder *j, const tk_bind *ix, const tk_loctab *tab,
                      const tk_stage *st, tk_stage_kind k, uint32_t line);

/* "    123  TEXT": the number, a mark for what is not an instruction, the
 * text, fitted to the terminal leaving RESERVE columns after it. */
void cmd_bind_put_numbered_line(const tk_stage *st, uint32_t line, const char *extra,
                                int reserve);

/* "ptx: 12 instructions (+ 3 other lines: .loc, comments)" */
void cmd_bind_put_stage_count(const tk_stage *st, tk_stage_kind s, const uint32_t *lines,
                            size_t n);

void cmd_bind_json_kernel_id(JsonBuilder *j, const tk_kernel *k);

/* `tkview bind --source FILE:LINE`: per kernel, the IR lines the line's
 * statement became; returns the exit status. */
int cmd_bind_source(tk_bundle *b, const cmd_bind_args *a, tk_stage_kind only);

#endif
