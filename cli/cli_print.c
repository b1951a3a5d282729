/* cli_print.c - the CLI's text output: printf whose every "%s" (and "%c")
 * argument goes through cli_escape().  Kernel names, paths, pass names
 * and IR text all come from dumps someone mailed; printed through these,
 * none can reach the terminal with a raw control character, whatever the
 * call site remembers to do.  The escaping itself (cli_escape) lives
 * here too, so the rest of cli_common.c only calls down into this file.
 * Also the JSON values that commands wrote alike: a count or a string, or
 * null. */
#include "cli.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

/* Escapes every byte of S[0..N) as \xNN. */
static void append_hex(GString *g, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        g_string_append_printf(g, "\\x%02x", (unsigned char)s[i]);
}

/* The length of the valid UTF-8 character at S (at most N bytes left) that
 * may reach a terminal as it is, or 0 when its bytes must be escaped: a C0
 * control but tab, DEL, a C1 control (U+0080..U+009F: U+009B is a CSI that
 * a terminal obeys like ESC [), or bytes that are not valid UTF-8 (a raw
 * 0x9B byte is CSI to an 8-bit terminal). */
static size_t printable_len(const char *s, size_t n)
{
    unsigned char ch = (unsigned char)s[0];
    if (ch < 0x80)
        return ((ch < 0x20 && ch != '\t') || ch == 0x7f) ? 0 : 1;
    gunichar c = g_utf8_get_char_validated(s, (gssize)n);
    if (c == (gunichar)-1 || c == (gunichar)-2)
        return 0;
    if (c >= 0x80 && c <= 0x9f)
        return 0;
    return (size_t)(g_utf8_next_char(s) - s);
}

char *cli_escape(const char *s, size_t len)
{
    GString *g = g_string_sized_new(len + 8);
    const char *run = s;
    for (size_t i = 0; i < len;) {
        size_t n = printable_len(s + i, len - i);
        if (n) {
            i += n;
            continue;
        }
        g_string_append_len(g, run, s + i - run);
        /* An invalid byte is escaped alone (what follows may be valid);
         * a C1 control's two bytes together. */
        unsigned char ch = (unsigned char)s[i];
        size_t bad = 1;
        if (ch == 0xc2 && i + 1 < len &&
            (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9f)
            bad = 2;
        append_hex(g, s + i, bad);
        i += bad;
        run = s + i;
    }
    g_string_append_len(g, run, s + len - run);
    return g_string_free(g, FALSE);
}

/* Formats FMT like vprintf into OUT, escaping string and character
 * arguments.  Handles the conversions C17 defines (flags, width and
 * precision, "*" included; length modifiers hh h l ll j z t L). */
static void format_escaped(GString *out, const char *fmt, va_list ap)
{
    for (const char *p = fmt; *p;) {
        if (*p != '%') {
            const char *q = strchr(p, '%');
            size_t n = q ? (size_t)(q - p) : strlen(p);
            g_string_append_len(out, p, (gssize)n);
            p += n;
            continue;
        }
        const char *start = p++;
        if (*p == '%') {
            g_string_append_c(out, '%');
            p++;
            continue;
        }
        /* flags, width, precision: "*" fetched now, written as numbers */
        GString *spec = g_string_new("%");
        while (*p && strchr("-+ #0", *p))
            g_string_append_c(spec, *p++);
        if (*p == '*') {
            g_string_append_printf(spec, "%d", va_arg(ap, int));
            p++;
        } else {
            while (*p >= '0' && *p <= '9')
                g_string_append_c(spec, *p++);
        }
        int precision = -1;
        if (*p == '.') {
            p++;
            if (*p == '*') {
                precision = va_arg(ap, int);
                p++;
            } else {
                precision = 0;
                while (*p >= '0' && *p <= '9')
                    precision = precision * 10 + (*p++ - '0');
            }
        }
        char len[3] = {0};
        if ((p[0] == 'h' && p[1] == 'h') || (p[0] == 'l' && p[1] == 'l')) {
            len[0] = p[0];
            len[1] = p[1];
            p += 2;
        } else if (*p && strchr("hljztL", *p)) {
            len[0] = *p++;
        }
        char conv = *p ? *p++ : '\0';
        char *piece = NULL;
        if (conv == 's') {
            const char *s = va_arg(ap, const char *);
            if (!s)
                s = "(null)";
            size_t n = precision >= 0 ? strnlen(s, (size_t)precision) : strlen(s);
            char *esc = cli_escape(s, n);
            g_string_append_c(spec, 's');
            piece = g_strdup_printf(spec->str, esc);
            g_free(esc);
        } else if (conv == 'c') {
            char ch = (char)va_arg(ap, int);
            piece = cli_escape(&ch, 1);
        } else {
            if (precision >= 0)
                g_string_append_printf(spec, ".%d", precision);
            g_string_append(spec, len);
            g_string_append_c(spec, conv);
            switch (conv) {
            case 'd':
            case 'i':
            case 'u':
            case 'x':
            case 'X':
            case 'o':
                if (len[0] == 'l' && len[1] == 'l')
                    piece = g_strdup_printf(spec->str, va_arg(ap, long long));
                else if (len[0] == 'l')
                    piece = g_strdup_printf(spec->str, va_arg(ap, long));
                else if (len[0] == 'z')
                    piece = g_strdup_printf(spec->str, va_arg(ap, size_t));
                else if (len[0] == 'j')
                    piece = g_strdup_printf(spec->str, va_arg(ap, intmax_t));
                else if (len[0] == 't')
                    piece = g_strdup_printf(spec->str, va_arg(ap, ptrdiff_t));
                else
                    piece = g_strdup_printf(spec->str, va_arg(ap, int));
                break;
            case 'f':
            case 'F':
            case 'e':
            case 'E':
            case 'g':
            case 'G':
            case 'a':
            case 'A':
                if (len[0] == 'L')
                    piece = g_strdup_printf(spec->str, va_arg(ap, long double));
                else
                    piece = g_strdup_printf(spec->str, va_arg(ap, double));
                break;
            case 'p':
                piece = g_strdup_printf(spec->str, va_arg(ap, void *));
                break;
            default: /* not a conversion: shown as written */
                piece = g_strndup(start, (gsize)(p - start));
                break;
            }
        }
        g_string_append(out, piece);
        g_free(piece);
        g_string_free(spec, TRUE);
    }
}

void cli_vfprintf(FILE *f, const char *fmt, va_list ap)
{
    GString *out = g_string_new(NULL);
    format_escaped(out, fmt, ap);
    fwrite(out->str, 1, out->len, f);
    g_string_free(out, TRUE);
}

void cli_fprintf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vfprintf(f, fmt, ap);
    va_end(ap);
}

void cli_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vfprintf(stdout, fmt, ap);
    va_end(ap);
}

void cli_json_int_or_null(JsonBuilder *j, const char *name, int64_t v)
{
    json_builder_set_member_name(j, name);
    if (v >= 0)
        json_builder_add_int_value(j, v);
    else
        json_builder_add_null_value(j);
}

void cli_json_str_or_null(JsonBuilder *j, const char *name, const char *s)
{
    json_builder_set_member_name(j, name);
    if (s)
        cli_json_string(j, s, strlen(s));
    else
        json_builder_add_null_value(j);
}
