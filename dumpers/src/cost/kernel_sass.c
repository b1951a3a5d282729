/* kernel_sass.c - the SASS instructions of a kernel's own function: the
 * lines a profile's rows must be, and the lines the cost tables count.
 *
 * nvdisasm prints every function of the cubin.  A Triton cubin holds one
 * kernel, but a noinline helper would be a second function, and a
 * profiler lists the instructions of the profiled function only: so when
 * the file has the kernel's ".text.NAME:" label, only the instructions
 * from there to the next function banner ("//----") or section directive
 * count; a file without it (hand-made, another tool) counts whole.
 */
#include "cost/internal.h"

#include <string.h>

static gboolean starts(const char *s, size_t len, const char *lit)
{
    size_t n = strlen(lit);
    return len >= n && memcmp(s, lit, n) == 0;
}

static const char *skip_space(const char *s, size_t *len)
{
    while (*len && (*s == ' ' || *s == '\t')) {
        s++;
        (*len)--;
    }
    return s;
}

/* The line of STAGE that is ".text.NAME:", or 0. */
static uint32_t function_label(const tk_stage *st, const char *name)
{
    char *label = g_strdup_printf(".text.%s:", name);
    size_t ll = strlen(label);
    uint32_t n = tk_stage_line_count(st), found = 0;
    for (uint32_t l = 1; l <= n && !found; l++) {
        size_t len;
        const char *s = tk_stage_line(st, l, &len);
        s = skip_space(s, &len);
        while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
            len--;
        if (len == ll && memcmp(s, label, ll) == 0)
            found = l;
    }
    g_free(label);
    return found;
}

void cost_insns_read(const tk_stage *st, const char *name, cost_insns *out)
{
    memset(out, 0, sizeof *out);
    if (!st)
        return;
    uint32_t n = tk_stage_line_count(st);
    uint32_t first = name ? function_label(st, name) : 0;
    /* At most one instruction a line: plain arrays of that size, filled in
     * place (an append per field was a third of the reading). */
    size_t cap = n > first ? n - first : 1;
    out->line = g_new(uint32_t, cap);
    out->offset = g_new(uint32_t, cap);
    out->op = g_new(uint32_t, cap);
    out->op_len = g_new(uint16_t, cap);
    out->cls = g_new(uint8_t, cap);
    size_t k = 0;
    for (uint32_t l = first ? first + 1 : 1; l <= n; l++) {
        size_t len;
        const char *s = tk_stage_line(st, l, &len);
        size_t tlen = len;
        const char *t = skip_space(s, &tlen);
        if (first && (starts(t, tlen, "//----") || starts(t, tlen, ".section")))
            break;
        tk_sass_insn in;
        if (!tk_sass_insn_parse(s, len, &in))
            continue;
        out->line[k] = l;
        out->offset[k] = in.offset;
        out->op[k] = (uint32_t)(in.opcode - s);
        out->op_len[k] = (uint16_t)MIN(in.opcode_len, (size_t)UINT16_MAX);
        out->cls[k] = (uint8_t)tk_sass_class_of(in.opcode, in.opcode_len);
        k++;
    }
    out->n = k;
}

void cost_insns_clear(cost_insns *in)
{
    g_free(in->line);
    g_free(in->offset);
    g_free(in->op);
    g_free(in->op_len);
    g_free(in->cls);
    memset(in, 0, sizeof *in);
}
