/* page_kernel.c - a kernel's page: the frame the script fills in.  The page
 * itself holds only names (escaped by libxml2); the text and bindings come
 * from the data/ID/ files, loaded by the script as they are needed. */
#include "page.h"
#include "report.h"

static xmlNodePtr button(xmlNodePtr parent, const char *id, const char *label,
                         const char *title)
{
    xmlNodePtr b = tk_el(parent, "button", NULL, label);
    tk_attr(b, "type", "button");
    tk_attr(b, "id", id);
    if (title)
        tk_attr(b, "title", title);
    return b;
}

static xmlNodePtr pane(xmlNodePtr parent, const char *id, const char *cls)
{
    xmlNodePtr sec = tk_el(parent, "section", cls, NULL);
    tk_attr(sec, "id", id);
    tk_el(sec, "div", "bar", NULL);
    xmlNodePtr code = tk_el(sec, "div", "code", NULL);
    tk_attr(code, "tabindex", "0");
    return sec;
}

int tk_report_kernel_write(tk_report *r, tk_report_kernel *rk)
{
    /* the report's scripts, then the data the page needs from the start */
    GPtrArray *scripts = g_ptr_array_new_with_free_func(g_free);
    for (size_t i = 0; tk_report_scripts[i]; i++)
        g_ptr_array_add(scripts, g_strconcat("assets/", tk_report_scripts[i], NULL));
    g_ptr_array_add(scripts, g_strdup("data/files.js"));
    g_ptr_array_add(scripts, g_strdup_printf("data/%s/meta.js", rk->id));
    g_ptr_array_add(scripts, NULL);
    char *title = g_strdup_printf("%s - tkview", tk_kernel_name(rk->kernel));
    xmlNodePtr body;
    xmlDocPtr doc = tk_page_new(title, (const char *const *)scripts->pdata, &body);
    g_free(title);
    g_ptr_array_free(scripts, TRUE);
    tk_attr(body, "class", "kernel");
    tk_attr(body, "data-kernel", rk->id);

    xmlNodePtr top = tk_el(body, "header", "top", NULL);
    xmlNodePtr back = tk_el(top, "a", "back", "\xe2\x86\x90 all kernels");
    tk_attr(back, "href", "index.html");
    xmlNodePtr h1 = tk_el(top, "h1", NULL, tk_kernel_name(rk->kernel));
    tk_attr(h1, "title", tk_kernel_hash(rk->kernel));
    xmlNodePtr modes = tk_el(top, "nav", "modes", NULL);
    button(modes, "mode-kernel", "Kernel", "Source and IR, click to bind");
    xmlNodePtr pb = button(modes, "mode-passes", "Passes", "What each compiler pass changed");
    if (!rk->has_passes) {
        tk_attr(pb, "disabled", "disabled");
        tk_attr(pb, "title", "No pass dumps were found for this kernel");
    }
    xmlNodePtr metaline = tk_el(top, "div", "meta", NULL);
    tk_attr(metaline, "id", "meta");
    if (!tk_kernel_has_stages(rk->kernel)) {
        /* Pass dumps alone (an MLIR_DUMP_PATH file, a stderr): the stage
         * tabs are all empty, so the page says why before anyone clicks,
         * and where to look instead. */
        xmlNodePtr note = tk_el(top, "p", "warn",
                                rk->has_passes
                                    ? "No final stages were found for this "
                                      "kernel (pass dumps only): Passes "
                                      "shows what each compiler pass did."
                                    : "No final stages were found for this "
                                      "kernel.");
        tk_attr(note, "id", "no-stages");
        const char *why = tk_kernel_stage_missing(rk->kernel, TK_STAGE_TTGIR);
        if (why)
            tk_attr(note, "title", why);
    }

    xmlNodePtr kv = tk_el(body, "main", "kernel-view", NULL);
    tk_attr(kv, "id", "kernel-view");
    pane(kv, "src-pane", "pane src");
    pane(kv, "ir-pane", "pane ir");
    xmlNodePtr ir2 = pane(kv, "ir2-pane", "pane ir ir2");
    tk_attr(ir2, "hidden", "hidden");
    xmlNodePtr side = tk_el(kv, "aside", "info", NULL);
    tk_attr(side, "id", "info");
    /* the compiler's messages (assets/diag.js), then the hot lines
     * (assets/cost.js), above what the selected line is */
    xmlNodePtr dg = tk_el(side, "section", "diag", NULL);
    tk_attr(dg, "id", "diag");
    tk_attr(dg, "hidden", "hidden");
    xmlNodePtr hot = tk_el(side, "section", "hot", NULL);
    tk_attr(hot, "id", "hot");
    tk_attr(hot, "hidden", "hidden");
    xmlNodePtr main = tk_el(side, "div", NULL, NULL);
    tk_attr(main, "id", "info-main");

    xmlNodePtr pv = tk_el(body, "main", "pass-view", NULL);
    tk_attr(pv, "id", "pass-view");
    tk_attr(pv, "hidden", "hidden");

    xmlNodePtr tip = tk_el(body, "div", "tip", NULL);
    tk_attr(tip, "id", "tip");
    tk_attr(tip, "hidden", "hidden");
    xmlNodePtr ns = tk_el(body, "noscript", NULL,
                          "This report needs JavaScript (its own, from the report folder).");
    (void)ns;
    char rel[128];
    g_snprintf(rel, sizeof rel, "%s", rk->page);
    int rc = tk_page_save(doc, r->out, rel, r->diags);
    xmlFreeDoc(doc);
    return rc;
}
