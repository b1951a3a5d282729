/* page_kernel.c - a kernel's page: the frame the script fills in.  The page
 * itself holds only names (escaped by libxml2); the text and bindings come
 * from the data/ID/ files.  Those of the first view are listed in the page
 * (first_view()), the others loaded by the script as they are needed. */
#include "page.h"
#include "report.h"

static xmlNodePtr button(xmlNodePtr parent, const char *id, const char *label,
                         const char *title)
{
    xmlNodePtr b = html_el(parent, "button", NULL, label);
    html_attr(b, "type", "button");
    html_attr(b, "id", id);
    if (title)
        html_attr(b, "title", title);
    return b;
}

static xmlNodePtr pane(xmlNodePtr parent, const char *id, const char *cls)
{
    xmlNodePtr sec = html_el(parent, "section", cls, NULL);
    html_attr(sec, "id", id);
    html_el(sec, "div", "bar", NULL);
    xmlNodePtr code = html_el(sec, "div", "code", NULL);
    html_attr(code, "tabindex", "0");
    return sec;
}

/* The data files the first view reads, as scripts of the page, the
 * same that app.js (initKernel) would ask for once the page is in: the
 * cost tables and the compiler's messages when the kernel has them
 * (meta.js: "cost", "diag"), the text and bindings of the stage opened
 * first ("first", when it is there) and the kernel's own source ("main").
 * Listed here, they load beside the page's script, in the one round trip,
 * instead of one after it; data.js then finds them in and asks for none
 * again.  The files stay where they are: later views and other pages read
 * them too.  Called under r->lock (the location table, r->sources). */
static void first_view(html_report *r, html_report_kernel *rk, GPtrArray *scripts)
{
    if (rk->cost)
        g_ptr_array_add(scripts, g_strdup_printf("data/%s/cost.js", rk->id));
    if (rk->n_diag)
        g_ptr_array_add(scripts, g_strdup_printf("data/%s/diag.js", rk->id));
    tk_stage_kind first = tk_kernel_first_stage(rk->kernel);
    if (first != TK_STAGE_UNKNOWN && tk_kernel_stage_expected(rk->kernel, first) &&
        tk_kernel_stage(rk->kernel, first)) {
        const char *name = tk_stage_kind_name(first);
        g_ptr_array_add(scripts, g_strdup_printf("data/%s/%s.text.js", rk->id, name));
        g_ptr_array_add(scripts, g_strdup_printf("data/%s/%s.bind.js", rk->id, name));
    }
    /* the source's key as data/files.js will give it: only a file the
     * kernel's data named (write_meta() stored it), "" when unreadable */
    tk_file_id own = tk_kernel_main_source(rk->kernel, tk_bundle_loctab(r->bundle));
    const char *key = own == TK_NO_FILE
                          ? NULL
                          : g_hash_table_lookup(r->sources, GUINT_TO_POINTER(own + 1));
    if (key && *key)
        g_ptr_array_add(scripts, g_strdup_printf("data/src/%s.js", key));
}

int html_report_kernel_write(html_report *r, html_report_kernel *rk)
{
    /* the report's scripts, then the data the page needs from the start */
    GPtrArray *scripts = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(scripts, g_strdup("assets/" HTML_REPORT_BUNDLE));
    g_ptr_array_add(scripts, g_strdup("data/files.js"));
    g_ptr_array_add(scripts, g_strdup_printf("data/%s/meta.js", rk->id));
    first_view(r, rk, scripts);
    g_ptr_array_add(scripts, NULL);
    /* the hash prefix sets two compiles of one kernel apart (tab titles,
     * the header), and so do the options that differ from its siblings */
    char *title = rk->apart && rk->apart[0]
                      ? g_strdup_printf("%s %.8s (%s) - tkview", tk_kernel_name(rk->kernel),
                                        tk_kernel_hash(rk->kernel), rk->apart)
                      : g_strdup_printf("%s %.8s - tkview", tk_kernel_name(rk->kernel),
                                        tk_kernel_hash(rk->kernel));
    xmlNodePtr body;
    xmlDocPtr doc = html_page_app_new(title, (const char *const *)scripts->pdata, &body);
    g_free(title);
    g_ptr_array_free(scripts, TRUE);
    html_attr(body, "class", "kernel");
    html_attr(body, "data-kernel", rk->id);

    xmlNodePtr top = html_el(body, "header", "top", NULL);
    xmlNodePtr back = html_el(top, "a", "back", "\xe2\x86\x90 all kernels");
    html_attr(back, "href", "index.html");
    xmlNodePtr h1 = html_el(top, "h1", NULL, tk_kernel_name(rk->kernel));
    html_attr(h1, "title", tk_kernel_hash(rk->kernel));
    if (rk->apart && rk->apart[0]) {
        /* what sets this compile apart from the other compiles of it */
        xmlNodePtr ap = html_el(h1, "span", "apart", rk->apart);
        html_attr(ap, "title", "What sets this compile apart from the other "
                             "compiles of this kernel");
    }
    char *prefix = g_strndup(tk_kernel_hash(rk->kernel), 8);
    xmlNodePtr hash = html_el(top, "span", "hash", prefix);
    html_attr(hash, "title", tk_kernel_hash(rk->kernel));
    g_free(prefix);
    xmlNodePtr modes = html_el(top, "nav", "modes", NULL);
    button(modes, "mode-kernel", "Kernel", "Source and IR, click to bind");
    xmlNodePtr pb = button(modes, "mode-passes", "Passes", "What each compiler pass changed");
    if (!rk->has_passes) {
        const char *why = tk_bundle_passes_not_asked(r->bundle);
        char *tip = why ? g_strdup_printf("No pass dumps were found for this kernel: %s", why)
                        : g_strdup("No pass dumps were found for this kernel");
        html_attr(pb, "disabled", "disabled");
        html_attr(pb, "title", tip);
        g_free(tip);
    }
    xmlNodePtr metaline = html_el(top, "div", "meta", NULL);
    html_attr(metaline, "id", "meta");
    if (!tk_kernel_has_stages(rk->kernel)) {
        /* Pass dumps alone (an MLIR_DUMP_PATH file, a stderr): the stage
         * tabs are all empty, so the page says why before anyone clicks,
         * and where to look instead. */
        xmlNodePtr note = html_el(top, "p", "warn",
                                rk->has_passes
                                    ? "No final stages were found for this "
                                      "kernel (pass dumps only): Passes "
                                      "shows what each compiler pass did."
                                    : "No final stages were found for this "
                                      "kernel.");
        html_attr(note, "id", "no-stages");
        const char *why = tk_kernel_stage_missing(rk->kernel, TK_STAGE_TTGIR);
        if (why)
            html_attr(note, "title", why);
    }

    xmlNodePtr kv = html_el(body, "main", "kernel-view", NULL);
    html_attr(kv, "id", "kernel-view");
    pane(kv, "src-pane", "pane src");
    pane(kv, "ir-pane", "pane ir");
    xmlNodePtr ir2 = pane(kv, "ir2-pane", "pane ir ir2");
    html_attr(ir2, "hidden", "hidden");
    xmlNodePtr side = html_el(kv, "aside", "info", NULL);
    html_attr(side, "id", "info");
    /* the compiler's messages (assets/diag.js), then the hot lines
     * (assets/cost.js), above what the selected line is */
    xmlNodePtr dg = html_el(side, "section", "diag", NULL);
    html_attr(dg, "id", "diag");
    html_attr(dg, "hidden", "hidden");
    xmlNodePtr hot = html_el(side, "section", "hot", NULL);
    html_attr(hot, "id", "hot");
    html_attr(hot, "hidden", "hidden");
    xmlNodePtr main = html_el(side, "div", NULL, NULL);
    html_attr(main, "id", "info-main");

    xmlNodePtr pv = html_el(body, "main", "pass-view", NULL);
    html_attr(pv, "id", "pass-view");
    html_attr(pv, "hidden", "hidden");

    xmlNodePtr tip = html_el(body, "div", "tip", NULL);
    html_attr(tip, "id", "tip");
    html_attr(tip, "hidden", "hidden");
    xmlNodePtr ns = html_el(body, "noscript", NULL,
                          "This report needs JavaScript (its own, from the report folder).");
    (void)ns;
    char rel[128];
    g_snprintf(rel, sizeof rel, "%s", rk->page);
    int rc = html_page_save(doc, r->out, rel, r->diags);
    xmlFreeDoc(doc);
    return rc;
}
