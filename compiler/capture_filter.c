/* capture_filter.c - which lines of a captured program's stderr to show.
 *
 * With LLVM_IR_ENABLE_DUMP, Triton's stderr is the LLVM print-after-all
 * output of every compile (hundreds of MB) with the program's own messages
 * in between.  The whole stream is kept in a file; the terminal gets only
 * the program's messages.  The rules (docs/capture.md):
 *
 *  - a pass dump header (tk_passes_sniff() recognises it, as the index
 *    will) starts dump text, and LLVM's pass manager chatter ("Running pass:"
 *    and the like) is dump text wherever it is;
 *  - an MLIR dump ends with its module: after a "}" in column 0 only blank
 *    lines and "#alias = ..." lines still belong to it;
 *  - an LLVM dump runs to the next header, except the last of a compile (the
 *    assembly printer's), which ends with "# End machine code for function";
 *  - a line that can only be the program talking (a Python traceback or
 *    warning, an "Error:" line, a compiler diagnostic "f.py:3:4: error:",
 *    LLVM's crash report, torch's "W1121 07:56:12" log lines) ends dump text
 *    wherever it appears.
 * Everything outside dump text is shown.  The checks look at a line's first
 * bytes only, so that 100 MB of IR costs little.
 */
#include "capture.h"

#include <string.h>

#include "tkdump/tk_lines.h"
#include "tkdump/tk_passes.h"

typedef enum { IN_TEXT, IN_MLIR, IN_LLVM } filter_mode;

struct cap_stderr_filter {
    filter_mode mode;
    gboolean mlir_closed;  /* the MLIR module's closing "}" was seen */
    gboolean last_of_compile; /* this LLVM dump is the assembly printer's */
    gboolean after_dump;   /* a dump just ended: its trailing blank lines
                              are still its own */
    uint64_t dump_lines;
    uint64_t shown_lines;
};

cap_stderr_filter *cap_stderr_filter_new(void)
{
    return g_new0(cap_stderr_filter, 1);
}

void cap_stderr_filter_free(cap_stderr_filter *f)
{
    g_free(f);
}

uint64_t cap_stderr_filter_dump_lines(const cap_stderr_filter *f)
{
    return f->dump_lines;
}

uint64_t cap_stderr_filter_shown_lines(const cap_stderr_filter *f)
{
    return f->shown_lines;
}

static gboolean starts(const char *s, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && memcmp(s, prefix, n) == 0;
}

static gboolean contains(const char *s, size_t len, const char *needle)
{
    return memmem(s, len, needle, strlen(needle)) != NULL;
}

static gboolean is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* LLVM's pass manager logging (StandardInstrumentations with debug logging,
 * which Triton turns on with the dumps). */
static gboolean is_pm_chatter(const char *s, size_t len)
{
    static const char *const prefixes[] = {
        "Running pass: ", "Running analysis: ", "Invalidating analysis: ",
        "Invalidating all non-preserved analyses", "Clearing all analysis",
        "Skipping pass", "Running pass '"};
    if (len == 0 || (s[0] != 'R' && s[0] != 'I' && s[0] != 'C' && s[0] != 'S'))
        return FALSE;
    for (size_t i = 0; i < G_N_ELEMENTS(prefixes); i++)
        if (starts(s, len, prefixes[i]))
            return TRUE;
    return FALSE;
}

/* "PATH:N:N: error:" (MLIR and LLVM diagnostics) or "PATH.py:N: XWarning:"
 * (Python warnings).  PATH has no blanks. */
static gboolean is_diagnostic(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && s[i] != ' ' && s[i] != '\t') {
        if (s[i] == ':' && i + 1 < len && is_digit(s[i + 1])) {
            size_t j = i + 1;
            while (j < len && is_digit(s[j]))
                j++;
            const char *rest = s + j;
            size_t rlen = len - j;
            if (starts(rest, rlen, ": ") && i >= 3 &&
                memcmp(s + i - 3, ".py", 3) == 0 &&
                contains(rest, rlen < 80 ? rlen : 80, "Warning"))
                return TRUE;
            if (starts(rest, rlen, ":")) {
                size_t k = 1;
                while (k < rlen && is_digit(rest[k]))
                    k++;
                if (k > 1 && (starts(rest + k, rlen - k, ": error:") ||
                              starts(rest + k, rlen - k, ": warning:") ||
                              starts(rest + k, rlen - k, ": note:") ||
                              starts(rest + k, rlen - k, ": remark:")))
                    return TRUE;
            }
        }
        i++;
    }
    return FALSE;
}

/* "ValueError: ...", "triton.compiler.errors.CompilationError: at 3:4:",
 * "KeyboardInterrupt": a dotted identifier ending in Error, Exception,
 * Warning or Interrupt, then ":" or the end of the line. */
static gboolean is_exception_line(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && (g_ascii_isalnum(s[i]) || s[i] == '_' || s[i] == '.'))
        i++;
    if (i == 0 || (i < len && s[i] != ':'))
        return FALSE;
    static const char *const ends[] = {"Error", "Exception", "Warning",
                                       "Interrupt", "Exit"};
    /* An IR block label ("handleError:   ; preds = %5") is not one. */
    size_t j = i + 1;
    while (j < len && s[j] == ' ')
        j++;
    if (j < len && s[j] == ';')
        return FALSE;
    for (size_t e = 0; e < G_N_ELEMENTS(ends); e++) {
        size_t n = strlen(ends[e]);
        if (i >= n && memcmp(s + i - n, ends[e], n) == 0)
            return i == len || i + 1 == len || s[i + 1] == ' ';
    }
    return FALSE;
}

/* glog-style log lines, as torch writes them: "W1121 07:56:12.345 ...". */
static gboolean is_log_line(const char *s, size_t len)
{
    return len >= 14 && strchr("IWEF", s[0]) && is_digit(s[1]) &&
           is_digit(s[2]) && is_digit(s[3]) && is_digit(s[4]) && s[5] == ' ' &&
           is_digit(s[6]) && is_digit(s[7]) && s[8] == ':' && is_digit(s[9]) &&
           is_digit(s[10]) && s[11] == ':';
}

/* A line only the program (or a crashing compiler) writes. */
static gboolean is_message(const char *s, size_t len)
{
    if (len == 0)
        return FALSE;
    char c = s[0];
    /* IR lines start with these, or with blanks: never a message. */
    if (c == ' ' || c == '\t' || c == ';' || c == '!' || c == '%' ||
        c == '#' || c == '}' || c == '@' || c == '$' || c == '^')
        return FALSE;
    static const char *const prefixes[] = {
        "Traceback (most recent call last):", "LLVM ERROR:",
        "PLEASE submit a bug report", "Stack dump:", "terminate called",
        "Segmentation fault", "Fatal Python error", "error: ", "warning: ",
        "During handling of the above exception",
        "The above exception was the direct cause"};
    for (size_t i = 0; i < G_N_ELEMENTS(prefixes); i++)
        if (starts(s, len, prefixes[i]))
            return TRUE;
    return is_log_line(s, len) || is_exception_line(s, len) ||
           is_diagnostic(s, len);
}

static gboolean is_header(const char *s, size_t len, filter_mode *kind)
{
    if (len < 8 || (s[0] != '/' && s[0] != ';' && s[0] != '*' && s[0] != '#'))
        return FALSE;
    if (s[0] == '#' && !starts(s, len, "# ***"))
        return FALSE; /* "#loc" aliases, MIR comments: no need to ask */
    if (s[0] == ';' && !starts(s, len, "; ***"))
        return FALSE;
    if (tk_passes_sniff(s, len) == TK_PASSES_FILE_NONE)
        return FALSE;
    *kind = s[0] == '/' ? IN_MLIR : IN_LLVM;
    return TRUE;
}

gboolean cap_stderr_filter_line(cap_stderr_filter *f, const char *s, size_t len)
{
    len = tk_lines_trim(s, len);
    filter_mode kind;
    if (is_header(s, len, &kind)) {
        f->mode = kind;
        f->mlir_closed = FALSE;
        /* The assembly printer is the last pass of a compile's codegen. */
        f->last_of_compile = kind == IN_LLVM &&
                             contains(s, len, "Assembly Printer");
        f->dump_lines++;
        return FALSE;
    }
    if (is_pm_chatter(s, len)) {
        f->dump_lines++;
        return FALSE;
    }
    if (f->mode != IN_TEXT && is_message(s, len)) {
        f->mode = IN_TEXT;
        f->after_dump = FALSE;
    }
    switch (f->mode) {
    case IN_MLIR:
        if (!f->mlir_closed) {
            if (len > 0 && s[0] == '}')
                f->mlir_closed = TRUE;
            f->dump_lines++;
            return FALSE;
        }
        if (len == 0 || s[0] == '#') {
            f->dump_lines++;
            return FALSE;
        }
        f->mode = IN_TEXT;
        break;
    case IN_LLVM:
        if (f->last_of_compile &&
            starts(s, len, "# End machine code for function")) {
            f->mode = IN_TEXT; /* this line is still the dump's */
            f->after_dump = TRUE;
        }
        f->dump_lines++;
        return FALSE;
    case IN_TEXT:
        if (f->after_dump && len == 0) {
            f->dump_lines++;
            return FALSE;
        }
        break;
    }
    f->after_dump = FALSE;
    f->shown_lines++;
    return TRUE;
}
