/* page.c - HTML pages with libxml2's tree API (page.h). */
#include "page.h"

#include <string.h>

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

xmlDocPtr html_page_new(const char *title, const char *const *scripts,
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
    m = html_el(head, "meta", NULL, NULL);
    html_attr(m, "http-equiv", "Content-Security-Policy");
    html_attr(m, "content", HTML_PAGE_CSP);
    m = html_el(head, "meta", NULL, NULL);
    html_attr(m, "name", "viewport");
    html_attr(m, "content", "width=device-width, initial-scale=1");
    m = html_el(head, "meta", NULL, NULL);
    html_attr(m, "name", "referrer");
    html_attr(m, "content", "no-referrer");
    html_el(head, "title", NULL, title);
    xmlNodePtr link = html_el(head, "link", NULL, NULL);
    html_attr(link, "rel", "stylesheet");
    html_attr(link, "href", "assets/report.css");
    for (size_t i = 0; scripts && scripts[i]; i++) {
        xmlNodePtr s = html_el(head, "script", NULL, NULL);
        html_attr(s, "src", scripts[i]);
        html_attr(s, "defer", "defer");
    }
    *body = html_el(html, "body", NULL, NULL);
    return doc;
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
