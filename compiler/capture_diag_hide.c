/* capture_diag_hide.c - keeping off the terminal the MLIR remarks and
 * warnings that capture's MLIR_ENABLE_DIAGNOSTICS=warnings,remarks adds to
 * the program's stderr.
 *
 * Without that knob Triton's diagnostic handler shows errors only, so the
 * remarks ("PATH:L:C: remark: MMA version 3 acceleration not applied ...")
 * and warnings a capture turns on are not what the user's program would
 * print.  They are kept (the bundle's capture/stderr.txt, which `tkview
 * diagnostics` reads, gets every line the dump filter let through); only
 * the terminal goes without them, unless the user's own knob asked for them
 * ("warnings" shows warnings, "remarks" remarks and warnings).
 *
 * MLIR prints a diagnostic as its "PATH:L:C: LEVEL: MESSAGE" line, then,
 * when it can read the source, the source line and a line of carets under
 * it, then its notes ("PATH:L:C: note: ..."), each maybe with its own
 * source and caret lines.  A hidden diagnostic takes its notes and snippets
 * with it; an indented line after it (a kernel's source line is indented)
 * is held until the next line shows whether a caret line follows (a
 * snippet) or not (the program's own line, then shown).  Errors and
 * everything else are shown as they come.
 */
#include "capture.h"

#include <string.h>

struct cap_diag_hide {
    int show_level;     /* 0 errors only, 1 warnings too, 2 remarks too */
    gboolean hiding;    /* in a hidden diagnostic (its notes, snippets) */
    GString *held;      /* a line after one, maybe its source line */
    uint64_t hidden;
};

cap_diag_hide *cap_diag_hide_new(int show_level)
{
    cap_diag_hide *h = g_new0(cap_diag_hide, 1);
    h->show_level = show_level;
    h->held = g_string_new(NULL);
    return h;
}

void cap_diag_hide_free(cap_diag_hide *h)
{
    if (!h)
        return;
    g_string_free(h->held, TRUE);
    g_free(h);
}

uint64_t cap_diag_hide_hidden_lines(const cap_diag_hide *h)
{
    return h ? h->hidden : 0;
}

int cap_diag_hide_user_level(void)
{
    /* Triton's ir.cc reads the comma-separated words of the knob. */
    const char *v = g_getenv("MLIR_ENABLE_DIAGNOSTICS");
    if (!v)
        return 0;
    int level = 0;
    char **words = g_strsplit(v, ",", -1);
    for (char **w = words; *w; w++) {
        char *t = g_strstrip(*w);
        if (g_ascii_strcasecmp(t, "remarks") == 0)
            level = 2;
        else if (g_ascii_strcasecmp(t, "warnings") == 0 && level < 1)
            level = 1;
    }
    g_strfreev(words);
    return level;
}

/* The level word of an MLIR diagnostic line "PATH:L:C: WORD: ", or NULL:
 * "remark", "warning", "error", "note". */
static const char *level_of(const char *s, size_t len)
{
    static const char *const words[] = {": remark: ", ": warning: ", ": error: ", ": note: "};
    for (size_t k = 0; k < G_N_ELEMENTS(words); k++) {
        const char *w = memmem(s, len, words[k], strlen(words[k]));
        if (!w)
            continue;
        /* ":L:C" right before it, digits only */
        const char *q = w - 1;
        int colons = 0;
        while (q > s && (g_ascii_isdigit(*q) || *q == ':')) {
            if (*q == ':')
                colons++;
            q--;
        }
        if (colons >= 2 && g_ascii_isdigit(w[-1]))
            return words[k] + 2;
    }
    return NULL;
}

static gboolean caret_line(const char *s, size_t len)
{
    gboolean caret = FALSE;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '^')
            caret = TRUE;
        else if (s[i] != ' ' && s[i] != '~' && s[i] != '\n' && s[i] != '\r')
            return FALSE;
    }
    return caret;
}

/* Whether a diagnostic line of WORD is one the user would not see. */
static gboolean added(const cap_diag_hide *h, const char *word)
{
    if (g_str_has_prefix(word, "remark"))
        return h->show_level < 2;
    if (g_str_has_prefix(word, "warning"))
        return h->show_level < 1;
    return FALSE;
}

void cap_diag_hide_line(cap_diag_hide *h, const char *s, size_t len, GString *out)
{
    const char *word = level_of(s, len);
    if (h->held->len) {
        /* The held line and this caret line: the hidden one's snippet. */
        if (caret_line(s, len)) {
            h->hidden += 2;
            g_string_truncate(h->held, 0);
            return;
        }
        g_string_append_len(out, h->held->str, (gssize)h->held->len);
        g_string_truncate(h->held, 0);
        h->hiding = FALSE;
    }
    if (word && added(h, word)) {
        h->hiding = TRUE;
        h->hidden++;
        return;
    }
    if (h->hiding && word && g_str_has_prefix(word, "note")) {
        h->hidden++;
        return;
    }
    if (h->hiding && !word) {
        if (caret_line(s, len)) { /* a snippet whose source line was empty */
            h->hidden++;
            return;
        }
        /* A kernel's source line is indented (MLIR prints it as it is);
         * another line is the program's, shown without waiting. */
        if (len && (s[0] == ' ' || s[0] == '\t')) {
            g_string_append_len(h->held, s, (gssize)len);
            return;
        }
    }
    h->hiding = FALSE;
    g_string_append_len(out, s, (gssize)len);
}

void cap_diag_hide_end(cap_diag_hide *h, GString *out)
{
    g_string_append_len(out, h->held->str, (gssize)h->held->len);
    g_string_truncate(h->held, 0);
    h->hiding = FALSE;
}
