/* notes.c - the --notes Markdown file, rendered with cmark in safe mode:
 * raw HTML in the note is left out and links with javascript:, vbscript:,
 * file: or data: (other than images) are dropped, so a note cannot run
 * anything in the report.  page_index.c parses the result into the page
 * with libxml2, which the CSP then guards a second time. */
#include <cmark.h>
#include <string.h>

#include "report.h"

#define NOTES_MAX_BYTES (4u << 20)

char *tk_report_notes(const char *path, tk_diags *diags)
{
    char *text = NULL;
    gsize len = 0;
    GError *err = NULL;
    if (!g_file_get_contents(path, &text, &len, &err)) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0, "cannot read the note: %s",
                     err->message);
        g_error_free(err);
        return NULL;
    }
    if (len > NOTES_MAX_BYTES || memchr(text, '\0', len)) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                     "the note is not a Markdown text file (binary, or over 4 MiB)");
        g_free(text);
        return NULL;
    }
    char *html = cmark_markdown_to_html(text, len, CMARK_OPT_SAFE | CMARK_OPT_VALIDATE_UTF8);
    g_free(text);
    char *out = g_strdup(html ? html : "");
    free(html);
    return out;
}
