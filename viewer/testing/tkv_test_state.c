/* tkv_test_state.c - a window's state as JSON, for the tests. */
#include "testing/tkv_test_state.h"
#include "testing/tkv_test_geometry.h"

#include <string.h>

#include "panels/tkv_meta_panel.h"
#include "panels/tkv_stack_panel.h"
#include "passes/tkv_pass_view.h"
#include "testing/tkv_test_state_more.h"
#include "widgets/tkv_buffer_lines.h"
#include "widgets/tkv_chunk_map.h"
#include "widgets/tkv_linked_scroll.h"

/* ---- helpers ---------------------------------------------------------------- */

static void add_string(JsonBuilder *b, const char *name, const char *value)
{
    json_builder_set_member_name(b, name);
    if (!value) {
        json_builder_add_null_value(b);
        return;
    }
    char *v = g_utf8_make_valid(value, -1);
    json_builder_add_string_value(b, v);
    g_free(v);
}

static void add_int(JsonBuilder *b, const char *name, gint64 value)
{
    json_builder_set_member_name(b, name);
    json_builder_add_int_value(b, value);
}

static void add_bool(JsonBuilder *b, const char *name, gboolean value)
{
    json_builder_set_member_name(b, name);
    json_builder_add_boolean_value(b, value);
}

/* Writes LINES (guint32) as an array NAME and frees them. */
static void add_lines(JsonBuilder *b, const char *name, GArray *lines)
{
    json_builder_set_member_name(b, name);
    json_builder_begin_array(b);
    for (guint i = 0; i < lines->len; i++)
        json_builder_add_int_value(b, g_array_index(lines, guint32, i));
    json_builder_end_array(b);
    g_array_unref(lines);
}

static const char *file_path(TkvDocument *doc, tk_file_id file)
{
    return file != TKV_NO_FILE ? tkv_document_get_file_path(doc, file) : NULL;
}

/* ---- the find bar ------------------------------------------------------------------ */

/* What a view's find bar shows: its text, "k of n", the hits per pane,
 * the current one, how long the last search took. */
static void write_find(TkvFindBar *f, JsonBuilder *b)
{
    json_builder_set_member_name(b, "find");
    json_builder_begin_object(b);
    add_bool(b, "open", tkv_find_bar_is_open(f));
    add_string(b, "text", tkv_find_bar_get_text(f));
    add_string(b, "label", tkv_find_bar_get_label(f));
    add_int(b, "total", tkv_find_bar_get_total(f));
    json_builder_set_member_name(b, "last_ms");
    json_builder_add_double_value(b, tkv_find_bar_get_last_ms(f));
    json_builder_set_member_name(b, "panes");
    json_builder_begin_object(b);
    for (guint i = 0; i < tkv_find_bar_get_n_panes(f); i++) {
        guint n;
        const char *name = tkv_find_bar_get_pane(f, i, &n);
        add_int(b, name, n);
    }
    json_builder_end_object(b);
    const char *pane;
    TkvFindHit h;
    int k = tkv_find_bar_get_current(f, &pane, &h);
    add_int(b, "index", k);
    json_builder_set_member_name(b, "current");
    if (k < 0) {
        json_builder_add_null_value(b);
    } else {
        json_builder_begin_object(b);
        add_string(b, "pane", pane);
        add_int(b, "line", h.line);
        add_int(b, "start", h.start);
        add_int(b, "end", h.end);
        json_builder_end_object(b);
    }
    json_builder_end_object(b);
}

/* ---- the binding view ----------------------------------------------------------- */

static void write_code_pane(JsonBuilder *b, TkvCodePane *pane)
{
    TkvCodeView *v = tkv_code_pane_get_view(pane);
    add_lines(b, "selected", tkv_code_view_get_tagged_lines(v, "tkv-selected"));
    add_lines(b, "matches", tkv_code_view_get_tagged_lines(v, "tkv-match"));
    add_lines(b, "context", tkv_code_view_get_tagged_lines(v, "tkv-context"));
    add_lines(b, "approx", tkv_code_view_get_tagged_lines(v, "tkv-approx"));
    /* what the buffer knows of its lines: dimmed (not code), and the
     * location lines folded away now */
    GtkTextBuffer *tb = gtk_text_view_get_buffer(GTK_TEXT_VIEW(v));
    GArray *dim = g_array_new(FALSE, FALSE, sizeof(guint32));
    for (guint32 l = 1; tb && l <= (guint32)gtk_text_buffer_get_line_count(tb); l++)
        if (tkv_buffer_lines_is_dim(tb, l - 1))
            g_array_append_val(dim, l);
    add_lines(b, "dimmed", dim);
    add_lines(b, "hidden_locations",
              tb ? tkv_buffer_lines_hidden_location_lines(tb) : g_array_new(FALSE, FALSE, 4));
    GdkRectangle vis;
    gtk_text_view_get_visible_rect(GTK_TEXT_VIEW(v), &vis);
    /* the first line wholly in view (a line cut at the top is not) */
    GtkTextIter top;
    int top_y, top_h;
    gtk_text_view_get_line_at_y(GTK_TEXT_VIEW(v), &top, vis.y, NULL);
    gtk_text_view_get_line_yrange(GTK_TEXT_VIEW(v), &top, &top_y, &top_h);
    while (top_y < vis.y && gtk_text_iter_forward_line(&top))
        gtk_text_view_get_line_yrange(GTK_TEXT_VIEW(v), &top, &top_y, &top_h);
    add_int(b, "top_line", gtk_text_iter_get_line(&top) + 1);
    /* the lines GTK lays out with no height (hidden, or not measured): of
     * the first 4000, those with a zero-height y range */
    GArray *flat = g_array_new(FALSE, FALSE, sizeof(guint32));
    for (guint32 l = 1; tb && l <= (guint32)gtk_text_buffer_get_line_count(tb) && l <= 4000; l++) {
        GtkTextIter it;
        int y, h;
        gtk_text_buffer_get_iter_at_line(tb, &it, (int)l - 1);
        gtk_text_view_get_line_yrange(GTK_TEXT_VIEW(v), &it, &y, &h);
        if (h <= 0)
            g_array_append_val(flat, l);
    }
    add_lines(b, "flat_lines", flat);
    GtkAdjustment *hadj = gtk_scrollable_get_hadjustment(GTK_SCROLLABLE(v));
    json_builder_set_member_name(b, "hscroll");
    json_builder_add_double_value(b, hadj ? gtk_adjustment_get_value(hadj) : 0);
    /* the line at the vertical middle of the view (a hit centred) */
    GtkTextIter mid;
    gtk_text_view_get_line_at_y(GTK_TEXT_VIEW(v), &mid, vis.y + vis.height / 2, NULL);
    add_int(b, "center_line", gtk_text_iter_get_line(&mid) + 1);
    add_lines(b, "current", tkv_code_view_get_tagged_lines(v, "tkv-match-current"));
    add_lines(b, "folded", tkv_code_view_get_folded_lines(v));
    add_string(b, "match_text", tkv_code_pane_get_match_text(pane));
    add_int(b, "line_count", tkv_code_view_get_line_count(v));
    add_int(b, "cursor_line", tkv_code_view_get_cursor_line(v));
    /* the text of the first selected line, as the buffer holds it */
    GArray *sel = tkv_code_view_get_tagged_lines(v, "tkv-selected");
    char *text = NULL;
    if (tb && sel && sel->len) {
        GtkTextIter a, e;
        gtk_text_buffer_get_iter_at_line(tb, &a, (int)g_array_index(sel, guint32, 0) - 1);
        e = a;
        if (!gtk_text_iter_ends_line(&e))
            gtk_text_iter_forward_to_line_end(&e);
        text = gtk_text_buffer_get_text(tb, &a, &e, TRUE);
    }
    add_string(b, "selected_text", text);
    g_free(text);
    if (sel)
        g_array_unref(sel);
}

/* What the cost column of PANE shows, line -> text, for the lines that
 * show something; and the tooltip of line TIP (0: none). */
static void write_heat(TkvBindView *bv, TkvPaneId pane, guint tip, JsonBuilder *b)
{
    TkvCodeView *v = tkv_code_pane_get_view(tkv_bind_view_get_pane(bv, pane));
    json_builder_set_member_name(b, "heat");
    json_builder_begin_object(b);
    guint n = tkv_code_view_get_line_count(v);
    for (guint l = 1; l <= n; l++) {
        char *t = tkv_bind_view_heat_text(bv, pane, l);
        if (!t)
            continue;
        char key[16];
        g_snprintf(key, sizeof key, "%u", l);
        add_string(b, key, t);
        g_free(t);
    }
    json_builder_end_object(b);
    char *t = tip ? tkv_bind_view_heat_tip(bv, pane, tip) : NULL;
    add_string(b, "heat_tip", t ? t : "");
    g_free(t);
}

static void write_bind_view(TkvBindView *bv, TkvDocument *doc, JsonBuilder *b)
{
    add_bool(b, "exact", tkv_bind_view_get_exact(bv));
    add_int(b, "metric", tkv_bind_view_get_metric(bv));
    add_bool(b, "show_locations", tkv_bind_view_get_show_locations(bv));
    add_string(b, "notes", tkv_bind_view_get_notes_text(bv));
    write_find(tkv_bind_view_get_find_bar(bv), b);
    tk_stage_kind stage;
    tk_file_id file;
    guint line;
    TkvAnchorKind kind = tkv_bind_view_get_anchor(bv, &stage, &file, &line);
    json_builder_set_member_name(b, "anchor");
    json_builder_begin_object(b);
    add_string(b, "kind", kind == TKV_ANCHOR_SOURCE ? "source" :
                          kind == TKV_ANCHOR_IR     ? "ir" : "none");
    if (kind == TKV_ANCHOR_SOURCE)
        add_string(b, "file", tkv_document_get_file_path(doc, file));
    if (kind == TKV_ANCHOR_IR)
        add_string(b, "stage", tk_stage_kind_name(stage));
    if (kind != TKV_ANCHOR_NONE)
        add_int(b, "line", line);
    json_builder_end_object(b);

    json_builder_set_member_name(b, "source");
    json_builder_begin_object(b);
    tk_file_id shown = tkv_bind_view_get_file(bv);
    if (shown != TKV_NO_FILE) {
        add_string(b, "file", tkv_document_get_file_path(doc, shown));
        add_string(b, "resolved", tkv_document_get_source_path(doc, shown));
    }
    write_code_pane(b, tkv_bind_view_get_pane(bv, TKV_PANE_SOURCE));
    write_heat(bv, TKV_PANE_SOURCE, 0, b);
    json_builder_end_object(b);

    for (int w = 0; w < 2; w++) {
        TkvPaneId pane = w == 0 ? TKV_PANE_PRIMARY : TKV_PANE_SECONDARY;
        gboolean shown_pane = w == 0 || tkv_bind_view_get_second_visible(bv);
        tk_stage_kind s = tkv_bind_view_get_stage(bv, pane);
        json_builder_set_member_name(b, w == 0 ? "primary" : "secondary");
        json_builder_begin_object(b);
        add_bool(b, "visible", shown_pane);
        add_string(b, "stage", s != TK_STAGE_UNKNOWN ? tk_stage_kind_name(s) : "");
        if (shown_pane) {
            write_code_pane(b, tkv_bind_view_get_pane(bv, pane));
            write_heat(bv, pane, kind == TKV_ANCHOR_IR && stage == s ? line : 0, b);
        }
        json_builder_end_object(b);
    }
}

/* ---- the pass view ------------------------------------------------------------------ */

static void write_diff_side(TkvPassView *pv, JsonBuilder *b, int s)
{
    TkvCodePane *pane = tkv_pass_view_get_side(pv, s);
    TkvCodeView *v = tkv_code_pane_get_view(pane);
    json_builder_begin_object(b);
    add_string(b, "name", tk_ir_diff_name(tkv_pass_view_get_diff(pv), s));
    add_int(b, "rows", tkv_code_view_get_line_count(v));
    add_bool(b, "visible", gtk_widget_get_visible(GTK_WIDGET(pane)));
    const char *tags[] = {"tkv-diff-delete", "tkv-diff-insert", "tkv-diff-replace", "tkv-selected",
                          "tkv-match"};
    const char *names[] = {"delete", "insert", "replace", "selected", "matches"};
    GArray *shown = g_array_new(FALSE, FALSE, sizeof(guint32));
    for (int t = 0; t < 5; t++) {
        GArray *rows = tkv_code_view_get_tagged_lines(v, tags[t]);
        g_array_append_vals(shown, rows->data, rows->len);
        add_lines(b, names[t], rows);
    }
    /* The text of every highlighted row as the buffer holds it. */
    json_builder_set_member_name(b, "text");
    json_builder_begin_object(b);
    GtkTextBuffer *tb = gtk_text_view_get_buffer(GTK_TEXT_VIEW(v));
    for (guint i = 0; i < shown->len && i < 4000; i++) {
        guint32 r = g_array_index(shown, guint32, i);
        GtkTextIter s0, e0;
        gtk_text_buffer_get_iter_at_line(tb, &s0, (int)r - 1);
        e0 = s0;
        if (!gtk_text_iter_ends_line(&e0))
            gtk_text_iter_forward_to_line_end(&e0);
        /* Hidden characters too: the tail of a folded long line. */
        char *t = gtk_text_buffer_get_text(tb, &s0, &e0, TRUE);
        char key[16];
        g_snprintf(key, sizeof key, "%u", r);
        json_builder_set_member_name(b, key);
        json_builder_add_string_value(b, t);
        g_free(t);
    }
    json_builder_end_object(b);
    g_array_unref(shown);
    /* The changed words: the text of each range tagged as one, "ROW:TEXT"
     * (rows 1-based), in order. */
    json_builder_set_member_name(b, "words");
    tkv_pass_view_tag_all_words(pv); /* not only those in view */
    json_builder_begin_array(b);
    GtkTextTag *wt = gtk_text_tag_table_lookup(gtk_text_buffer_get_tag_table(tb), TKV_DIFF_WORD_TAG);
    GtkTextIter it;
    gtk_text_buffer_get_start_iter(tb, &it);
    for (int guard = 0; wt && guard < 4000; guard++) {
        if (!gtk_text_iter_starts_tag(&it, wt) && !gtk_text_iter_forward_to_tag_toggle(&it, wt))
            break;
        if (!gtk_text_iter_starts_tag(&it, wt))
            continue;
        GtkTextIter e = it;
        gtk_text_iter_forward_to_tag_toggle(&e, wt);
        char *t = gtk_text_buffer_get_text(tb, &it, &e, TRUE);
        char *item = g_strdup_printf("%d:%s", gtk_text_iter_get_line(&it) + 1, t);
        json_builder_add_string_value(b, item);
        g_free(item);
        g_free(t);
        it = e;
    }
    json_builder_end_array(b);
    add_int(b, "center_row",
            tkv_linked_scroll_get_center_row(tkv_pass_view_get_linked_scroll(pv), s));
    GtkAdjustment *adj = gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(v));
    json_builder_set_member_name(b, "scroll");
    json_builder_add_double_value(b, adj ? gtk_adjustment_get_value(adj) : 0);
    json_builder_set_member_name(b, "scroll_max");
    json_builder_add_double_value(b, adj ? MAX(0, gtk_adjustment_get_upper(adj) -
                                                   gtk_adjustment_get_page_size(adj)) : 0);
    add_string(b, "match_text", tkv_code_pane_get_match_text(pane));
    /* the current change's rows marked on this side: [first, n] (n 0: a
     * bar before row first), [] when none */
    guint bn, bf = tkv_code_view_get_current_block(v, &bn);
    json_builder_set_member_name(b, "current_block");
    json_builder_begin_array(b);
    if (bf) {
        json_builder_add_int_value(b, bf);
        json_builder_add_int_value(b, bn);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
}

static void write_timeline(const tk_timeline *tl, JsonBuilder *b)
{
    json_builder_set_member_name(b, "entries");
    json_builder_begin_array(b);
    for (size_t i = 0; i < tk_timeline_count(tl); i++) {
        const tk_timeline_entry *e = tk_timeline_get(tl, i);
        json_builder_begin_object(b);
        add_string(b, "pass", e->pass);
        add_int(b, "header_line", (gint64)e->header_line);
        add_string(b, "effect", tk_effect_name(e->effect));
        add_int(b, "added", e->added);
        add_int(b, "removed", e->removed);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
}

static void write_diff(TkvPassView *pv, TkvDocument *doc, JsonBuilder *b)
{
    const tk_ir_diff *d = tkv_pass_view_get_diff(pv);
    tk_diff_stats st = tk_ir_diff_stats(d);
    add_int(b, "added", st.added);
    add_int(b, "removed", st.removed);
    guint changes;
    int change = tkv_pass_view_get_change(pv, &changes);
    add_int(b, "changes", changes);
    add_int(b, "chunk_map_changes",
            tkv_chunk_map_get_change_count(tkv_pass_view_get_chunk_map(pv)));
    add_int(b, "change_index", change);
    add_string(b, "change_text", tkv_pass_view_get_change_text(pv));
    json_builder_set_member_name(b, "change_blocks");
    json_builder_begin_array(b);
    size_t nc;
    const tk_hunk *ch = tkv_pass_view_get_changes(pv, &nc);
    for (size_t i = 0; i < nc; i++) {
        json_builder_begin_array(b);
        json_builder_add_string_value(b, "change");
        json_builder_add_int_value(b, ch[i].a0);
        json_builder_add_int_value(b, ch[i].a1);
        json_builder_add_int_value(b, ch[i].b0);
        json_builder_add_int_value(b, ch[i].b1);
        json_builder_end_array(b);
    }
    json_builder_end_array(b);
    /* the diff's hunks, and as the views show them (replaced lines paired) */
    size_t nh;
    const tk_hunk *h;
    for (int x = 0; x < 2; x++) {
        json_builder_set_member_name(b, x ? "aligned_hunks" : "hunks");
        json_builder_begin_array(b);
        h = x ? tk_ir_diff_aligned(d, &nh) : tk_ir_diff_hunks(d, &nh);
        for (size_t i = 0; i < nh; i++) {
            json_builder_begin_array(b);
            json_builder_add_string_value(b, tk_hunk_tag_name(h[i].tag));
            json_builder_add_int_value(b, h[i].a0);
            json_builder_add_int_value(b, h[i].a1);
            json_builder_add_int_value(b, h[i].b0);
            json_builder_add_int_value(b, h[i].b1);
            json_builder_end_array(b);
        }
        json_builder_end_array(b);
    }
    /* The hunks over the rows shown, and what a diff too big to show whole
     * left out. */
    json_builder_set_member_name(b, "view_hunks");
    json_builder_begin_array(b);
    h = tkv_pass_view_get_view_hunks(pv, &nh);
    for (size_t i = 0; i < nh; i++) {
        json_builder_begin_array(b);
        json_builder_add_string_value(b, tk_hunk_tag_name(h[i].tag));
        json_builder_add_int_value(b, h[i].a0);
        json_builder_add_int_value(b, h[i].a1);
        json_builder_add_int_value(b, h[i].b0);
        json_builder_add_int_value(b, h[i].b1);
        json_builder_end_array(b);
    }
    json_builder_end_array(b);
    const tk_ir_diff_cut *cut = tkv_pass_view_get_cut(pv);
    json_builder_set_member_name(b, "cut");
    json_builder_begin_object(b);
    add_bool(b, "cut", cut->cut);
    add_int(b, "lines_shown", (gint64)cut->lines_shown);
    add_int(b, "lines_left", (gint64)cut->lines_left);
    add_int(b, "added_left", cut->added_left);
    add_int(b, "removed_left", cut->removed_left);
    add_int(b, "groups", cut->groups);
    add_int(b, "groups_shown", cut->groups_shown);
    json_builder_end_object(b);
    add_string(b, "stats_text", tkv_pass_view_get_stats_text(pv));
    json_builder_set_member_name(b, "a");
    write_diff_side(pv, b, 0);
    json_builder_set_member_name(b, "b");
    write_diff_side(pv, b, 1);
    json_builder_set_member_name(b, "source");
    json_builder_begin_object(b);
    TkvCodeView *sv = tkv_code_pane_get_view(tkv_pass_view_get_source_pane(pv));
    add_lines(b, "matches", tkv_code_view_get_tagged_lines(sv, "tkv-match"));
    add_lines(b, "selected", tkv_code_view_get_tagged_lines(sv, "tkv-selected"));
    const char *file = file_path(doc, tkv_pass_view_get_source_file(pv));
    add_string(b, "file", file ? file : "");
    json_builder_end_object(b);
}

static void write_pass_view(TkvPassView *pv, TkvDocument *doc, JsonBuilder *b)
{
    add_string(b, "state", tkv_pass_view_get_load_state(pv));
    add_string(b, "message", tkv_pass_view_get_message(pv));
    write_find(tkv_pass_view_get_find_bar(pv), b);
    const tk_timeline *tl = tkv_pass_view_get_timeline(pv);
    if (!tl)
        return;
    add_int(b, "count", (gint64)tk_timeline_count(tl));
    add_string(b, "count_text", tkv_pass_view_get_count_text(pv));
    add_int(b, "listed", tkv_pass_view_get_listed_count(pv));
    add_bool(b, "changed_only", tkv_pass_view_get_changed_only(pv));
    write_timeline(tl, b);
    json_builder_set_member_name(b, "selected_rows");
    json_builder_begin_array(b);
    char **rows = tkv_pass_view_get_selected_rows(pv);
    for (char **r = rows; *r; r++)
        json_builder_add_string_value(b, *r);
    g_strfreev(rows);
    json_builder_end_array(b);
    const char *spec = tkv_pass_view_get_selection(pv);
    add_string(b, "selected", spec ? spec : "");
    add_bool(b, "diff_pending", tkv_pass_view_get_diff_pending(pv));
    add_string(b, "title", tkv_pass_view_get_diff_title(pv));
    if (tkv_pass_view_get_diff(pv))
        write_diff(pv, doc, b);
}

/* ---- the side panels ---------------------------------------------------------------- */

static void write_stack_panel(TkvStackPanel *sp, TkvDocument *doc, JsonBuilder *b)
{
    add_string(b, "heading", tkv_stack_panel_get_heading(sp));
    add_bool(b, "inferred", tkv_stack_panel_get_inferred(sp));
    json_builder_set_member_name(b, "frames");
    json_builder_begin_array(b);
    const GArray *frames = tkv_stack_panel_get_frames(sp);
    for (guint i = 0; i < frames->len; i++) {
        const TkvShownFrame *f = &g_array_index(frames, TkvShownFrame, i);
        json_builder_begin_object(b);
        add_int(b, "stack", f->stack);
        add_string(b, "file", tkv_document_get_file_path(doc, f->frame.file));
        add_int(b, "line", f->frame.line);
        add_int(b, "col", f->frame.col);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    /* what the rows show (they are refilled, not made anew) */
    json_builder_set_member_name(b, "rows");
    json_builder_begin_array(b);
    GPtrArray *titles = tkv_stack_panel_get_row_titles(sp);
    for (guint i = 0; i < titles->len; i++)
        json_builder_add_string_value(b, g_ptr_array_index(titles, i));
    g_ptr_array_unref(titles);
    json_builder_end_array(b);
}

static void write_hot_panel(TkvHotPanel *hp, JsonBuilder *b)
{
    /* first: what follows fills a panel shown a kernel and not filled yet */
    add_bool(b, "filled", tkv_hot_panel_get_filled(hp));
    add_string(b, "heading", tkv_hot_panel_get_heading(hp));
    add_int(b, "metric", tkv_hot_panel_get_metric(hp));
    add_string(b, "scope", tkv_hot_panel_get_scope(hp));
    int needs, has;
    tkv_hot_panel_get_table_fit(hp, &needs, &has);
    add_int(b, "table_needs", needs);
    add_int(b, "table_has", has);
    json_builder_set_member_name(b, "rows");
    json_builder_begin_array(b);
    GArray *rows = tkv_hot_panel_get_rows(hp, 40);
    for (guint i = 0; i < rows->len; i++) {
        const TkvHotShownRow *r = &g_array_index(rows, TkvHotShownRow, i);
        json_builder_begin_array(b);
        json_builder_add_string_value(b, r->where);
        json_builder_add_double_value(b, r->exact);
        json_builder_add_double_value(b, r->inclusive);
        json_builder_add_double_value(b, r->shared);
        json_builder_end_array(b);
    }
    g_array_unref(rows);
    json_builder_end_array(b);
}

/* ---- the window ------------------------------------------------------------------------ */

static void write_error_page(TkvWindow *win, JsonBuilder *b)
{
    add_string(b, "error_title", tkv_window_get_error_title(win));
    char *text = tkv_window_get_error_text(win);
    add_string(b, "error_text", text);
    g_free(text);
    add_bool(b, "error_visible", tkv_window_get_error_visible(win));
}

void tkv_test_state_write_window(TkvWindow *win, JsonBuilder *b)
{
    TkvDocument *doc = tkv_window_get_document(win);
    const char *state = tkv_window_get_state(win);
    add_int(b, "id", gtk_application_window_get_id(GTK_APPLICATION_WINDOW(win)));
    add_string(b, "state", state);
    add_string(b, "path", doc ? tkv_document_get_path(doc) : NULL);
    add_string(b, "title", gtk_window_get_title(GTK_WINDOW(win)));
    add_string(b, "last_error", tkv_window_get_last_error(win));
    if (strcmp(state, "error") == 0)
        write_error_page(win, b);
    if (strcmp(state, "ready") != 0)
        return;
    add_string(b, "mode", tkv_window_get_mode(win));
    /* the layout: the side panel, and the widths the panes got */
    TkvBindView *bv = tkv_window_get_bind_view(win);
    json_builder_set_member_name(b, "layout");
    json_builder_begin_object(b);
    add_int(b, "window_width", gtk_widget_get_width(GTK_WIDGET(win)));
    add_bool(b, "sidebar_visible", tkv_window_get_sidebar_visible(win));
    add_int(b, "bind_view_width", gtk_widget_get_width(GTK_WIDGET(bv)));
    add_int(b, "source_width",
            gtk_widget_get_width(GTK_WIDGET(tkv_bind_view_get_pane(bv, TKV_PANE_SOURCE))));
    add_int(b, "primary_width",
            gtk_widget_get_width(GTK_WIDGET(tkv_bind_view_get_pane(bv, TKV_PANE_PRIMARY))));
    json_builder_end_object(b);
    tkv_test_geometry_write(GTK_WINDOW(win), b);
    guint listed;
    add_int(b, "kernel_count", tkv_window_get_kernel_count(win, &listed));
    add_int(b, "kernels_listed", listed);
    int kernel = tkv_window_get_kernel(win);
    const tk_kernel *k = kernel >= 0 ? tkv_document_get_kernel(doc, (guint)kernel) : NULL;
    json_builder_set_member_name(b, "kernel");
    if (k) {
        json_builder_begin_object(b);
        add_int(b, "index", kernel);
        add_string(b, "name", tk_kernel_name(k));
        add_string(b, "hash", tk_kernel_hash(k));
        json_builder_end_object(b);
    } else {
        json_builder_add_null_value(b);
    }
    const tk_diags *d = tkv_document_get_diags(doc);
    add_int(b, "problems", d ? (gint64)tk_diags_count_at_least(d, TK_DIAG_WARNING) : 0);
    json_builder_set_member_name(b, "bind");
    json_builder_begin_object(b);
    write_bind_view(tkv_window_get_bind_view(win), doc, b);
    json_builder_end_object(b);
    json_builder_set_member_name(b, "passes");
    json_builder_begin_object(b);
    write_pass_view(tkv_window_get_pass_view(win), doc, b);
    json_builder_end_object(b);
    json_builder_set_member_name(b, "compare");
    json_builder_begin_object(b);
    tkv_test_state_write_compare(tkv_window_get_compare_view(win), b);
    json_builder_end_object(b);
    json_builder_set_member_name(b, "stack");
    json_builder_begin_object(b);
    write_stack_panel(tkv_window_get_stack_panel(win), doc, b);
    json_builder_end_object(b);
    json_builder_set_member_name(b, "hot");
    json_builder_begin_object(b);
    write_hot_panel(tkv_window_get_hot_panel(win), b);
    json_builder_end_object(b);
    tkv_test_state_write_diag(win, b);
    char *meta = tkv_meta_panel_get_text(tkv_window_get_meta_panel(win));
    add_string(b, "meta", meta);
    g_free(meta);
    tkv_test_state_write_regs(win, b);
    tkv_test_state_write_configs(win, b);
}
