/* pysource.c - the statements of a Python file (tk_pysource.h).
 *
 * One pass over the bytes with a small state: the bracket depth of the code,
 * a stack of open strings (an f-string's replacement field is code again and
 * may open strings of its own, nested as Python 3.12 allows), and whether a
 * backslash continues the line.  A statement opens at the first code byte
 * outside any statement and closes at a newline with nothing open; its lines
 * get its extent.
 */
#include "tkdump/tk_pysource.h"

#include <glib.h>
#include <string.h>

#include "tkdump/tk_input_file.h"
#include "util/text.h"

struct tk_pysource {
    uint32_t n_lines;
    uint32_t *first; /* per line (1-based): its statement's first line, 0: none */
    uint32_t *last;
};

/* Strings nested in f-string replacement fields deeper than this are read
 * as plain text (no real source nests so deep). */
#define MAX_STRINGS 16

typedef struct {
    char quote;
    uint8_t triple;
    uint8_t fstring;  /* f"..." (or t"..."): {} hold code */
    uint8_t in_field; /* inside a replacement field */
    uint32_t depth;   /* brackets open in the field */
} str_ctx;

typedef struct {
    str_ctx s[MAX_STRINGS];
    int n;
} str_stack;

static int is_ident_byte(unsigned char c)
{
    return g_ascii_isalnum(c) || c == '_' || c >= 0x80;
}

/* Whether the quote at DATA[I] is an f-string's (or t-string's): its prefix
 * letters, right before it, hold an f or a t. */
static int quote_is_fstring(const char *data, size_t i)
{
    size_t j = i;
    int f = 0;
    while (j > 0 && i - j < 3 && strchr("rRbBuUfFtT", data[j - 1]) && data[j - 1]) {
        j--;
        f |= data[j] == 'f' || data[j] == 'F' || data[j] == 't' || data[j] == 'T';
    }
    if (j == i)
        return 0;
    if (j > 0 && is_ident_byte((unsigned char)data[j - 1]))
        return 0; /* "elif" before a quote is no prefix */
    return f;
}

/* Opens the string whose quote is at DATA[*I]; advances *I past the quotes. */
static void open_string(str_stack *st, const char *data, size_t len, size_t *i)
{
    char q = data[*i];
    int triple = *i + 2 < len && data[*i + 1] == q && data[*i + 2] == q;
    int f = quote_is_fstring(data, *i);
    *i += triple ? 3 : 1;
    if (st->n < MAX_STRINGS)
        st->s[st->n] = (str_ctx){q, (uint8_t)triple, (uint8_t)f, 0, 0};
    else
        st->s[st->n - 1].fstring = 0; /* too deep: read the rest as text */
    if (st->n < MAX_STRINGS)
        st->n++;
}

static void close_statement(tk_pysource *src, uint32_t *open, uint32_t line)
{
    for (uint32_t l = *open; l <= line && l >= *open; l++) {
        src->first[l] = *open;
        src->last[l] = line;
        if (l == UINT32_MAX)
            break;
    }
    *open = 0;
}

tk_pysource *tk_pysource_parse(const char *data, size_t len)
{
    tk_pysource *src = g_new0(tk_pysource, 1);
    uint32_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += data[i] == '\n';
    if (len && data[len - 1] != '\n')
        n++;
    src->n_lines = n;
    src->first = g_new0(uint32_t, (size_t)n + 1);
    src->last = g_new0(uint32_t, (size_t)n + 1);

    str_stack st = {.n = 0};
    uint32_t line = 1, open = 0, depth = 0;
    int continued = 0; /* a backslash ended the code of this line */
    for (size_t i = 0; i < len;) {
        char c = data[i];
        if (c == '\n') {
            if (st.n > 0) {
                str_ctx *top = &st.s[st.n - 1];
                if (!top->triple && !top->in_field)
                    st.n = 0; /* unterminated: Python would refuse it */
            }
            if (open && depth == 0 && st.n == 0 && !continued)
                close_statement(src, &open, line);
            continued = 0;
            line++;
            i++;
            continue;
        }
        if (c == '\r' || c == ' ' || c == '\t' || c == '\f') {
            i++;
            continue;
        }
        continued = 0;
        if (st.n > 0 && !st.s[st.n - 1].in_field) {
            /* Inside a string's text. */
            str_ctx *top = &st.s[st.n - 1];
            if (c == '\\') {
                i += i + 1 < len && data[i + 1] != '\n' ? 2 : 1;
                if (i < len && data[i] == '\n') {
                    /* an escaped newline: the string goes on */
                    line++;
                    i++;
                }
                continue;
            }
            if (c == top->quote &&
                (!top->triple || (i + 2 < len && data[i + 1] == c && data[i + 2] == c))) {
                i += top->triple ? 3 : 1;
                st.n--;
                continue;
            }
            if (top->fstring && c == '{') {
                if (i + 1 < len && data[i + 1] == '{') {
                    i += 2; /* a literal brace */
                    continue;
                }
                top->in_field = 1;
                top->depth = 0;
            }
            i++;
            continue;
        }
        /* Code: at the top level, or in an f-string's replacement field. */
        if (!open) {
            if (c == '#') { /* a comment line between statements */
                while (i < len && data[i] != '\n')
                    i++;
                continue;
            }
            open = line;
        }
        str_ctx *field = st.n > 0 ? &st.s[st.n - 1] : NULL;
        uint32_t *d = field ? &field->depth : &depth;
        switch (c) {
        case '#':
            if (!field) {
                while (i < len && data[i] != '\n')
                    i++;
                continue;
            }
            break;
        case '"':
        case '\'':
            open_string(&st, data, len, &i);
            continue;
        case '(':
        case '[':
        case '{':
            (*d)++;
            break;
        case ')':
        case ']':
            if (*d)
                (*d)--;
            break;
        case '}':
            if (*d)
                (*d)--;
            else if (field)
                field->in_field = 0; /* the field ends: text again */
            break;
        case '\\':
            if (i + 1 < len && data[i + 1] == '\n')
                continued = 1;
            else if (i + 2 < len && data[i + 1] == '\r' && data[i + 2] == '\n')
                continued = 1;
            break;
        default:
            break;
        }
        i++;
    }
    if (open)
        close_statement(src, &open, n ? n : 1);
    return src;
}

tk_pysource *tk_pysource_read(const char *path, tk_diags *diags)
{
    /* A source, not a stage file: a regular file of at most the 16 MiB a
     * source may have (tk_input_file.h), as the report and the viewer read
     * it; a bundle's sources/ may hold anything. */
    size_t len = 0;
    char *why = NULL;
    char *data = tk_input_file_read(path, TK_INPUT_FILE_SOURCE, &len, &why);
    if (!data) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0, "cannot read this source: %s", why);
        g_free(why);
        return NULL;
    }
    tk_pysource *src = NULL;
    if (text_looks_binary(data, len))
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0, "binary data (a NUL byte), not a source");
    else
        src = tk_pysource_parse(data, len);
    g_free(data);
    return src;
}

void tk_pysource_free(tk_pysource *src)
{
    if (!src)
        return;
    g_free(src->first);
    g_free(src->last);
    g_free(src);
}

uint32_t tk_pysource_line_count(const tk_pysource *src)
{
    return src->n_lines;
}

tk_pyline tk_pysource_statement(const tk_pysource *src, uint32_t line,
                                uint32_t *first, uint32_t *last)
{
    *first = *last = line;
    if (line == 0 || line > src->n_lines)
        return TK_PYLINE_PAST_END;
    if (!src->first[line])
        return TK_PYLINE_NO_CODE;
    *first = src->first[line];
    *last = src->last[line];
    return TK_PYLINE_CODE;
}
