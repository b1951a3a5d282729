/* page.c - HTML pages with libxml2's tree API (page.h). */
#include "page.h"

#include <gio/gio.h>
#include <string.h>

#include "html_resources.h"

char *html_page_clean(const char *s, size_t len)
{
    GString *out = g_string_sized_new(len + 8);
    const char *p = s, *end = s + len;
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        if (c < 0x80) {
            if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
                g_string_append(out, "\xef\xbf\xbd");
            else
                g_string_append_c(out, (char)c);
            p++;
            continue;
        }
        gunichar u = g_utf8_get_char_validated(p, (gssize)(end - p));
        if (u == (gunichar)-1 || u == (gunichar)-2 || (u >= 0x80 && u < 0xa0)) {
            g_string_append(out, "\xef\xbf\xbd");
            p = (u == (gunichar)-1 || u == (gunichar)-2) ? p + 1 : g_utf8_next_char(p);
            continue;
        }
        const char *next = g_utf8_next_char(p);
        g_string_append_len(out, p, next - p);
        p = next;
    }
    return g_string_free(out, FALSE);
}

void html_text(xmlNodePtr parent, const char *text)
{
    if (!text)
        return;
    char *clean = html_page_clean(text, strlen(text));
    xmlAddChild(parent, xmlNewDocText(parent->doc, BAD_CAST clean));
    g_free(clean);
}

xmlNodePtr html_el(xmlNodePtr parent, const char *tag, const char *cls,
                 const char *text)
{
    xmlNodePtr n = xmlNewDocNode(parent->doc, NULL, BAD_CAST tag, NULL);
    xmlAddChild(parent, n);
    if (cls)
        html_attr(n, "class", cls);
    html_text(n, text);
    return n;
}

void html_attr(xmlNodePtr node, const char *name, const char *value)
{
    char *clean = html_page_clean(value ? value : "", value ? strlen(value) : 0);
    /* xmlSetProp stores VALUE as one text node: no entity is parsed in it,
     * and the serializer escapes '&', '<' and '"'. */
    xmlSetProp(node, BAD_CAST name, BAD_CAST clean);
    g_free(clean);
}

/* The stylesheet (assets/report.css) as a <style> element of HEAD, and the
 * page's policy allowing that element alone: the hash of its text, which
 * the serializer writes as it is (libxml2 escapes no text of a <style>).
 * Returns the policy (caller frees with g_free()), or NULL when the
 * stylesheet is not in the program (the page then links the file). */
static char *inline_css(xmlNodePtr head)
{
    GBytes *b = g_resource_lookup_data(html_get_resource(), "/org/tkview/html/report.css",
                                       G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
    if (!b)
        return NULL;
    gsize len;
    const guchar *css = g_bytes_get_data(b, &len);
    GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
    g_checksum_update(sum, css, (gssize)len);
    guint8 digest[32];
    gsize dlen = sizeof digest;
    g_checksum_get_digest(sum, digest, &dlen);
    g_checksum_free(sum);
    char *b64 = g_base64_encode(digest, dlen);
    char *csp = g_strdup_printf(HTML_PAGE_CSP_INLINE_CSS, b64);
    g_free(b64);
    xmlNodePtr style = xmlNewDocNode(head->doc, NULL, BAD_CAST "style", NULL);
    xmlAddChild(head, style);
    /* our own text, not a dump's: put as it is, so that the hash holds */
    xmlAddChild(style, xmlNewDocTextLen(head->doc, (const xmlChar *)css, (int)len));
    g_bytes_unref(b);
    return csp;
}

static xmlDocPtr page_new(const char *title, const char *const *scripts, int css_inline,
                          xmlNodePtr *body)
{
    xmlDocPtr doc = htmlNewDocNoDtD(NULL, NULL);
    xmlCreateIntSubset(doc, BAD_CAST "html", NULL, NULL);
    xmlNodePtr html = xmlNewDocNode(doc, NULL, BAD_CAST "html", NULL);
    xmlDocSetRootElement(doc, html);
    html_attr(html, "lang", "en");
    xmlNodePtr head = html_el(html, "head", NULL, NULL);
    xmlNodePtr m = html_el(head, "meta", NULL, NULL);
    html_attr(m, "charset", "utf-8");
    xmlNodePtr csp = html_el(head, "meta", NULL, NULL);
    html_attr(csp, "http-equiv", "Content-Security-Policy");
    html_attr(csp, "content", HTML_PAGE_CSP);
    m = html_el(head, "meta", NULL, NULL);
    html_attr(m, "name", "viewport");
    html_attr(m, "content", "width=device-width, initial-scale=1");
    m = html_el(head, "meta", NULL, NULL);
    html_attr(m, "name", "referrer");
    html_attr(m, "content", "no-referrer");
    html_el(head, "title", NULL, title);
    char *policy = css_inline ? inline_css(head) : NULL;
    if (policy) {
        html_attr(csp, "content", policy);
        g_free(policy);
    } else {
        xmlNodePtr link = html_el(head, "link", NULL, NULL);
        html_attr(link, "rel", "stylesheet");
        html_attr(link, "href", "assets/report.css");
    }
    for (size_t i = 0; scripts && scripts[i]; i++) {
        xmlNodePtr s = html_el(head, "script", NULL, NULL);
        html_attr(s, "src", scripts[i]);
        html_attr(s, "defer", "defer");
    }
    *body = html_el(html, "body", NULL, NULL);
    return doc;
}

xmlDocPtr html_page_new(const char *title, const char *const *scripts,
                      xmlNodePtr *body)
{
    return page_new(title, scripts, 0, body);
}

xmlDocPtr html_page_app_new(const char *title, const char *const *scripts,
                            xmlNodePtr *body)
{
    return page_new(title, scripts, 1, body);
}

int html_page_save(xmlDocPtr doc, html_outdir *o, const char *rel, tk_diags *diags)
{
    xmlChar *mem = NULL;
    int size = 0;
    htmlDocDumpMemoryFormat(doc, &mem, &size, 1);
    if (!mem) {
        tk_diags_add(diags, TK_DIAG_ERROR, rel, 0, "cannot serialize the page");
        return -1;
    }
    int rc = html_outdir_write(o, rel, mem, (size_t)size, diags);
    xmlFree(mem);
    return rc;
}
