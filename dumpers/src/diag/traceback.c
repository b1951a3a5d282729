/* traceback.c - Python tracebacks on a stream (stream.c feeds them here):
 * the frames tell the stage Triton was making and the user's files, the
 * exception ends a compile's group, and a front-end CompilationError's
 * "at L:C:" with its snippet and caret becomes a message of its own. */
#include <string.h>

#include "diag/internal.h"

/* Triton's make_ttir ... make_cubin frames tell the stage being made. */
void diag_traceback_frame(diag_reader *r, const char *s, size_t len)
{
    const char *f = diag_find(s, len, "File \"");
    if (f) {
        const char *a = f + 6;
        const char *b = memchr(a, '"', (size_t)(s + len - a));
        /* The user's files, not Python's or Triton's installed ones. */
        if (b && g_strstr_len(a, b - a, "-packages/") == NULL)
            g_ptr_array_add(r->tb_files, (char *)diag_str(r->set, a, b - a));
    }
    static const struct {
        const char *fn;
        tk_stage_kind kind;
    } makes[] = {{", in make_ttir", TK_STAGE_TTIR},
                 {", in make_ttgir", TK_STAGE_TTGIR},
                 {", in make_llir", TK_STAGE_LLIR},
                 {", in make_ptx", TK_STAGE_PTX},
                 {", in make_cubin", TK_STAGE_PTX}};
    for (size_t k = 0; k < G_N_ELEMENTS(makes); k++)
        if (diag_find(s, len, makes[k].fn)) {
            r->tb_has_stage = 1;
            r->tb_stage = makes[k].kind;
        }
}

/* The exception that ends a traceback: gives the stage to this compile's
 * MLIR messages, starts a front-end error, and ends the group. */
void diag_traceback_end(diag_reader *r, const char *s, size_t len)
{
    if (r->tb_has_stage)
        for (guint i = 0; i < r->set->items->len; i++) {
            diag_item *it = r->set->items->pdata[i];
            if (it->pub.stream == r->name && it->group == r->group &&
                it->pub.origin != TK_DIAG_ORIGIN_PTXAS && !it->pub.has_stage) {
                it->pub.has_stage = 1;
                it->pub.stage = r->tb_stage;
                it->stage_from_stream = 1;
            }
        }
    /* "....CompilationError: at 5:8:" (and its subclasses'). */
    const char *w = diag_find(s, len, "Error: at ");
    if (!w)
        w = diag_find(s, len, "Failure: at ");
    if (!w)
        w = diag_find(s, len, "Construct: at ");
    if (w) {
        const char *q = strstr(w, ": at ") + 5;
        const char *end = s + len;
        int ok1, ok2 = 0;
        uint32_t l = diag_parse_u32(&q, end, &ok1);
        uint32_t c = 0;
        if (ok1 && q < end && *q == ':') {
            q++;
            c = diag_parse_u32(&q, end, &ok2);
        }
        if (ok1 && ok2 && l > 0) {
            diag_item *it = diag_item_new(r, TK_DIAG_ORIGIN_FRONTEND,
                                     TK_DIAG_LEVEL_ERROR, "", 0);
            it->fe_line = l;
            it->fe_col = c;
            it->fe_snippet = g_ptr_array_new_with_free_func(g_free);
            it->fe_files = g_ptr_array_new();
            for (guint i = 0; i < r->tb_files->len; i++)
                g_ptr_array_add(it->fe_files, r->tb_files->pdata[i]);
            r->fe = it;
            r->fe_state = 1;
            r->fe_message = g_string_new(NULL);
        }
    }
    r->in_traceback = 0;
    r->tb_has_stage = 0;
    r->group++;
    r->last = NULL;
}

void diag_fe_finish(diag_reader *r)
{
    diag_item *it = r->fe;
    if (!it)
        return;
    if (r->fe_state != 2 || r->fe_message->len == 0) {
        /* No caret or no message: not the form Triton prints. */
        g_string_free(r->fe_message, TRUE);
        r->fe_message = NULL;
        r->fe = NULL;
        r->fe_state = 0;
        diag_item_free(it);
        return;
    }
    it->pub.message = diag_str(r->set, r->fe_message->str, -1);
    if (it->fe_snippet->len) {
        /* "def NAME(": the kernel. */
        const char *d = it->fe_snippet->pdata[0];
        while (*d == ' ')
            d++;
        if (g_str_has_prefix(d, "def ")) {
            const char *a = d + 4, *b = a;
            while (g_ascii_isalnum(*b) || *b == '_')
                b++;
            if (b > a)
                it->kernel_name = diag_str(r->set, a, b - a);
        }
    }
    int merged;
    diag_item_add(r, it, &merged);
    g_string_free(r->fe_message, TRUE);
    r->fe_message = NULL;
    r->fe = NULL;
    r->fe_state = 0;
}

int diag_caret_line(const char *s, size_t len)
{
    int caret = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '^')
            caret = 1;
        else if (s[i] != ' ' && s[i] != '~')
            return 0;
    return caret;
}
