/* notes.c - the --notes Markdown file, rendered with cmark in safe mode:
 * raw HTML in the note is left out and links with javascript:, vbscript:,
 * file: or data: (other than images) are dropped, so a note cannot run
 * anything in the report.  page_index.c parses the result into the page
 * with libxml2, which the CSP then guards a second time. */
#include <cmark.h>
#include <string.h>

#include "report.h"
#include "tkdump/tk_input_file.h"

char *html_report_notes(const char *path, tk_diags *diags)
{
    /* A regular file of at most 4 MiB, opened without blocking
     * (tk_input_file.h): --notes on a FIFO or /dev/zero is refused. */
    size_t len = 0;
    char *why = NULL;
    char *text = tk_input_file_read(path, TK_INPUT_FILE_NOTES, &len, &why);
    if (!text) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0, "cannot read the note: %s",
                     why);
        g_free(why);
        return NULL;
    }
    if (memchr(text, '\0', len)) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                     "the note is not a Markdown text file (binary data)");
        g_free(text);
        return NULL;
    }
    char *html = cmark_markdown_to_html(text, len, CMARK_OPT_SAFE | CMARK_OPT_VALIDATE_UTF8);
    g_free(text);
    char *out = g_strdup(html ? html : "");
    free(html);
    return out;
}
