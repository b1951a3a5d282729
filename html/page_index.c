/* page_index.c - index.html: what was captured, the note, and one row per
 * kernel with its metadata, stage line counts and pass counts. */
#include <libxml/HTMLparser.h>
#include <string.h>

#include "page.h"
#include "report.h"
#include "tkview-config.h"

/* The mark of RK's compiler messages (data_diag.c) in CELL: "FAILED" with
 * its first error, pinned to its line, as the title; or how many. */
static void index_diag(html_report *r, const html_report_kernel *rk,
                       xmlNodePtr cell)
{
    if (!rk->n_diag)
        return;
    size_t ki = tk_diag_set_find_kernel(r->diag, rk->kernel);
    const tk_diag_entry *err = NULL;
    for (size_t i = 0; !err && i < tk_diag_set_count(r->diag); i++) {
        const tk_diag_entry *e = tk_diag_set_entry(r->diag, i);
        if (e->kernel == ki && e->level == TK_DIAG_LEVEL_ERROR)
            err = e;
    }
    char *text = rk->failed ? g_strdup("FAILED")
                            : g_strdup_printf("%zu compiler message%s", rk->n_diag,
                                              rk->n_diag == 1 ? "" : "s");
    xmlNodePtr sp = html_el(cell, "span", rk->failed ? "dg-failed" : "dg-count", text);
    g_free(text);
    if (err) {
        char *base = err->n_stack ? g_path_get_basename(err->stack[0].file) : NULL;
        char *title = base ? g_strdup_printf("%s:%u: %s", base, err->stack[0].line,
                                             err->message)
                           : g_strdup(err->message);
        html_attr(sp, "title", title);
        g_free(title);
        g_free(base);
    }
}

static void cell_int(xmlNodePtr tr, int64_t v, const char *unit)
{
    if (v < 0) {
        html_el(tr, "td", "num unknown", "?");
        return;
    }
    char buf[48];
    g_snprintf(buf, sizeof buf, "%" G_GINT64_FORMAT "%s", (gint64)v, unit ? unit : "");
    html_el(tr, "td", "num", buf);
}

/* Parses the note's HTML (cmark's safe output) and moves its nodes into
 * PARENT: libxml2 re-serializes them, so nothing passes through as text. */
static void add_note(xmlNodePtr parent, const char *html)
{
    GString *wrapped = g_string_new("<html><body><div>");
    g_string_append(wrapped, html);
    g_string_append(wrapped, "</div></body></html>");
    htmlDocPtr nd = htmlReadMemory(wrapped->str, (int)wrapped->len, NULL, "UTF-8",
                                   HTML_PARSE_NONET | HTML_PARSE_NOERROR |
                                       HTML_PARSE_NOWARNING | HTML_PARSE_NOBLANKS);
    g_string_free(wrapped, TRUE);
    if (!nd)
        return;
    xmlNodePtr root = xmlDocGetRootElement(nd);
    xmlNodePtr body = root ? root->children : NULL;
    while (body && (body->type != XML_ELEMENT_NODE ||
                    xmlStrcmp(body->name, BAD_CAST "body")))
        body = body->next;
    xmlNodePtr div = body ? body->children : NULL;
    if (div)
        for (xmlNodePtr c = div->children; c; c = c->next)
            xmlAddChild(parent, xmlDocCopyNode(c, parent->doc, 1));
    xmlFreeDoc(nd);
}

/* The compiler as the kernels' metadata name it when the input is not a
 * bundle (a capture folder, a Triton cache): "Triton 3.6.0 for cuda:90",
 * each distinct version and target once.  NULL when none says. */
static char *compiler_of_kernels(const tk_bundle *b)
{
    GPtrArray *seen = g_ptr_array_new_with_free_func(g_free);
    for (size_t i = 0; i < tk_bundle_kernel_count(b); i++) {
        const tk_kernel_meta *m = tk_kernel_metadata(tk_bundle_kernel(b, i));
        if (!m || (!m->triton_version && !m->target))
            continue;
        char *one = g_strdup_printf("%s%s%s%s", m->triton_version ? "Triton " : "",
                                    m->triton_version ? m->triton_version : "",
                                    m->triton_version && m->target ? " for " : "",
                                    m->target ? m->target : "");
        gboolean dup = FALSE;
        for (size_t k = 0; k < seen->len && !dup; k++)
            dup = strcmp(seen->pdata[k], one) == 0;
        if (dup)
            g_free(one);
        else
            g_ptr_array_add(seen, one);
    }
    char *out = NULL;
    if (seen->len) {
        g_ptr_array_add(seen, NULL);
        out = g_strjoinv(", ", (char **)seen->pdata);
    }
    g_ptr_array_free(seen, TRUE);
    return out;
}

int html_report_index(html_report *r, const char *notes_html)
{
    /* nothing on the index is dynamic: no script */
    xmlNodePtr body;
    xmlDocPtr doc = html_page_new("tkview report", NULL, &body);
    html_attr(body, "class", "index");
    xmlNodePtr header = html_el(body, "header", "top", NULL);
    html_el(header, "h1", NULL, "tkview report");
    xmlNodePtr dl = html_el(body, "dl", "about", NULL);
    /* docs/html.md promises the compiler and the command: a bundle's
     * manifest names them; otherwise the kernels' metadata name the
     * compiler, and the page says the command was not recorded. */
    char *compiler = tk_bundle_compiler(r->bundle) ? NULL : compiler_of_kernels(r->bundle);
    struct { const char *k, *v; } about[] = {
        {"input", tk_bundle_path(r->bundle)},
        {"compiler", tk_bundle_compiler(r->bundle) ? tk_bundle_compiler(r->bundle)
                     : compiler                    ? compiler
                                                   : "unknown (no kernel metadata names it)"},
        {"command", tk_bundle_command(r->bundle)
                        ? tk_bundle_command(r->bundle)
                        : "not recorded (only a bundle made by tkview capture keeps the "
                          "command it ran)"},
        {"made by", "tkview " TKVIEW_VERSION},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(about); i++) {
        if (!about[i].v)
            continue;
        html_el(dl, "dt", NULL, about[i].k);
        html_el(dl, "dd", NULL, about[i].v);
    }
    g_free(compiler);
    if (tk_bundle_complete(r->bundle) == 0)
        html_el(body, "p", "warn", "The capture did not finish: some kernels or "
                                 "stages may be missing.");
    if (notes_html && *notes_html) {
        xmlNodePtr note = html_el(body, "section", "note", NULL);
        html_attr(note, "id", "note");
        add_note(note, notes_html);
    }
    xmlNodePtr table = html_el(body, "table", "kernels", NULL);
    html_attr(table, "id", "kernels");
    xmlNodePtr tr = html_el(html_el(table, "thead", NULL, NULL), "tr", NULL, NULL);
    const char *heads[] = {"kernel", "hash", "warps", "stages", "shared", "registers",
                           "spills"};
    for (size_t i = 0; i < G_N_ELEMENTS(heads); i++)
        html_el(tr, "th", NULL, heads[i]);
    /* A column per stage that some kernel's backend has (PTX and SASS for
     * NVIDIA, AMDGCN for AMD), in the library's order, named as it names
     * them. */
    gboolean column[TK_STAGE_COUNT] = {FALSE};
    int n_columns = 0;
    for (guint i = 0; i < r->kernels->len; i++)
        for (int s = 0; s < TK_STAGE_COUNT; s++)
            column[s] |= tk_kernel_stage_expected(
                g_array_index(r->kernels, html_report_kernel, i).kernel,
                (tk_stage_kind)s);
    for (int s = 0; s < TK_STAGE_COUNT; s++)
        if (column[s]) {
            html_el(tr, "th", NULL, tk_stage_kind_label((tk_stage_kind)s));
            n_columns++;
        }
    html_el(tr, "th", NULL, "passes");
    xmlNodePtr tbody = html_el(table, "tbody", NULL, NULL);
    guint n_passes_only = 0;
    for (guint i = 0; i < r->kernels->len; i++) {
        html_report_kernel *rk = &g_array_index(r->kernels, html_report_kernel, i);
        const tk_kernel_meta *m = tk_kernel_metadata(rk->kernel);
        tr = html_el(tbody, "tr", NULL, NULL);
        xmlNodePtr name_td = html_el(tr, "td", "name", NULL);
        xmlNodePtr a = html_el(name_td, "a", NULL, tk_kernel_name(rk->kernel));
        html_attr(a, "href", rk->page);
        if (rk->apart && rk->apart[0])
            html_el(name_td, "span", "apart", rk->apart);
        index_diag(r, rk, name_td);
        char hash[17];
        g_strlcpy(hash, tk_kernel_hash(rk->kernel), sizeof hash);
        xmlNodePtr td = html_el(tr, "td", "hash", hash);
        html_attr(td, "title", tk_kernel_hash(rk->kernel));
        cell_int(tr, m->num_warps, NULL);
        cell_int(tr, m->num_stages, NULL);
        cell_int(tr, m->shared_bytes, " B");
        cell_int(tr, m->registers, NULL);
        cell_int(tr, m->spill_bytes, " B");
        gboolean any_stage = tk_kernel_has_stages(rk->kernel);
        if (!any_stage) {
            /* One cell for the five stages: none was found at all. */
            td = html_el(tr, "td", "missing", "no final stages (pass dumps only)");
            char span[16];
            g_snprintf(span, sizeof span, "%d", n_columns);
            html_attr(td, "colspan", span);
            const char *why = tk_kernel_stage_missing(rk->kernel, TK_STAGE_TTGIR);
            if (why)
                html_attr(td, "title", why);
            n_passes_only++;
        }
        for (int s = 0; s < TK_STAGE_COUNT && any_stage; s++) {
            if (!column[s])
                continue;
            const tk_stage *st = tk_kernel_stage(rk->kernel, (tk_stage_kind)s);
            if (!tk_kernel_stage_expected(rk->kernel, (tk_stage_kind)s)) {
                /* Another backend's stage (SASS for an AMD kernel). */
                td = html_el(tr, "td", "num na", "");
                html_attr(td, "title", "not a stage of this kernel's target");
                continue;
            }
            if (!st) {
                html_el(tr, "td", "num missing", "-");
                continue;
            }
            char buf[64];
            g_snprintf(buf, sizeof buf, "%u", tk_stage_line_count(st));
            td = html_el(tr, "td", "num", buf);
            g_snprintf(buf, sizeof buf, "%u lines, %u instructions with a location",
                       tk_stage_line_count(st), rk->bound[s]);
            html_attr(td, "title", buf);
        }
        if (rk->n_passes < 0) {
            html_el(tr, "td", "num missing", "-");
        } else {
            char buf[64];
            g_snprintf(buf, sizeof buf, "%d (%d changed)", rk->n_passes, rk->n_changed);
            html_el(tr, "td", "num", buf);
        }
    }
    if (r->kernels->len == 0)
        html_el(body, "p", "warn", "No kernel was found in the input.");
    if (n_passes_only > 0) {
        char *text =
            n_passes_only == r->kernels->len
                ? g_strdup("These kernels come from pass dumps only (no final "
                           "stage files, no metadata): their pages show what "
                           "each compiler pass did, under Passes.")
                : g_strdup_printf(
                      "%u of the %u kernels come from pass dumps only (no "
                      "final stage files, no metadata): their pages show "
                      "what each compiler pass did, under Passes.",
                      n_passes_only, r->kernels->len);
        xmlNodePtr p = html_el(body, "p", "warn", text);
        html_attr(p, "id", "passes-only");
        g_free(text);
    }
    html_report_index_compares(r, body);
    xmlNodePtr foot = html_el(body, "footer", NULL, NULL);
    html_text(foot, "Opens from file:// with no server and no network. ");
    html_text(foot, "Click a kernel to see what each source line became.");
    int rc = html_page_save(doc, r->out, "index.html", r->diags);
    xmlFreeDoc(doc);
    return rc;
}
