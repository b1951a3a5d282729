/* cli_print.c - the CLI's text output: printf whose every "%s" (and "%c")
 * argument goes through cli_escape().  Kernel names, paths, pass names
 * and IR text all come from dumps someone mailed; printed through these,
 * none can reach the terminal with a raw control character, whatever the
 * call site remembers to do.  The escaping itself (cli_escape) lives
 * here too, so the rest of cli_common.c only calls down into this file. */
#include "cli.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

char *cli_escape(const char *s, size_t len)
{
    GString *g = g_string_sized_new(len + 8);
    const char *run = s;
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
            g_string_append_len(g, run, s + i - run);
            g_string_append_printf(g, "\\x%02x", ch);
            run = s + i + 1;
        }
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
