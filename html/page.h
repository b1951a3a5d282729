/* page.h - HTML pages built with libxml2's tree API.
 *
 * Every piece of text goes into a text node or an attribute value, which the
 * serializer escapes: no string from a dump is ever pasted into markup.
 * Text is first made valid UTF-8 with control characters replaced
 * (html_page_clean), since a dump may hold any bytes.
 *
 * Each page carries a Content-Security-Policy: scripts and styles only from
 * the report's own files (and the report's own stylesheet in the page, by its
 * hash), no inline script or event handler, no remote load.
 */
#ifndef HTML_PAGE_H
#define HTML_PAGE_H

#include <libxml/HTMLtree.h>
#include <libxml/tree.h>

#include "outdir.h"

#define HTML_PAGE_CSP                                                           \
    "default-src 'none'; script-src 'self'; style-src 'self'; "              \
    "img-src 'self' data:; base-uri 'none'; form-action 'none'"

/* The policy of a page that holds the stylesheet (html_page_app_new()):
 * the one <style> whose text has the SHA-256 (base64) put for %s. */
#define HTML_PAGE_CSP_INLINE_CSS                                                \
    "default-src 'none'; script-src 'self'; style-src 'self' 'sha256-%s'; "  \
    "img-src 'self' data:; base-uri 'none'; form-action 'none'"

/* A new page with TITLE, the report's stylesheet and SCRIPTS (NULL-terminated
 * list of generator-made relative URLs, loaded with defer in order).
 * *BODY receives the <body>.  Free with xmlFreeDoc(). */
xmlDocPtr html_page_new(const char *title, const char *const *scripts,
                      xmlNodePtr *body);

/* html_page_new() for a page that is an application (a kernel page, a
 * comparison): the stylesheet in the page, not linked.  A linked one is a
 * request the page's scripts wait for (a pending stylesheet blocks them):
 * on a busy machine the file came 100-200 ms after the page, before
 * anything could be drawn (issue 25, bench/README.md).  About 25 KB more
 * per page. */
xmlDocPtr html_page_app_new(const char *title, const char *const *scripts,
                            xmlNodePtr *body);

/* A child element TAG of PARENT with class CLS (may be NULL) holding TEXT
 * (may be NULL) as a text node. */
xmlNodePtr html_el(xmlNodePtr parent, const char *tag, const char *cls,
                 const char *text);

/* Sets attribute NAME to VALUE (cleaned like text). */
void html_attr(xmlNodePtr node, const char *name, const char *value);

/* Appends TEXT as a text node. */
void html_text(xmlNodePtr parent, const char *text);

/* LEN bytes of S as valid UTF-8, control characters but tab and newline
 * shown as U+FFFD.  Caller frees with g_free(). */
char *html_page_clean(const char *s, size_t len);

/* Serializes DOC as the file REL of the report.  Returns 0 or -1. */
int html_page_save(xmlDocPtr doc, html_outdir *o, const char *rel, tk_diags *diags);

#endif
