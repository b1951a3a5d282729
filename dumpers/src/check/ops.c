/* ops.c - the op an IR instruction line is, as a rule names it: an MLIR op
 * ("ttg.convert_layout"), a PTX mnemonic ("wgmma.mma_async.sync..."), an
 * LLVM IR instruction ("call", "store"), a SASS opcode ("HGMMA.64x...").
 * A rule's name matches an op equal to it or followed by '.' modifiers, so
 * "wgmma.mma_async" names every shape and "HGMMA" every HGMMA. */
#include <string.h>
#include "check/internal.h"
#include "tkdump/tk_cost.h"

static int op_char(char ch)
{
    return ch && !strchr(" \t(<{\":;,", ch);
}

const char *check_op_of(tk_stage_kind stage, const char *text, size_t len,
                        size_t *oplen)
{
    if (stage == TK_STAGE_SASS) {
        tk_sass_insn insn;
        if (!tk_sass_insn_parse(text, len, &insn))
            return NULL;
        *oplen = insn.opcode_len;
        return insn.opcode;
    }
    const char *p = text, *end = text + len;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (stage == TK_STAGE_PTX || stage == TK_STAGE_AMDGCN) {
        if (p < end && *p == '@') { /* a predicate: "@%p1 ", "@!%p2 " */
            while (p < end && *p != ' ' && *p != '\t')
                p++;
            while (p < end && (*p == ' ' || *p == '\t'))
                p++;
        }
    } else if (p < end && *p == '%') {
        /* "%x = op", "%x:2 = op": the op follows the first " = ". */
        const char *eq = NULL;
        for (const char *q = p; q + 2 < end; q++)
            if (q[0] == ' ' && q[1] == '=' && q[2] == ' ') {
                eq = q + 3;
                break;
            }
        if (!eq)
            return NULL;
        p = eq;
        while (p < end && *p == ' ')
            p++;
    }
    if (p < end && *p == '"') /* the generic form: "tt.load"(...) */
        p++;
    const char *s = p;
    while (p < end && op_char(*p))
        p++;
    *oplen = (size_t)(p - s);
    return p > s ? s : NULL;
}

int check_op_matches(const char *op, size_t len, const char *name)
{
    size_t n = strlen(name);
    return len >= n && memcmp(op, name, n) == 0 && (len == n || op[n] == '.');
}
