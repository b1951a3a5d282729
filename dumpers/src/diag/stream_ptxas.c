/* stream_ptxas.c - ptxas's log read a line at a time into messages and
 * each function's figures (registers, spills, shared memory, ...).  Apart
 * from stream.c: one tool's own format. */
#include <stdlib.h>
#include <string.h>

#include "diag/reader.h"

static int64_t number_before(const char *s, size_t len, const char *word)
{
    const char *w = diag_find(s, len, word);
    if (!w)
        return -1;
    const char *q = w;
    while (q > s && q[-1] == ' ')
        q--;
    const char *e = q;
    while (q > s && q[-1] >= '0' && q[-1] <= '9')
        q--;
    if (q == e)
        return -1;
    return g_ascii_strtoll(q, NULL, 10);
}

static int64_t number_after(const char *s, size_t len, const char *word)
{
    const char *w = diag_find(s, len, word);
    if (!w)
        return -1;
    w += strlen(word);
    if (w >= s + len || *w < '0' || *w > '9')
        return -1;
    return g_ascii_strtoll(w, NULL, 10);
}

/* The function a ptxas message names: "in function 'K'", "in the function
 * 'K'", "in function K." */
static const char *ptxas_function(diag_reader *r, const char *s, size_t len)
{
    const char *w = diag_find(s, len, "in the function ");
    size_t n = strlen("in the function ");
    if (!w) {
        w = diag_find(s, len, "in function ");
        n = strlen("in function ");
    }
    if (!w)
        return NULL;
    const char *a = w + n, *end = s + len;
    if (a < end && *a == '\'')
        a++;
    const char *b = a;
    while (b < end && (g_ascii_isalnum(*b) || *b == '_' || *b == '$' || *b == '.'))
        b++;
    while (b > a && b[-1] == '.')
        b--;
    return b > a ? diag_str(r->set, a, b - a) : NULL;
}

void diag_ptxas_block_end(diag_reader *r)
{
    if (r->ptxas_fn && r->summary.present) {
        diag_summary sm = {r->ptxas_fn, r->summary};
        g_array_append_val(r->set->summaries, sm);
        if (r->summary.spill_stores > 0 || r->summary.spill_loads > 0) {
            char *msg = g_strdup_printf(
                "%" G_GINT64_FORMAT " bytes stack frame, %" G_GINT64_FORMAT
                " bytes spill stores, %" G_GINT64_FORMAT " bytes spill loads",
                r->summary.stack_frame, r->summary.spill_stores,
                r->summary.spill_loads);
            diag_item *it = diag_item_new(r, TK_DIAG_ORIGIN_PTXAS,
                                          TK_DIAG_LEVEL_WARNING, msg, -1);
            g_free(msg);
            it->kernel_name = r->ptxas_fn;
            it->has_summary = 1;
            it->summary = r->summary;
            int merged;
            diag_item_add(r, it, &merged);
        }
    }
    r->ptxas_fn = NULL;
    diag_summary_init(&r->summary);
}

/* Blanks, then a digit. */
static int stack_line_start(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && s[i] == ' ')
        i++;
    return i < len && s[i] >= '0' && s[i] <= '9';
}

/* A line of ptxas's log ("ptxas info    : ...") or of its error output. */
int diag_ptxas_line(diag_reader *r, const char *s, size_t len)
{
    const char *end = s + len;
    /* The stack/spill line has no "ptxas" prefix: "    N bytes stack
     * frame, ...".  IR lines start with blanks too, seldom then a digit:
     * that is looked at first (a stream is mostly IR). */
    if (len && s[0] == ' ' && stack_line_start(s, len) &&
        diag_find(s, len, "bytes stack frame,")) {
        r->summary.present = 1;
        r->summary.stack_frame = number_before(s, len, "bytes stack frame");
        r->summary.spill_stores = number_before(s, len, "bytes spill stores");
        r->summary.spill_loads = number_before(s, len, "bytes spill loads");
        return 1;
    }
    if (!diag_starts(s, len, "ptxas "))
        return 0;
    const char *p = s + 6;
    tk_diag_level level;
    int info = 0;
    uint32_t ptx_line = 0;
    if (diag_starts(p, (size_t)(end - p), "info"))
        info = 1, level = TK_DIAG_LEVEL_WARNING;
    else if (diag_starts(p, (size_t)(end - p), "warning"))
        level = TK_DIAG_LEVEL_WARNING;
    else if (diag_starts(p, (size_t)(end - p), "error") ||
             diag_starts(p, (size_t)(end - p), "fatal"))
        level = TK_DIAG_LEVEL_ERROR;
    else {
        /* "ptxas FILE, line N; error   : ..." */
        const char *l = diag_find(p, (size_t)(end - p), ", line ");
        if (!l)
            return 0;
        const char *q = l + 7;
        int ok;
        ptx_line = diag_parse_u32(&q, end, &ok);
        if (!ok || q >= end || *q != ';')
            return 0;
        p = q + 1;
        while (p < end && *p == ' ')
            p++;
        if (diag_starts(p, (size_t)(end - p), "warning"))
            level = TK_DIAG_LEVEL_WARNING;
        else if (diag_starts(p, (size_t)(end - p), "error") ||
                 diag_starts(p, (size_t)(end - p), "fatal"))
            level = TK_DIAG_LEVEL_ERROR;
        else
            return 0;
    }
    const char *colon = memchr(p, ':', (size_t)(end - p));
    if (!colon)
        return 1;
    const char *msg = colon + 1;
    while (msg < end && *msg == ' ')
        msg++;
    size_t mlen = (size_t)(end - msg);
    if (info) {
        int64_t v;
        if ((v = number_before(msg, mlen, "bytes gmem")) >= 0 &&
            !diag_find(msg, mlen, "(C")) {
            r->pending_gmem = v;
            return 1;
        }
        const char *w = diag_find(msg, mlen, "Compiling entry function '");
        if (w || diag_starts(msg, mlen, "Function properties for ")) {
            const char *a = w ? w + strlen("Compiling entry function '")
                              : msg + strlen("Function properties for ");
            const char *b = a;
            while (b < end && *b != '\'' && *b != ' ')
                b++;
            const char *fn = diag_str(r->set, a, b - a);
            if (r->ptxas_fn && strcmp(r->ptxas_fn, fn) != 0)
                diag_ptxas_block_end(r);
            r->ptxas_fn = fn;
            if (r->pending_gmem >= 0) {
                r->summary.gmem = r->pending_gmem;
                r->pending_gmem = -1;
            }
            return 1;
        }
        if (diag_starts(msg, mlen, "Used ")) {
            r->summary.present = 1;
            r->summary.registers = number_before(msg, mlen, "registers");
            r->summary.barriers = number_before(msg, mlen, "barriers");
            r->summary.cumulative_stack =
                number_before(msg, mlen, "bytes cumulative stack size");
            for (int i = 0; i < 4; i++) {
                char word[16];
                g_snprintf(word, sizeof word, "bytes cmem[%d]", i);
                r->summary.cmem[i] = number_before(msg, mlen, word);
            }
            return 1;
        }
        if (diag_starts(msg, mlen, "Compile time")) {
            diag_ptxas_block_end(r);
            return 1;
        }
        if (!diag_starts(msg, mlen, "(C"))
            return 1; /* other info lines: not messages */
    }
    /* "(C7602) text": the code. */
    const char *code = NULL;
    if (diag_starts(msg, mlen, "(C")) {
        const char *c = memchr(msg, ')', mlen);
        if (c && c - msg <= 8) {
            code = diag_str(r->set, msg + 1, c - msg - 1);
            msg = c + 1;
            while (msg < end && *msg == ' ')
                msg++;
            mlen = (size_t)(end - msg);
        }
    }
    if (level == TK_DIAG_LEVEL_ERROR && !code &&
        diag_starts(msg, mlen, "Ptx assembly aborted due to errors")) {
        if (r->last_ptxas_error &&
            r->last_ptxas_error->notes->len == 0)
            g_ptr_array_add(r->last_ptxas_error->notes,
                            (char *)diag_str(r->set, msg, (gssize)mlen));
        return 1;
    }
    diag_item *it = diag_item_new(r, TK_DIAG_ORIGIN_PTXAS, level, msg, mlen);
    it->pub.code = code;
    it->kernel_name = ptxas_function(r, msg, mlen);
    if (!it->kernel_name)
        it->kernel_name = r->ptxas_fn;
    int64_t at = number_after(msg, mlen, "at line ");
    if (at > 0 && at <= 0xffffffff)
        ptx_line = (uint32_t)at;
    if (ptx_line) {
        it->pub.ir_line = ptx_line;
        it->pub.has_stage = 1;
        it->pub.stage = TK_STAGE_PTX;
    }
    int merged;
    diag_item *kept = diag_item_add(r, it, &merged);
    r->last = NULL;
    if (level == TK_DIAG_LEVEL_ERROR)
        r->last_ptxas_error = merged ? NULL : kept;
    return 1;
}
