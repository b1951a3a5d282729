/* check/internal.h - the rules of a rules file as check/ reads them. */
#ifndef TKDUMP_CHECK_INTERNAL_H
#define TKDUMP_CHECK_INTERNAL_H
#include <glib.h>
#include <stdint.h>
#include "tkdump/tk_check.h"
#include "tkdump/tk_stage.h"

typedef enum {
    CHECK_EQ, CHECK_NE, CHECK_LT, CHECK_LE, CHECK_GT, CHECK_GE
} check_op;

typedef enum {
    /* per kernel only */
    CHECK_REGISTERS, CHECK_SPILLS, CHECK_SHARED, CHECK_STACK, CHECK_WARPS,
    CHECK_STAGES, CHECK_CTAS, CHECK_DIAGNOSTICS, CHECK_PASS_CHANGED,
    /* per kernel or per line */
    CHECK_STAGE_LINES,  /* instruction lines of STAGE */
    CHECK_STAGE_OP,     /* instruction lines of STAGE whose op is ARG */
    CHECK_SASS_CLASS,   /* SASS instructions of class CLS */
    CHECK_METRIC        /* a cost metric (tk_cost.h) named ARG: "samples",
                           "live_registers", "spill_instructions", ... */
} check_fact;

/* A source line as a rule names it: FILE:LINE or FILE:/REGEX/. */
typedef struct {
    char *file;
    uint32_t line;   /* 0 with a regex */
    GRegex *re;
    char *re_text;
} check_line_spec;

typedef struct {
    uint32_t rule_line;
    char *text;
    char *kernel_spec;      /* owned by the rules' kernel list */
    int has_line;
    check_line_spec line;
    check_fact fact;
    tk_stage_kind stage;
    char *arg;              /* op, opcode, pass name, diagnostic code */
    int level;              /* CHECK_DIAGNOSTICS: tk_diag_level, -1 all */
    int cls;                /* CHECK_SASS_CLASS: tk_sass_class, -1 all */
    int in_loop;            /* count only lines inside an scf.for */
    int has_loop_line;      /* ... of the loop at LOOP_LINE */
    check_line_spec loop_line;
    check_op op;
    double value;
} check_rule;

struct tk_check_rules {
    GPtrArray *rules;    /* check_rule* */
    GPtrArray *kernels;  /* char*: every `kernel` selector, owned */
};

/* "==", "!=", ... */
const char *check_op_name(check_op op);
/* Whether ACTUAL OP VALUE holds. */
int check_op_holds(check_op op, double actual, double value);
/* The op name of an IR instruction line of STAGE (an MLIR op, a PTX
 * mnemonic with its modifiers, a SASS opcode with its modifiers): a
 * pointer into TEXT and *OPLEN, or NULL. */
const char *check_op_of(tk_stage_kind stage, const char *text, size_t len,
                        size_t *oplen);
/* Whether OP (LEN bytes) is NAME or NAME followed by '.' modifiers. */
int check_op_matches(const char *op, size_t len, const char *name);
#endif
