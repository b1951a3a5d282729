/* tkv_test_diag.c - the compiler messages as the window shows them, for the
 * tests (tkv_test_state.h's "diag" member):
 *   "ready"    the document's messages are in (read on a worker),
 *   "failed_rows"  the names of the kernel list's rows that say "FAILED to
 *              compile",
 *   "heading"  the Diagnostics panel's heading,
 *   "rows"     its rows as shown, "SEVERITY ORIGIN[ CODE] | WHERE | MESSAGE",
 *   "said"     per row, what it says under its pass once "Open pass" ran
 *              (tk_diag_step_sentence()), or null,
 *   "source", "primary", "secondary"  per pane of the binding view, the
 *              lines its message column marks: {"LINE": level} (0 remark,
 *              1 warning, 2 error), over the text the pane shows now.
 */
#include "testing/tkv_test_state.h"

#include "app/tkv_kernel_item.h"
#include "document/tkv_diag_doc.h"
#include "widgets/tkv_code_pane.h"

static void write_marks(TkvBindView *bv, TkvPaneId pane, JsonBuilder *b)
{
    TkvCodeView *v = tkv_code_pane_get_view(tkv_bind_view_get_pane(bv, pane));
    guint n = tkv_code_view_get_line_count(v);
    json_builder_begin_object(b);
    for (guint l = 1; l <= n; l++) {
        int level = tkv_bind_view_diag_level(bv, pane, l);
        if (level < 0)
            continue;
        char key[16];
        g_snprintf(key, sizeof key, "%u", l);
        json_builder_set_member_name(b, key);
        json_builder_add_int_value(b, level);
    }
    json_builder_end_object(b);
}

void tkv_test_state_write_diag(TkvWindow *win, JsonBuilder *b)
{
    TkvDiagPanel *dp = tkv_window_get_diag_panel(win);
    TkvBindView *bv = tkv_window_get_bind_view(win);
    json_builder_set_member_name(b, "diag");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "ready");
    json_builder_add_boolean_value(b, tkv_diag_doc_is_ready(tkv_window_get_document(win)));
    /* the kernel list's rows that say their compile failed, by name */
    json_builder_set_member_name(b, "failed_rows");
    json_builder_begin_array(b);
    GListModel *items = tkv_window_get_kernel_items(win);
    for (guint i = 0; i < g_list_model_get_n_items(items); i++) {
        TkvKernelItem *it = g_list_model_get_item(items, i);
        if (g_str_has_prefix(tkv_kernel_item_get_subtitle(it), "FAILED to compile"))
            json_builder_add_string_value(b, tkv_kernel_item_get_name(it));
        g_object_unref(it);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "heading");
    json_builder_add_string_value(b, tkv_diag_panel_get_heading(dp));
    json_builder_set_member_name(b, "rows");
    json_builder_begin_array(b);
    char **rows = tkv_diag_panel_get_rows(dp);
    for (char **r = rows; *r; r++)
        json_builder_add_string_value(b, *r);
    json_builder_end_array(b);
    /* per row, what it says under its pass (null: nothing) */
    json_builder_set_member_name(b, "said");
    json_builder_begin_array(b);
    for (guint i = 0; rows[i]; i++) {
        const char *said = tkv_diag_panel_get_said(dp, i);
        if (said)
            json_builder_add_string_value(b, said);
        else
            json_builder_add_null_value(b);
    }
    g_strfreev(rows);
    json_builder_end_array(b);
    static const struct {
        const char *name;
        TkvPaneId pane;
    } panes[] = {{"source", TKV_PANE_SOURCE},
                 {"primary", TKV_PANE_PRIMARY},
                 {"secondary", TKV_PANE_SECONDARY}};
    for (size_t i = 0; i < G_N_ELEMENTS(panes); i++) {
        json_builder_set_member_name(b, panes[i].name);
        write_marks(bv, panes[i].pane, b);
    }
    json_builder_end_object(b);
}
