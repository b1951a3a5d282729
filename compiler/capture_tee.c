/* capture_tee.c - which bytes of a captured program's stdout to show.
 *
 * Capture turns on TRITON_DUMP_PTXAS_LOG, with which Triton 3.6's
 * make_cubin prints ptxas's log after every successful ptxas run:
 *
 *     print(log_file.read())
 *
 * that is the log of `ptxas -v` ("ptxas info    : ..." lines, "ptxas
 * warning : ..." lines, the indented "    N bytes stack frame, ..." line)
 * and one blank line, since the log ends with its own newline.  Without
 * capture the user would not see these lines, so unless the user set the
 * knob (then the filter is not used) they are kept in the bundle's copy and
 * not shown.  Everything else passes unchanged, in the order written:
 * notably Triton's failure banner ("`ptxas` stderr:", "ptxas fatal ...",
 * the PTX), which Triton prints whether or not the knob is set.
 *
 * A run of ptxas lines is held until it ends.  It is hidden when a blank
 * line ends it and no line of it is a fatal or an error (a failed ptxas
 * run's log is only ever printed inside the banner); any other end shows
 * it.  A line that cannot start such a run is passed on as soon as its
 * first bytes say so, so a prompt or a progress bar without a newline is
 * not delayed.
 */
#include "capture.h"

#include <string.h>

#include "tkdump/tk_lines.h"

#define PREFIX "ptxas "
#define PREFIX_LEN 6
#define LINE_CAP (64 * 1024)      /* a longer held line is shown */
#define BLOCK_CAP (1024 * 1024)   /* a longer held run is shown */

struct cap_stdout_filter {
    GString *line;     /* the current line, while undecided (held) */
    gboolean passing;  /* the current line is being passed on */
    GString *block;    /* whole lines of the held run of ptxas lines */
    unsigned block_lines;
    gboolean block_failed; /* a line of the run is a fatal or an error */
    uint64_t hidden_lines;
};

cap_stdout_filter *cap_stdout_filter_new(void)
{
    cap_stdout_filter *f = g_new0(cap_stdout_filter, 1);
    f->line = g_string_new(NULL);
    f->block = g_string_new(NULL);
    return f;
}

void cap_stdout_filter_free(cap_stdout_filter *f)
{
    if (!f)
        return;
    g_string_free(f->line, TRUE);
    g_string_free(f->block, TRUE);
    g_free(f);
}

uint64_t cap_stdout_filter_hidden_lines(const cap_stdout_filter *f)
{
    return f ? f->hidden_lines : 0;
}

/* Whether a whole ptxas line (without its newline) is what a successful
 * run logs: "ptxas info    : ...", "ptxas warning : ...", or the form
 * with a place, "ptxas /tmp/x.ptx, line 5; warning : ...". */
static gboolean is_log_line(const char *s, size_t len)
{
    const char *colon = memchr(s, ':', len);
    if (!colon)
        return FALSE;
    size_t head = (size_t)(colon - s);
    return (memmem(s, head, " info ", 6) || memmem(s, head, " warning ", 9)) &&
           !memmem(s, head, " fatal ", 7) && !memmem(s, head, " error ", 7);
}

static void release_block(cap_stdout_filter *f, GString *out)
{
    g_string_append_len(out, f->block->str, (gssize)f->block->len);
    g_string_truncate(f->block, 0);
    f->block_lines = 0;
    f->block_failed = FALSE;
}

/* Passes the held line on and the rest of it as it comes. */
static void pass_line(cap_stdout_filter *f, GString *out)
{
    release_block(f, out);
    g_string_append_len(out, f->line->str, (gssize)f->line->len);
    g_string_truncate(f->line, 0);
    f->passing = TRUE;
}

/* The held line ended (its newline is in it): into the run, or the run's
 * end. */
static void line_complete(cap_stdout_filter *f, GString *out)
{
    const char *s = f->line->str;
    size_t len = f->line->len - 1; /* without '\n' */
    len = tk_lines_trim(s, len);
    if (f->block_lines && len == 0) {
        if (f->block_failed) {
            release_block(f, out);
            g_string_append_len(out, f->line->str, (gssize)f->line->len);
        } else {
            f->hidden_lines += f->block_lines + 1;
            g_string_truncate(f->block, 0);
            f->block_lines = 0;
        }
        g_string_truncate(f->line, 0);
        return;
    }
    gboolean ptxas = len >= PREFIX_LEN && memcmp(s, PREFIX, PREFIX_LEN) == 0;
    gboolean indented = f->block_lines && len > 0 && (s[0] == ' ' || s[0] == '\t');
    if (!ptxas && !indented) {
        pass_line(f, out);
        f->passing = FALSE;
        return;
    }
    if (ptxas && !is_log_line(s, len))
        f->block_failed = TRUE;
    g_string_append_len(f->block, f->line->str, (gssize)f->line->len);
    f->block_lines++;
    g_string_truncate(f->line, 0);
    if (f->block->len > BLOCK_CAP)
        release_block(f, out);
}

/* Whether the held start of a line already shows that it is none of: a
 * ptxas line, an indented line or the blank line of a held run. */
static gboolean cannot_be_log(const cap_stdout_filter *f)
{
    const char *s = f->line->str;
    size_t n = f->line->len;
    if (f->block_lines) {
        if (s[0] == ' ' || s[0] == '\t' || s[0] == '\n')
            return FALSE;
        if (s[0] == '\r' && (n == 1 || s[1] == '\n'))
            return FALSE;
    }
    size_t k = MIN(n, (size_t)PREFIX_LEN);
    return memcmp(s, PREFIX, k) != 0;
}

void cap_stdout_filter_feed(cap_stdout_filter *f, const char *buf, size_t len,
                            GString *out)
{
    while (len > 0) {
        const char *nl = memchr(buf, '\n', len);
        size_t n = nl ? (size_t)(nl - buf) + 1 : len;
        if (f->passing) {
            g_string_append_len(out, buf, (gssize)n);
            if (nl)
                f->passing = FALSE;
        } else {
            for (size_t i = 0; i < n && !f->passing; i++) {
                g_string_append_c(f->line, buf[i]);
                if (buf[i] == '\n')
                    line_complete(f, out);
                else if (cannot_be_log(f) || f->line->len > LINE_CAP)
                    pass_line(f, out);
                if (f->passing) {
                    /* the rest of this line goes straight out */
                    g_string_append_len(out, buf + i + 1, (gssize)(n - i - 1));
                    if (nl)
                        f->passing = FALSE;
                    break;
                }
            }
        }
        buf += n;
        len -= n;
    }
}

void cap_stdout_filter_end(cap_stdout_filter *f, GString *out)
{
    release_block(f, out);
    g_string_append_len(out, f->line->str, (gssize)f->line->len);
    g_string_truncate(f->line, 0);
    f->passing = FALSE;
}

gboolean cap_user_set_ptxas_log(void)
{
    /* Triton's knobs.getenv_bool: these values, any case, are true. */
    const char *v = g_getenv("TRITON_DUMP_PTXAS_LOG");
    static const char *const yes[] = {"1", "true", "yes", "on"};
    for (size_t i = 0; v && i < G_N_ELEMENTS(yes); i++)
        if (g_ascii_strcasecmp(v, yes[i]) == 0)
            return TRUE;
    return FALSE;
}
