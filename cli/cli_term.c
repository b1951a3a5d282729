/* cli_term.c - text output that fits the terminal it is read on.
 *
 * When stdout is a terminal, the commands that print long lines (bind,
 * passes, hot) shorten them to its width, with a visible "…" where text
 * was cut, and print a summary before the lines.  Piped output and
 * --wide keep whole lines, as scripts and tests read them. */
#include "cli.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static gboolean wide_option;

gboolean *cli_term_wide_option(void)
{
    return &wide_option;
}

int cli_term_columns(void)
{
    static int cols = -1;
    if (cols >= 0)
        return cols;
    cols = 0;
    if (wide_option || !isatty(STDOUT_FILENO))
        return cols;
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        cols = ws.ws_col;
    else if (g_getenv("COLUMNS") && atoi(g_getenv("COLUMNS")) > 0)
        cols = atoi(g_getenv("COLUMNS"));
    else
        cols = 80;
    if (cols < 40) /* narrower than that, cutting helps nobody */
        cols = 40;
    return cols;
}

/* Display columns of the escaped, valid UTF-8 text S: one per
 * character (IR is ASCII but for names and comments). */
static int text_columns(const char *s)
{
    return (int)g_utf8_strlen(s, -1);
}

/* S escaped, made valid UTF-8 and tabs turned to spaces when COLS > 0;
 * caller frees. */
static char *displayable(const char *s, size_t len, int cols)
{
    char *esc = cli_escape(s, len);
    char *valid = g_utf8_make_valid(esc, -1);
    g_free(esc);
    for (char *p = valid; cols > 0 && *p; p++) /* a tab is one column where lines are cut */
        if (*p == '\t')
            *p = ' ';
    return valid;
}

int cli_term_put_end(FILE *out, const char *s, size_t len, int cols)
{
    if (cols <= 0) { /* piped: the bytes as cli_put_text() writes them */
        cli_put_text(out, s, len);
        return 0;
    }
    char *valid = displayable(s, len, cols);
    int w = text_columns(valid);
    if (cols <= 0 || w <= cols) {
        fputs(valid, out);
    } else {
        fputs("\u2026", out);
        fputs(g_utf8_offset_to_pointer(valid, w - (cols - 1)), out);
        w = cols;
    }
    g_free(valid);
    return w;
}

int cli_term_put(FILE *out, const char *s, size_t len, int cols)
{
    if (cols <= 0) { /* piped: the bytes as cli_put_text() writes them */
        cli_put_text(out, s, len);
        return 0;
    }
    char *valid = displayable(s, len, cols);
    int w = text_columns(valid);
    if (cols <= 0 || w <= cols) {
        fputs(valid, out);
    } else {
        const char *end = g_utf8_offset_to_pointer(valid, cols > 1 ? cols - 1 : 0);
        fwrite(valid, 1, (size_t)(end - valid), out);
        fputs("\u2026", out);
        w = cols;
    }
    g_free(valid);
    return w;
}

void cli_term_line(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int cols = cli_term_columns();
    if (cols <= 0) {
        cli_vfprintf(stdout, fmt, ap);
    } else {
        /* formatted unescaped, then escaped and cut once */
        char *line = g_strdup_vprintf(fmt, ap);
        cli_term_put(stdout, line, strlen(line), cols);
        g_free(line);
    }
    va_end(ap);
    putchar('\n');
}
