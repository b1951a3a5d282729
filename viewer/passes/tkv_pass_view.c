/* tkv_pass_view.c - the pass view: its parts (the pass list, the two sides
 * of the diff with the chunk map between them, the source pane below), the
 * kernel shown, its timeline read on a worker thread when the view is first
 * shown, and what the view shows, for the tests.  The other jobs are in the
 * files tkv_pass_view_private.h lists. */
#include "passes/tkv_pass_view_private.h"

#include "passes/tkv_pass_item.h"

G_DEFINE_FINAL_TYPE(TkvPassView, tkv_pass_view, GTK_TYPE_WIDGET)

enum { SIG_ANCHOR_CHANGED, SIG_LOADED, N_SIGS };
static guint sigs[N_SIGS];

enum { PROP_0, PROP_CHANGED_ONLY, N_PROPS };
static GParamSpec *props[N_PROPS];

void tkv_pass_view_emit_anchor_changed(TkvPassView *self)
{
    g_signal_emit(self, sigs[SIG_ANCHOR_CHANGED], 0);
}

static void show_message(TkvPassView *self, const char *text, gboolean busy)
{
    gtk_label_set_text(self->message, text);
    gtk_widget_set_visible(GTK_WIDGET(self->spinner), busy);
    gtk_spinner_set_spinning(self->spinner, busy);
    gtk_stack_set_visible_child_name(self->stack, "message");
}

/* ---- the timeline -------------------------------------------------------------------- */

static void on_timeline(GObject *source, GAsyncResult *res, gpointer data)
{
    TkvPassView *self = data;
    GError *error = NULL;
    const tk_timeline *tl = tkv_document_timeline_finish(TKV_DOCUMENT(source), res, &error);
    if (error || TKV_DOCUMENT(source) != self->doc) {
        g_clear_error(&error);
        g_object_unref(self);
        return;
    }
    self->tl = tl;
    self->tl_known = TRUE;
    const char *not_asked = tl ? NULL
                               : tk_bundle_passes_not_asked(tkv_document_get_bundle(self->doc));
    if (!tl && not_asked) {
        char *text = g_strdup_printf("No pass dumps came with this kernel: %s.", not_asked);
        show_message(self, text, FALSE);
        g_free(text);
    } else if (!tl) {
        show_message(self, "No pass dumps came with this kernel.\n\nCapture with "
                           "MLIR_ENABLE_DUMP=1 (and MLIR_DUMP_PATH) and LLVM_IR_ENABLE_DUMP=1, "
                           "keeping stderr, or use tkview capture, to see what each compiler "
                           "pass changed.", FALSE);
    } else {
        tkv_pass_view_fill_list(self);
        gtk_stack_set_visible_child_name(self->stack, "main");
        /* Start on the first pass that changed something. */
        char spec[32] = "0";
        for (size_t i = 0; i < tk_timeline_count(tl); i++)
            if (tk_timeline_get(tl, i)->effect == TK_EFFECT_CHANGED) {
                g_snprintf(spec, sizeof spec, "%zu", i);
                break;
            }
        tkv_pass_view_select(self, spec);
    }
    g_signal_emit(self, sigs[SIG_LOADED], 0);
    g_object_unref(self);
}

void tkv_pass_view_activate(TkvPassView *self)
{
    if (!self->has_kernel || self->tl_known || self->cancel)
        return;
    self->cancel = g_cancellable_new();
    show_message(self, "Reading the pass dumps…", TRUE);
    tkv_document_timeline_async(self->doc, self->kernel, self->cancel, on_timeline,
                                g_object_ref(self));
}

/* ---- the parts --------------------------------------------------------------------- */

static void on_focused(TkvCodePane *pane, TkvPassView *self) { self->focused = pane; }

static void on_map_scroll(TkvChunkMap *map, double fraction, TkvPassView *self)
{
    tkv_linked_scroll_to_fraction(self->linked, 1, fraction);
}

/* ---- public -------------------------------------------------------------------------- */

void tkv_pass_view_set_kernel(TkvPassView *self, TkvDocument *doc, guint kernel)
{
    if (self->cancel) {
        g_cancellable_cancel(self->cancel);
        g_clear_object(&self->cancel);
    }
    tkv_pass_view_clear_diff(self);
    TkvCodeView *sv = tkv_code_pane_get_view(self->source_pane);
    tkv_code_view_set_matches(sv, NULL, 0, FALSE);
    tkv_code_view_set_selected(sv, 0, FALSE, FALSE);
    GtkSourceBuffer *empty = tkv_code_view_new_buffer("", 0, NULL);
    tkv_code_view_set_buffer(TKV_CODE_VIEW(sv), GTK_TEXT_BUFFER(empty));
    g_object_unref(empty);
    g_hash_table_remove_all(self->src_bufs);
    g_list_store_remove_all(self->items);
    g_clear_pointer(&self->spec, g_free);
    self->generation++;
    self->diff_pending = FALSE;
    g_set_object(&self->doc, doc);
    self->kernel = kernel;
    self->has_kernel = doc && tkv_document_get_kernel(doc, kernel);
    tkv_pass_view_actions_update(self);
    self->src_file = TKV_NO_FILE;
    self->src_line = 0;
    gboolean built = FALSE;
    self->tl = self->has_kernel ? tkv_document_get_timeline(doc, kernel, &built) : NULL;
    self->tl_known = FALSE;
    GtkStringList *files = gtk_string_list_new(NULL);
    if (self->has_kernel) {
        const tk_file_id *f;
        size_t nf = tkv_document_get_files(doc, kernel, &f);
        for (size_t i = 0; i < nf; i++) {
            char *base = g_path_get_basename(tkv_document_get_file_path(doc, f[i]));
            char *safe = g_utf8_make_valid(base, -1);
            gtk_string_list_append(files, safe);
            g_free(base);
            g_free(safe);
        }
        self->updating = TRUE;
        gtk_drop_down_set_model(tkv_code_pane_get_selector(self->source_pane), G_LIST_MODEL(files));
        self->updating = FALSE;
        if (nf)
            tkv_pass_view_show_source_file(self, f[0]);
    }
    g_object_unref(files);
    show_message(self, self->has_kernel ? "Select pass mode to read the pass dumps." : "", FALSE);
    if (gtk_widget_get_mapped(GTK_WIDGET(self)))
        tkv_pass_view_activate(self);
}

/* ---- what is shown, for the tests -------------------------------------------------------- */

const char *tkv_pass_view_get_load_state(TkvPassView *self)
{
    return !self->has_kernel ? "none" :
           !self->tl_known   ? (self->cancel ? "loading" : "idle") :
           !self->tl         ? "no-passes" : "ready";
}

const char *tkv_pass_view_get_message(TkvPassView *self)
{
    return gtk_label_get_text(self->message);
}
const tk_timeline *tkv_pass_view_get_timeline(TkvPassView *self) { return self->tl; }

const char *tkv_pass_view_get_count_text(TkvPassView *self)
{
    return gtk_label_get_text(self->count_label);
}

guint tkv_pass_view_get_listed_count(TkvPassView *self)
{
    return g_list_model_get_n_items(G_LIST_MODEL(self->filtered));
}

gboolean tkv_pass_view_get_changed_only(TkvPassView *self) { return self->changed_only; }

char **tkv_pass_view_get_selected_rows(TkvPassView *self)
{
    GPtrArray *specs = g_ptr_array_new();
    GtkBitset *set = gtk_selection_model_get_selection(GTK_SELECTION_MODEL(self->selection));
    GtkBitsetIter iter;
    guint pos;
    for (gboolean ok = gtk_bitset_iter_init_first(&iter, set, &pos); ok;
         ok = gtk_bitset_iter_next(&iter, &pos)) {
        TkvPassItem *it = g_list_model_get_item(G_LIST_MODEL(self->filtered), pos);
        g_ptr_array_add(specs, g_strdup(tkv_pass_item_get_spec(it)));
        g_object_unref(it);
    }
    gtk_bitset_unref(set);
    g_ptr_array_add(specs, NULL);
    return (char **)g_ptr_array_free(specs, FALSE);
}

const char *tkv_pass_view_get_selection(TkvPassView *self) { return self->spec; }
gboolean tkv_pass_view_get_diff_pending(TkvPassView *self) { return self->diff_pending; }
guint32 tkv_pass_view_get_dump_line(TkvPassView *self, int side, guint row)
{
    return tkv_pass_view_orig_line(self, side, row);
}

const char *tkv_pass_view_get_stats_text(TkvPassView *self)
{
    return gtk_label_get_text(self->stats_label);
}

const char *tkv_pass_view_get_diff_title(TkvPassView *self)
{
    return gtk_label_get_text(self->diff_title);
}

const tk_ir_diff *tkv_pass_view_get_diff(TkvPassView *self) { return self->diff; }
const tk_ir_diff_cut *tkv_pass_view_get_cut(TkvPassView *self) { return &self->cut; }

const tk_hunk *tkv_pass_view_get_view_hunks(TkvPassView *self, size_t *n)
{
    *n = self->view_hunks->len;
    return (const tk_hunk *)self->view_hunks->data;
}

int tkv_pass_view_get_change(TkvPassView *self, guint *count)
{
    *count = self->changes->len;
    return self->cur_change;
}

const tk_hunk *tkv_pass_view_get_changes(TkvPassView *self, size_t *n)
{
    *n = self->changes->len;
    return (const tk_hunk *)self->changes->data;
}

const char *tkv_pass_view_get_change_text(TkvPassView *self)
{
    return gtk_label_get_text(self->change_label);
}

TkvChunkMap *tkv_pass_view_get_chunk_map(TkvPassView *self) { return self->chunk_map; }
TkvLinkedScroll *tkv_pass_view_get_linked_scroll(TkvPassView *self) { return self->linked; }
TkvFindBar *tkv_pass_view_get_find_bar(TkvPassView *self) { return self->find; }
TkvCodePane *tkv_pass_view_get_side(TkvPassView *self, int side)
{
    return tkv_pass_view_side_pane(self, side);
}

TkvCodePane *tkv_pass_view_get_source_pane(TkvPassView *self) { return self->source_pane; }
tk_file_id tkv_pass_view_get_source_file(TkvPassView *self) { return self->src_file; }

/* ---- GObject ------------------------------------------------------------------------------ */

static void tkv_pass_view_map(GtkWidget *widget)
{
    GTK_WIDGET_CLASS(tkv_pass_view_parent_class)->map(widget);
    TkvPassView *self = TKV_PASS_VIEW(widget);
    tkv_linked_scroll_attach(self->linked);
    GtkScrollable *b = GTK_SCROLLABLE(tkv_pass_view_side_view(self, 1));
    tkv_chunk_map_set_adjustment(self->chunk_map, gtk_scrollable_get_vadjustment(b));
    tkv_pass_view_words_watch(self);
}

static void tkv_pass_view_dispose(GObject *object)
{
    TkvPassView *self = TKV_PASS_VIEW(object);
    if (self->cancel) {
        g_cancellable_cancel(self->cancel);
        g_clear_object(&self->cancel);
    }
    tkv_pass_view_fill_stop(self);
    tkv_pass_view_stop_holding(self);
    tkv_pass_view_words_free(self);
    if (self->find) {
        gtk_widget_unparent(GTK_WIDGET(self->find));
        self->find = NULL;
    }
    g_clear_object(&self->linked);
    g_clear_pointer(&self->diff, tk_ir_diff_free);
    gtk_widget_dispose_template(GTK_WIDGET(self), TKV_TYPE_PASS_VIEW);
    g_clear_object(&self->selection);
    g_clear_object(&self->items);
    g_clear_object(&self->doc);
    G_OBJECT_CLASS(tkv_pass_view_parent_class)->dispose(object);
}

static void tkv_pass_view_finalize(GObject *object)
{
    TkvPassView *self = TKV_PASS_VIEW(object);
    for (int s = 0; s < 2; s++)
        g_array_unref(self->orig[s]);
    g_array_unref(self->view_hunks);
    g_array_unref(self->changes);
    g_hash_table_unref(self->src_bufs);
    g_free(self->spec);
    g_free(self->sel_heading);
    G_OBJECT_CLASS(tkv_pass_view_parent_class)->finalize(object);
}

static void tkv_pass_view_get_property(GObject *object, guint id, GValue *value,
                                       GParamSpec *pspec)
{
    switch (id) {
    case PROP_CHANGED_ONLY:
        g_value_set_boolean(value, TKV_PASS_VIEW(object)->changed_only);
        break;
    default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void tkv_pass_view_set_property(GObject *object, guint id, const GValue *value,
                                       GParamSpec *pspec)
{
    switch (id) {
    case PROP_CHANGED_ONLY:
        tkv_pass_view_set_changed_only(TKV_PASS_VIEW(object), g_value_get_boolean(value));
        break;
    default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void tkv_pass_view_class_init(TkvPassViewClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    oc->dispose = tkv_pass_view_dispose;
    oc->finalize = tkv_pass_view_finalize;
    oc->get_property = tkv_pass_view_get_property;
    oc->set_property = tkv_pass_view_set_property;
    /* Only the passes that changed something are listed. */
    props[PROP_CHANGED_ONLY] =
        g_param_spec_boolean("changed-only", NULL, NULL, FALSE,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
    g_object_class_install_properties(oc, N_PROPS, props);
    wc->map = tkv_pass_view_map;
    sigs[SIG_ANCHOR_CHANGED] = g_signal_new("anchor-changed", G_TYPE_FROM_CLASS(klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 0);
    sigs[SIG_LOADED] = g_signal_new("loaded", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 0);
    g_type_ensure(TKV_TYPE_CODE_PANE);
    g_type_ensure(TKV_TYPE_CHUNK_MAP);
    gtk_widget_class_set_template_from_resource(wc, "/org/tkview/Viewer/ui/tkv_pass_view.ui");
    gtk_widget_class_bind_template_child(wc, TkvPassView, stack);
    gtk_widget_class_bind_template_child(wc, TkvPassView, spinner);
    gtk_widget_class_bind_template_child(wc, TkvPassView, message);
    gtk_widget_class_bind_template_child(wc, TkvPassView, outer);
    gtk_widget_class_bind_template_child(wc, TkvPassView, count_label);
    gtk_widget_class_bind_template_child(wc, TkvPassView, pass_list);
    gtk_widget_class_bind_template_child(wc, TkvPassView, diff_box);
    gtk_widget_class_bind_template_child(wc, TkvPassView, diff_title);
    gtk_widget_class_bind_template_child(wc, TkvPassView, stats_label);
    gtk_widget_class_bind_template_child(wc, TkvPassView, change_label);
    gtk_widget_class_bind_template_child(wc, TkvPassView, diff_paned);
    gtk_widget_class_bind_template_child(wc, TkvPassView, side_a);
    gtk_widget_class_bind_template_child(wc, TkvPassView, side_b);
    gtk_widget_class_bind_template_child(wc, TkvPassView, chunk_map);
    gtk_widget_class_bind_template_child(wc, TkvPassView, source_pane);
    gtk_widget_class_set_css_name(wc, "tkvpassview");
    tkv_pass_view_class_actions_init(wc);
}

/* The find bar's panes: both sides of the diff, then the source below. */
static void find_targets(gpointer data, GArray *targets, int *focused)
{
    TkvPassView *self = data;
    TkvFindTarget t[3] = {{tkv_pass_view_side_view(self, 0), "a"},
                          {tkv_pass_view_side_view(self, 1), "b"},
                          {tkv_code_pane_get_view(self->source_pane), "source"}};
    g_array_append_vals(targets, t, 3);
    TkvCodePane *f = tkv_pass_view_get_focused_pane(self);
    *focused = f == self->side_a ? 0 : f == self->side_b ? 1 : f == self->source_pane ? 2 : 0;
}

static void tkv_pass_view_init(TkvPassView *self)
{
    gtk_widget_init_template(GTK_WIDGET(self));
    self->find = TKV_FIND_BAR(tkv_find_bar_new(find_targets, self));
    gtk_widget_insert_after(GTK_WIDGET(self->find), self->diff_box,
                            gtk_widget_get_first_child(self->diff_box));
    self->view_hunks = g_array_new(FALSE, FALSE, sizeof(tk_hunk));
    self->orig[0] = g_array_new(FALSE, FALSE, sizeof(guint32));
    self->orig[1] = g_array_new(FALSE, FALSE, sizeof(guint32));
    self->changes = g_array_new(FALSE, FALSE, sizeof(tk_hunk));
    self->cur_change = -1;
    self->sel_side = -1;
    self->src_file = TKV_NO_FILE;
    self->src_bufs = g_hash_table_new_full(NULL, NULL, NULL, g_object_unref);
    self->linked = tkv_linked_scroll_new(GTK_TEXT_VIEW(tkv_pass_view_side_view(self, 0)),
                                         GTK_TEXT_VIEW(tkv_pass_view_side_view(self, 1)));

    tkv_pass_view_list_init(self);
    for (int s = 0; s < 2; s++) {
        TkvCodePane *p = tkv_pass_view_side_pane(self, s);
        TkvCodeView *v = tkv_code_pane_get_view(p);
        gtk_widget_set_visible(GTK_WIDGET(tkv_code_pane_get_selector(p)), FALSE);
        g_object_set_data(G_OBJECT(v), "tkv-pass-view", self);
        g_object_set_data(G_OBJECT(v), "tkv-side", GINT_TO_POINTER(s));
        tkv_code_view_set_line_state_func(v, tkv_pass_view_diff_line_state, v, FALSE);
        g_signal_connect(p, "focused", G_CALLBACK(on_focused), self);
    }
    g_signal_connect(self->source_pane, "focused", G_CALLBACK(on_focused), self);
    g_signal_connect(self->chunk_map, "scroll-to", G_CALLBACK(on_map_scroll), self);
    tkv_pass_view_actions_init(self);
    show_message(self, "", FALSE);
}
