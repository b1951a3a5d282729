/* tkv_bind_view_panes.c - what each pane of the binding view holds: per IR
 * pane a buffer and a view per stage (made when first shown, and for the
 * shown panes' other stages in idle time), per source file a buffer (empty
 * lines for a file not at hand, so that its lines can still be selected),
 * the panes' headers, and the gutters' bound and unbound lines. */
#include "bind/tkv_bind_view_private.h"

#include "document/tkv_text.h"
#include "widgets/tkv_buffer_lines.h"

static const char *const stage_languages[TK_STAGE_COUNT] = {
    "tkview-mlir", "tkview-mlir", "tkview-llvm", "tkview-ptx", "tkview-sass",
    "tkview-amdgcn"};

/* GtkSourceView reads and validates a language's definitions (XML, with
 * its RELAX NG schema) when the first buffer of it is made, and keeps them
 * while one is alive: ~30 ms of the first view's main thread for the
 * stages' languages and Python's.  Done while a bundle loads on its worker
 * instead (the main thread waits for it then), once, with an empty buffer
 * per language kept for the process's life.  Not in a low-priority idle: a
 * load done before the window's first frames left no idle time, and the
 * languages were read in the first view after all (perf, attention_fwd). */
static void warm_languages(void)
{
    static GtkSourceBuffer *keep[TK_STAGE_COUNT + 1];
    GtkSourceLanguageManager *lm = gtk_source_language_manager_get_default();
    for (int s = 0; s <= TK_STAGE_COUNT; s++) {
        const char *id = s < TK_STAGE_COUNT ? stage_languages[s] : "python3";
        GtkSourceLanguage *l = gtk_source_language_manager_get_language(lm, id);
        if (l && !keep[s])
            keep[s] = gtk_source_buffer_new_with_language(l);
    }
}

void tkv_bind_view_warm_up(void)
{
    static gboolean done;
    if (!done)
        warm_languages();
    done = TRUE;
}

static gboolean text_is_blank(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return FALSE;
    return TRUE;
}

/* ---- gutters -------------------------------------------------------------- */

static TkvLineState ir_line_state(guint line, guint *count, gpointer data)
{
    TkvBindPaneRef *ref = data;
    TkvBindView *self = ref->view;
    if (!self->k)
        return TKV_LINE_BLANK;
    tk_stage_kind s = self->pane_stage[ref->which];
    const tk_stack_id *ids;
    if (tk_bind_line_stacks(self->ix, s, line, &ids))
        return TKV_LINE_BOUND;
    /* a missing stage's pane shows why it is missing: no IR lines */
    const tk_stage *st = tk_kernel_stage(self->k, s);
    if (!st)
        return TKV_LINE_BLANK;
    size_t len;
    const char *text = tk_stage_line(st, line, &len);
    return !text || text_is_blank(text, len) ? TKV_LINE_BLANK : TKV_LINE_UNBOUND;
}

static TkvLineState source_line_state(guint line, guint *count, gpointer data)
{
    TkvBindView *self = data;
    if (!self->k || self->file == TKV_NO_FILE)
        return TKV_LINE_BLANK;
    guint32 c = line < self->file_counts->len ? g_array_index(self->file_counts, guint32, line) : 0;
    *count = c;
    if (c)
        return TKV_LINE_BOUND;
    size_t len;
    const char *text = tkv_document_get_source_line(self->doc, self->file, line, &len);
    return !text || text_is_blank(text, len) ? TKV_LINE_BLANK : TKV_LINE_UNBOUND;
}

/* Per line of the shown file: how many lines of the primary stage it became
 * (in the current mode), from the index's reference list. */
void tkv_bind_view_update_file_counts(TkvBindView *self)
{
    g_array_set_size(self->file_counts, 0);
    if (self->k && self->file != TKV_NO_FILE) {
        const tk_source_ref *refs;
        size_t n = tk_bind_source_refs(self->ix, self->pane_stage[0], &refs);
        for (size_t i = 0; i < n; i++) {
            if (refs[i].file != self->file)
                continue;
            if (refs[i].line >= self->file_counts->len)
                g_array_set_size(self->file_counts, refs[i].line + 1);
            g_array_index(self->file_counts, guint32, refs[i].line) =
                self->exact ? refs[i].n_exact : refs[i].n_called;
        }
    }
    tkv_code_view_refresh_gutter(tkv_bind_view_source_view(self));
}

/* ---- buffers and views ------------------------------------------------------ */

void tkv_bind_view_split_code(const tk_stage *stage, const guint32 *lines, gsize n,
                              GArray **code, GArray **other)
{
    *code = g_array_new(FALSE, FALSE, sizeof(guint32));
    *other = g_array_new(FALSE, FALSE, sizeof(guint32));
    for (gsize i = 0; i < n; i++)
        g_array_append_val(tk_stage_line_kind(stage, lines[i]) == TK_LINE_INSTRUCTION ? *code
                                                                                     : *other,
                           lines[i]);
}

/* What the library says of each line of stage S, kept on its buffer B:
 * lines that are not code (drawn dimmed) and lines that only state a
 * location (hidden unless locations are shown). */
static void mark_line_kinds(TkvBindView *self, GtkTextBuffer *b, tk_stage_kind s)
{
    const tk_stage *st = tk_kernel_stage(self->k, s);
    GArray *dim = g_array_new(FALSE, FALSE, sizeof(guint32));
    GArray *loc = g_array_new(FALSE, FALSE, sizeof(guint32));
    for (guint32 l = 1; l <= tk_stage_line_count(st); l++) {
        tk_line_kind k = tk_stage_line_kind(st, l);
        if (k != TK_LINE_INSTRUCTION && k != TK_LINE_OTHER)
            g_array_append_val(dim, l);
        if (tk_stage_line_is_location(st, l))
            g_array_append_val(loc, l);
    }
    tkv_buffer_lines_set_dim(b, (const guint32 *)(void *)dim->data, dim->len);
    tkv_buffer_lines_set_location_lines(b, (const guint32 *)(void *)loc->data, loc->len);
    tkv_buffer_lines_hide_location_lines(b, !self->show_locations);
    g_array_unref(dim);
    g_array_unref(loc);
}

static GtkSourceBuffer *stage_buffer(TkvBindView *self, int which, tk_stage_kind s)
{
    if (!self->stage_buf[which][s]) {
        GString *text = tkv_text_from_stage(tk_kernel_stage(self->k, s));
        self->stage_buf[which][s] =
            tkv_code_view_new_buffer(text->str, (gssize)text->len, stage_languages[s]);
        g_string_free(text, TRUE);
        mark_line_kinds(self, GTK_TEXT_BUFFER(self->stage_buf[which][s]), s);
    }
    return self->stage_buf[which][s];
}

/* The first instruction line of stage S (1 when it has none): a stage
 * opens there, not on forty rows of #loc definitions. */
static guint first_instruction(TkvBindView *self, tk_stage_kind s)
{
    const tk_stage *st = tk_kernel_stage(self->k, s);
    for (guint32 l = 1; l <= tk_stage_line_count(st); l++)
        if (tk_stage_line_kind(st, l) == TK_LINE_INSTRUCTION)
            return l;
    return 1;
}

void tkv_bind_view_apply_show_locations(TkvBindView *self)
{
    for (int w = 0; w < TKV_BIND_VIEW_IR_PANES; w++)
        for (int s = 0; s < TK_STAGE_COUNT; s++)
            if (self->stage_buf[w][s])
                tkv_buffer_lines_hide_location_lines(GTK_TEXT_BUFFER(self->stage_buf[w][s]),
                                                     !self->show_locations);
}

/* Stage buffers are made when a pane first shows their stage.  Once a
 * kernel is shown, the shown panes' other stages are made in idle time, one
 * per call (highlighted in the background like any buffer), so that the first
 * switch to a stage does not pay for making its buffer (2-4 ms for 1500
 * lines of PTX or SASS) inside the switch.  A stage text larger than
 * PREFETCH_MAX_BYTES waits to be shown. */
#define PREFETCH_MAX_BYTES (4u << 20)

static TkvCodeView *stage_view(TkvBindView *self, int which, tk_stage_kind s)
{
    TkvCodeView *v = self->stage_view[which][s];
    if (!v) {
        v = tkv_code_pane_add_view(tkv_bind_view_ir_pane(self, which));
        tkv_code_view_set_line_state_func(v, ir_line_state, &self->pane_ref[which], FALSE);
        g_signal_connect(v, "line-selected", G_CALLBACK(tkv_bind_view_on_ir_line),
                         &self->pane_ref[which]);
        self->stage_view[which][s] = v;
        tkv_bind_view_update_heat(self);
    }
    GtkTextBuffer *b = GTK_TEXT_BUFFER(stage_buffer(self, which, s));
    if (gtk_text_view_get_buffer(GTK_TEXT_VIEW(v)) != b) {
        tkv_code_view_set_buffer(v, b);
        tkv_code_view_scroll_to_top(v, first_instruction(self, s));
    }
    return v;
}

static gboolean prefetch_one(gpointer data)
{
    TkvBindView *self = data;
    for (int w = 0; self->k && w < TKV_BIND_VIEW_IR_PANES; w++) {
        if (!tkv_bind_view_pane_shown(self, w))
            continue;
        for (guint i = 0; i < self->n_stages; i++) {
            tk_stage_kind s = self->stages[i];
            if ((!self->stage_buf[w][s] || !self->stage_view[w][s]) &&
                tk_stage_size(tk_kernel_stage(self->k, s)) <= PREFETCH_MAX_BYTES) {
                stage_view(self, w, s);
                return G_SOURCE_CONTINUE;
            }
        }
    }
    self->prefetch_id = 0;
    return G_SOURCE_REMOVE;
}

void tkv_bind_view_prefetch_stages(TkvBindView *self)
{
    if (!self->prefetch_id && self->k)
        self->prefetch_id = g_idle_add_full(G_PRIORITY_LOW, prefetch_one, self, NULL);
}

void tkv_bind_view_drop_buffers(TkvBindView *self)
{
    for (int w = 0; w < TKV_BIND_VIEW_IR_PANES; w++)
        for (int s = 0; s < TK_STAGE_COUNT; s++)
            g_clear_object(&self->stage_buf[w][s]);
    g_hash_table_remove_all(self->file_buf);
}

static const char *language_for(const char *path)
{
    if (g_str_has_suffix(path, ".py"))
        return "python3";
    GtkSourceLanguage *l = gtk_source_language_manager_guess_language(
        gtk_source_language_manager_get_default(), path, NULL);
    return l ? gtk_source_language_get_id(l) : NULL;
}

/* A file that is not at hand still gets a buffer, one line per line its
 * locations name, so that its lines can be selected and bound. */
static GString *placeholder_text(TkvBindView *self, tk_file_id file)
{
    guint max = 0;
    for (int s = 0; s < TK_STAGE_COUNT; s++) {
        const tk_source_ref *refs;
        size_t n = tk_bind_source_refs(self->ix, (tk_stage_kind)s, &refs);
        for (size_t i = 0; i < n; i++)
            if (refs[i].file == file && refs[i].line > max)
                max = refs[i].line;
    }
    GString *t = g_string_new(NULL);
    for (guint l = 1; l <= max; l++)
        g_string_append(t, l < max ? "\n" : "");
    return t;
}

static GtkSourceBuffer *file_buffer(TkvBindView *self, tk_file_id file)
{
    gpointer key = GUINT_TO_POINTER(file + 1);
    GtkSourceBuffer *b = g_hash_table_lookup(self->file_buf, key);
    if (b)
        return b;
    size_t len;
    const char *text = tkv_document_get_source_text(self->doc, file, &len);
    if (text) {
        b = tkv_code_view_new_buffer(text, (gssize)len,
                                     language_for(tkv_document_get_file_path(self->doc, file)));
    } else {
        GString *t = placeholder_text(self, file);
        b = tkv_code_view_new_buffer(t->str, (gssize)t->len, NULL);
        g_string_free(t, TRUE);
    }
    g_hash_table_insert(self->file_buf, key, b);
    return b;
}

/* ---- panes' headers -------------------------------------------------------- */

static void update_ir_title(TkvBindView *self, int which)
{
    const tk_stage *st = tk_kernel_stage(self->k, self->pane_stage[which]);
    char *base = g_path_get_basename(tk_stage_path(st));
    char *t = g_strdup_printf("%s · %u lines · %u bound", base, tk_stage_line_count(st),
                              tk_bind_bound_line_count(self->ix, self->pane_stage[which]));
    char *safe = g_utf8_make_valid(t, -1), *tip = g_utf8_make_valid(tk_stage_path(st), -1);
    tkv_code_pane_set_title(tkv_bind_view_ir_pane(self, which), safe, tip);
    g_free(base);
    g_free(t);
    g_free(safe);
    g_free(tip);
}

static void update_source_title(TkvBindView *self)
{
    const char *path = tkv_document_get_file_path(self->doc, self->file);
    const char *local = tkv_document_get_source_path(self->doc, self->file);
    char *t = local ? g_strdup(local) : g_strdup_printf("not at hand: %s", path);
    char *safe = g_utf8_make_valid(t, -1), *tip = g_utf8_make_valid(path, -1);
    tkv_code_pane_set_title(self->source_pane, safe, tip);
    g_free(t);
    g_free(safe);
    g_free(tip);
}

static void select_in_dropdown(TkvBindView *self, GtkDropDown *dd, guint pos)
{
    self->updating = TRUE;
    gtk_drop_down_set_selected(dd, pos);
    self->updating = FALSE;
}

static guint stage_position(TkvBindView *self, tk_stage_kind s)
{
    for (guint i = 0; i < self->n_stages; i++)
        if (self->stages[i] == s)
            return i;
    return GTK_INVALID_LIST_POSITION;
}

/* ---- what the panes show ---------------------------------------------------- */

void tkv_bind_view_show_stage(TkvBindView *self, int which, tk_stage_kind s)
{
    self->pane_stage[which] = s;
    tkv_code_pane_show_view(tkv_bind_view_ir_pane(self, which), stage_view(self, which, s));
    select_in_dropdown(self, tkv_code_pane_get_selector(tkv_bind_view_ir_pane(self, which)),
                       stage_position(self, s));
    update_ir_title(self, which);
    tkv_code_view_refresh_gutter(tkv_bind_view_ir_view(self, which));
    tkv_find_bar_refresh(self->find);
}

void tkv_bind_view_show_source_file(TkvBindView *self, tk_file_id file)
{
    if (self->file == file)
        return;
    self->file = file;
    tkv_code_view_set_buffer(tkv_bind_view_source_view(self),
                             GTK_TEXT_BUFFER(file_buffer(self, file)));
    for (guint i = 0; i < self->n_files; i++)
        if (self->files[i] == file)
            select_in_dropdown(self, tkv_code_pane_get_selector(self->source_pane), i);
    update_source_title(self);
    tkv_bind_view_update_file_counts(self);
    tkv_bind_view_update_regs(self); /* the peak's mark, in this file's buffer */
    tkv_bind_view_emit_file_changed(self);
    tkv_find_bar_refresh(self->find);
}

void tkv_bind_view_panes_init(TkvBindView *self)
{
    for (int w = 0; w < TKV_BIND_VIEW_IR_PANES; w++) {
        self->pane_ref[w] = (TkvBindPaneRef){self, w};
        tkv_code_view_set_line_state_func(tkv_bind_view_ir_view(self, w), ir_line_state,
                                          &self->pane_ref[w], FALSE);
    }
    tkv_code_view_set_line_state_func(tkv_bind_view_source_view(self), source_line_state, self,
                                      TRUE);
}
