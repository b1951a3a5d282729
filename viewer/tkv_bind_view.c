/* tkv_bind_view.c - source and IR panes bound by the library's index. */
#include "tkv_bind_view.h"

#include <stdlib.h>
#include <string.h>

#include "tkv_text.h"

#define N_IR_PANES 2

static const char *const stage_titles[] = {"TTIR", "TTGIR", "LLVM IR", "PTX", "SASS"};
static const char *const stage_languages[] = {"tkview-mlir", "tkview-mlir", "tkview-llvm",
                                              "tkview-ptx", "tkview-sass"};

typedef struct {
    TkvBindView *view;
    int which; /* 0 primary, 1 secondary */
} PaneRef;

struct _TkvBindView {
    GtkWidget parent_instance;

    GtkWidget *outer;
    GtkWidget *ir_paned;
    TkvCodePane *source_pane;
    TkvCodePane *primary_pane;
    TkvCodePane *secondary_pane;

    TkvDocument *doc;
    guint kernel;
    const tk_kernel *k;
    const tk_bind *ix;

    /* Stages the kernel has, in pipeline order: the selectors' entries. */
    tk_stage_kind stages[TK_STAGE_COUNT];
    guint n_stages;
    tk_stage_kind pane_stage[N_IR_PANES];
    GtkSourceBuffer *stage_buf[N_IR_PANES][TK_STAGE_COUNT];
    /* A view per pane and stage, made when the pane first shows the stage
     * and kept (tkv_code_pane_add_view() says why): a stage switch shows
     * another view instead of giving the view another buffer. */
    TkvCodeView *stage_view[N_IR_PANES][TK_STAGE_COUNT];
    PaneRef pane_ref[N_IR_PANES];
    gboolean second_visible;

    /* Source files of the kernel: the source selector's entries. */
    const tk_file_id *files;
    guint n_files;
    tk_file_id file;              /* shown */
    GHashTable *file_buf;         /* file + 1 -> GtkSourceBuffer */
    GArray *file_counts;          /* guint32 per line of the shown file */

    gboolean exact;
    TkvAnchorKind anchor;
    tk_file_id anchor_file;
    tk_stage_kind anchor_stage;
    guint anchor_line;

    TkvCodePane *focused;
    gboolean updating; /* the program is setting selectors */
    guint prefetch_id; /* idle source making the shown panes' other stage buffers */
};

G_DEFINE_FINAL_TYPE(TkvBindView, tkv_bind_view, GTK_TYPE_WIDGET)

enum { SIG_ANCHOR_CHANGED, SIG_STAGE_CHANGED, SIG_FILE_CHANGED, N_SIGS };
static guint sigs[N_SIGS];

static TkvCodePane *ir_pane(TkvBindView *self, int which)
{
    return which == 0 ? self->primary_pane : self->secondary_pane;
}

static TkvCodeView *ir_view(TkvBindView *self, int which)
{
    return tkv_code_pane_get_view(ir_pane(self, which));
}

static TkvCodeView *source_view(TkvBindView *self)
{
    return tkv_code_pane_get_view(self->source_pane);
}

static gboolean pane_shown(TkvBindView *self, int which)
{
    return which == 0 || self->second_visible;
}

static gboolean has_stage(TkvBindView *self, tk_stage_kind s)
{
    for (guint i = 0; i < self->n_stages; i++)
        if (self->stages[i] == s)
            return TRUE;
    return FALSE;
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
    PaneRef *ref = data;
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
static void update_file_counts(TkvBindView *self)
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
    tkv_code_view_refresh_gutter(source_view(self));
}

/* ---- buffers -------------------------------------------------------------- */

static GtkSourceBuffer *stage_buffer(TkvBindView *self, int which, tk_stage_kind s)
{
    if (!self->stage_buf[which][s]) {
        GString *text = tkv_text_from_stage(tk_kernel_stage(self->k, s));
        self->stage_buf[which][s] =
            tkv_code_view_new_buffer(text->str, (gssize)text->len, stage_languages[s]);
        g_string_free(text, TRUE);
    }
    return self->stage_buf[which][s];
}

/* Stage buffers are made when a pane first shows their stage.  Once a
 * kernel is shown, the shown panes' other stages are made in idle time, one
 * per call (highlighted in the background like any buffer), so that the first
 * switch to a stage does not pay for making its buffer (2-4 ms for 1500
 * lines of PTX or SASS) inside the switch.  A stage text larger than
 * PREFETCH_MAX_BYTES waits to be shown. */
#define PREFETCH_MAX_BYTES (4u << 20)

static TkvCodeView *stage_view(TkvBindView *self, int which, tk_stage_kind s);

static gboolean prefetch_one(gpointer data)
{
    TkvBindView *self = data;
    for (int w = 0; self->k && w < N_IR_PANES; w++) {
        if (!pane_shown(self, w))
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

static void prefetch_stages(TkvBindView *self)
{
    if (!self->prefetch_id && self->k)
        self->prefetch_id = g_idle_add_full(G_PRIORITY_LOW, prefetch_one, self, NULL);
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
    tkv_code_pane_set_title(ir_pane(self, which), safe, tip);
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

static void on_ir_line(TkvCodeView *view, guint line, PaneRef *ref);

static TkvCodeView *stage_view(TkvBindView *self, int which, tk_stage_kind s)
{
    TkvCodeView *v = self->stage_view[which][s];
    if (!v) {
        v = tkv_code_pane_add_view(ir_pane(self, which));
        tkv_code_view_set_line_state_func(v, ir_line_state, &self->pane_ref[which], FALSE);
        g_signal_connect(v, "line-selected", G_CALLBACK(on_ir_line), &self->pane_ref[which]);
        self->stage_view[which][s] = v;
    }
    GtkTextBuffer *b = GTK_TEXT_BUFFER(stage_buffer(self, which, s));
    if (gtk_text_view_get_buffer(GTK_TEXT_VIEW(v)) != b)
        gtk_text_view_set_buffer(GTK_TEXT_VIEW(v), b);
    return v;
}

static void show_stage(TkvBindView *self, int which, tk_stage_kind s)
{
    self->pane_stage[which] = s;
    tkv_code_pane_show_view(ir_pane(self, which), stage_view(self, which, s));
    select_in_dropdown(self, tkv_code_pane_get_selector(ir_pane(self, which)),
                       stage_position(self, s));
    update_ir_title(self, which);
    tkv_code_view_refresh_gutter(ir_view(self, which));
}

static void show_file(TkvBindView *self, tk_file_id file)
{
    if (self->file == file)
        return;
    self->file = file;
    gtk_text_view_set_buffer(GTK_TEXT_VIEW(source_view(self)),
                             GTK_TEXT_BUFFER(file_buffer(self, file)));
    for (guint i = 0; i < self->n_files; i++)
        if (self->files[i] == file)
            select_in_dropdown(self, tkv_code_pane_get_selector(self->source_pane), i);
    update_source_title(self);
    update_file_counts(self);
    g_signal_emit(self, sigs[SIG_FILE_CHANGED], 0);
}

/* ---- rendering the anchor ---------------------------------------------------- */

static gboolean file_has_text(TkvBindView *self, tk_file_id f)
{
    return tkv_document_get_source_text(self->doc, f, NULL) != NULL;
}

/* The lines of the shown file that frames of the anchor IR line's stacks
 * name; when none, first switches to the file of the outermost frame that is
 * at hand (the user's kernel file, usually). */
static GArray *frame_lines(TkvBindView *self)
{
    GArray *lines = g_array_new(FALSE, FALSE, sizeof(guint32));
    const tk_stack_id *ids;
    size_t n = tk_bind_line_stacks(self->ix, self->anchor_stage, self->anchor_line, &ids);
    tk_loctab *tab = tk_bundle_loctab(tkv_document_get_bundle(self->doc));
    for (int pass = 0; pass < 2 && lines->len == 0; pass++) {
        if (pass == 1) {
            /* Nothing in the shown file: look for a better one. */
            tk_file_id best = TKV_NO_FILE;
            for (size_t s = 0; s < n && best == TKV_NO_FILE; s++) {
                size_t nf;
                const tk_frame *fr = tk_loctab_stack_frames(tab, ids[s], &nf);
                for (size_t i = nf; i-- > 0;)
                    if (file_has_text(self, fr[i].file)) {
                        best = fr[i].file;
                        break;
                    }
            }
            if (best == TKV_NO_FILE || best == self->file)
                break;
            show_file(self, best);
        }
        for (size_t s = 0; s < n; s++) {
            size_t nf;
            const tk_frame *fr = tk_loctab_stack_frames(tab, ids[s], &nf);
            for (size_t i = 0; i < nf; i++)
                if (fr[i].file == self->file)
                    g_array_append_val(lines, fr[i].line);
        }
    }
    return lines;
}

static gint cmp_u32(gconstpointer a, gconstpointer b)
{
    guint32 x = *(const guint32 *)a, y = *(const guint32 *)b;
    return x < y ? -1 : x > y;
}

static void sort_unique(GArray *a)
{
    g_array_sort(a, cmp_u32);
    guint j = 0;
    for (guint i = 0; i < a->len; i++)
        if (!j || g_array_index(a, guint32, i) != g_array_index(a, guint32, j - 1))
            g_array_index(a, guint32, j++) = g_array_index(a, guint32, i);
    g_array_set_size(a, j);
}

static void render_ir_pane(TkvBindView *self, int which)
{
    TkvCodeView *v = ir_view(self, which);
    TkvCodePane *p = ir_pane(self, which);
    tk_stage_kind s = self->pane_stage[which];
    switch (self->anchor) {
    case TKV_ANCHOR_SOURCE: {
        const uint32_t *lines;
        size_t n = tk_bind_source_to_stage(self->ix, self->anchor_file, self->anchor_line,
                                             self->exact ? TK_MATCH_EXACT : TK_MATCH_CALLED, s,
                                             &lines);
        tkv_code_view_set_selected(v, 0, FALSE, FALSE);
        tkv_code_view_set_matches(v, lines, n, TRUE);
        tkv_code_pane_set_empty_text(p, "no line bound");
        break;
    }
    case TKV_ANCHOR_IR:
        if (s == self->anchor_stage) {
            tkv_code_view_set_matches(v, NULL, 0, FALSE);
            tkv_code_view_set_selected(v, self->anchor_line, TRUE, TRUE);
            tkv_code_pane_set_empty_text(p, "");
        } else {
            uint32_t *lines = NULL;
            size_t n = tk_bind_stage_to_stage(self->ix, self->anchor_stage, self->anchor_line,
                                                s, &lines);
            tkv_code_view_set_selected(v, 0, FALSE, FALSE);
            tkv_code_view_set_matches(v, lines, n, TRUE);
            free(lines);
            tkv_code_pane_set_empty_text(p, "no line bound");
        }
        break;
    default:
        tkv_code_view_set_selected(v, 0, FALSE, FALSE);
        tkv_code_view_set_matches(v, NULL, 0, FALSE);
        tkv_code_pane_set_empty_text(p, "");
    }
}

static void render_source_pane(TkvBindView *self)
{
    TkvCodeView *v = source_view(self);
    switch (self->anchor) {
    case TKV_ANCHOR_SOURCE:
        show_file(self, self->anchor_file);
        tkv_code_view_set_matches(v, NULL, 0, FALSE);
        tkv_code_view_set_selected(v, self->anchor_line, TRUE, TRUE);
        tkv_code_pane_set_empty_text(self->source_pane, "");
        break;
    case TKV_ANCHOR_IR: {
        GArray *lines = frame_lines(self);
        sort_unique(lines);
        tkv_code_view_set_selected(v, 0, FALSE, FALSE);
        tkv_code_view_set_matches(v, (const guint32 *)(void *)lines->data, lines->len, TRUE);
        tkv_code_pane_set_empty_text(self->source_pane, "no line of this file");
        g_array_unref(lines);
        break;
    }
    default:
        tkv_code_view_set_selected(v, 0, FALSE, FALSE);
        tkv_code_view_set_matches(v, NULL, 0, FALSE);
        tkv_code_pane_set_empty_text(self->source_pane, "");
    }
}

static void render(TkvBindView *self)
{
    if (!self->k)
        return;
    render_source_pane(self);
    for (int w = 0; w < N_IR_PANES; w++)
        if (pane_shown(self, w))
            render_ir_pane(self, w);
}

/* ---- user input -> actions -------------------------------------------------- */

static void on_source_line(TkvCodeView *view, guint line, TkvBindView *self)
{
    const char *path = tkv_document_get_file_path(self->doc, self->file);
    if (path)
        gtk_widget_activate_action(GTK_WIDGET(self), "win.select-source-location", "(su)",
                                   path, line);
}

static void on_ir_line(TkvCodeView *view, guint line, PaneRef *ref)
{
    gtk_widget_activate_action(GTK_WIDGET(ref->view), "win.select-ir-line", "(su)",
                               tk_stage_kind_name(ref->view->pane_stage[ref->which]), line);
}

static void on_stage_selected(GtkDropDown *dd, GParamSpec *pspec, PaneRef *ref)
{
    TkvBindView *self = ref->view;
    guint pos = gtk_drop_down_get_selected(dd);
    if (self->updating || pos >= self->n_stages)
        return;
    gtk_widget_activate_action(GTK_WIDGET(self), ref->which == 0 ? "win.stage" : "win.second-stage",
                               "s", tk_stage_kind_name(self->stages[pos]));
}

static void on_file_selected(GtkDropDown *dd, GParamSpec *pspec, TkvBindView *self)
{
    guint pos = gtk_drop_down_get_selected(dd);
    if (self->updating || pos >= self->n_files)
        return;
    gtk_widget_activate_action(GTK_WIDGET(self), "win.source-file", "s",
                               tkv_document_get_file_path(self->doc, self->files[pos]));
}

static void on_pane_focused(TkvCodePane *pane, TkvBindView *self)
{
    self->focused = pane;
}

/* ---- public ---------------------------------------------------------------- */

static void drop_buffers(TkvBindView *self)
{
    for (int w = 0; w < N_IR_PANES; w++)
        for (int s = 0; s < TK_STAGE_COUNT; s++)
            g_clear_object(&self->stage_buf[w][s]);
    g_hash_table_remove_all(self->file_buf);
}

void tkv_bind_view_set_kernel(TkvBindView *self, TkvDocument *doc, guint kernel)
{
    /* Views let go of the old buffers before they are freed. */
    GtkSourceBuffer *empty = gtk_source_buffer_new(NULL);
    gtk_text_view_set_buffer(GTK_TEXT_VIEW(source_view(self)), GTK_TEXT_BUFFER(empty));
    for (int w = 0; w < N_IR_PANES; w++) {
        for (int s = -1; s < TK_STAGE_COUNT; s++) {
            TkvCodeView *v = s < 0 ? ir_view(self, w) : self->stage_view[w][s];
            if (!v)
                continue;
            tkv_code_view_set_matches(v, NULL, 0, FALSE);
            tkv_code_view_set_selected(v, 0, FALSE, FALSE);
            gtk_text_view_set_buffer(GTK_TEXT_VIEW(v), GTK_TEXT_BUFFER(empty));
        }
    }
    tkv_code_view_set_matches(source_view(self), NULL, 0, FALSE);
    tkv_code_view_set_selected(source_view(self), 0, FALSE, FALSE);
    g_object_unref(empty);
    drop_buffers(self);
    g_set_object(&self->doc, doc);
    self->k = doc ? tkv_document_get_kernel(doc, kernel) : NULL;
    self->kernel = kernel;
    self->ix = self->k ? tkv_document_get_index(doc, kernel) : NULL;
    self->anchor = TKV_ANCHOR_NONE;
    self->file = TKV_NO_FILE;
    self->n_stages = 0;
    self->n_files = 0;
    self->files = NULL;
    GtkStringList *stages = gtk_string_list_new(NULL);
    GtkStringList *files = gtk_string_list_new(NULL);
    if (self->k) {
        for (int s = 0; s < TK_STAGE_COUNT; s++)
            if (tk_kernel_stage(self->k, (tk_stage_kind)s)) {
                self->stages[self->n_stages++] = (tk_stage_kind)s;
                gtk_string_list_append(stages, stage_titles[s]);
            }
        self->n_files = (guint)tkv_document_get_files(doc, kernel, &self->files);
        for (guint i = 0; i < self->n_files; i++) {
            const char *path = tkv_document_get_file_path(doc, self->files[i]);
            char *base = g_path_get_basename(path);
            char *safe = g_utf8_make_valid(base, -1);
            gtk_string_list_append(files, safe);
            g_free(base);
            g_free(safe);
        }
    }
    self->updating = TRUE;
    for (int w = 0; w < N_IR_PANES; w++)
        gtk_drop_down_set_model(tkv_code_pane_get_selector(ir_pane(self, w)), G_LIST_MODEL(stages));
    gtk_drop_down_set_model(tkv_code_pane_get_selector(self->source_pane), G_LIST_MODEL(files));
    self->updating = FALSE;
    g_object_unref(stages);
    g_object_unref(files);
    if (!self->k || self->n_stages == 0) {
        for (int w = 0; w < N_IR_PANES; w++)
            tkv_code_pane_set_title(ir_pane(self, w), self->k ? "no stage" : "", NULL);
        tkv_code_pane_set_title(self->source_pane, "", NULL);
        g_signal_emit(self, sigs[SIG_ANCHOR_CHANGED], 0);
        return;
    }
    tk_stage_kind first = has_stage(self, TK_STAGE_TTGIR) ? TK_STAGE_TTGIR : self->stages[0];
    tk_stage_kind second = has_stage(self, TK_STAGE_PTX)    ? TK_STAGE_PTX :
                           has_stage(self, TK_STAGE_SASS)   ? TK_STAGE_SASS :
                           self->stages[self->n_stages - 1];
    self->pane_stage[0] = first;
    self->pane_stage[1] = second;
    show_stage(self, 0, first);
    if (self->second_visible)
        show_stage(self, 1, second);
    if (self->n_files)
        show_file(self, self->files[0]);
    else
        tkv_code_pane_set_title(self->source_pane, "no source location in this kernel", NULL);
    render(self);
    prefetch_stages(self);
    g_signal_emit(self, sigs[SIG_STAGE_CHANGED], 0, (guint)TKV_PANE_PRIMARY);
    g_signal_emit(self, sigs[SIG_STAGE_CHANGED], 0, (guint)TKV_PANE_SECONDARY);
    g_signal_emit(self, sigs[SIG_ANCHOR_CHANGED], 0);
}

static gboolean is_kernel_file(TkvBindView *self, tk_file_id file)
{
    for (guint i = 0; i < self->n_files; i++)
        if (self->files[i] == file)
            return TRUE;
    return FALSE;
}

gboolean tkv_bind_view_select_source(TkvBindView *self, tk_file_id file, guint line)
{
    if (!self->k || line == 0 || !is_kernel_file(self, file))
        return FALSE;
    self->anchor = TKV_ANCHOR_SOURCE;
    self->anchor_file = file;
    self->anchor_line = line;
    render(self);
    g_signal_emit(self, sigs[SIG_ANCHOR_CHANGED], 0);
    return TRUE;
}

gboolean tkv_bind_view_select_ir(TkvBindView *self, tk_stage_kind stage, guint line)
{
    if (!self->k || stage >= TK_STAGE_COUNT || !has_stage(self, stage) || line == 0 ||
        line > tk_stage_line_count(tk_kernel_stage(self->k, stage)))
        return FALSE;
    gboolean shown = FALSE;
    for (int w = 0; w < N_IR_PANES; w++)
        shown |= pane_shown(self, w) && self->pane_stage[w] == stage;
    if (!shown) {
        show_stage(self, 0, stage);
        update_file_counts(self);
        g_signal_emit(self, sigs[SIG_STAGE_CHANGED], 0, (guint)TKV_PANE_PRIMARY);
    }
    self->anchor = TKV_ANCHOR_IR;
    self->anchor_stage = stage;
    self->anchor_line = line;
    render(self);
    g_signal_emit(self, sigs[SIG_ANCHOR_CHANGED], 0);
    return TRUE;
}

gboolean tkv_bind_view_show_file(TkvBindView *self, tk_file_id file)
{
    if (!self->k || !is_kernel_file(self, file))
        return FALSE;
    show_file(self, file);
    render_source_pane(self);
    return TRUE;
}

gboolean tkv_bind_view_set_stage(TkvBindView *self, TkvPaneId pane, tk_stage_kind stage)
{
    int w = pane == TKV_PANE_SECONDARY ? 1 : 0;
    if (!self->k || stage >= TK_STAGE_COUNT || !has_stage(self, stage))
        return FALSE;
    if (self->pane_stage[w] != stage || !gtk_text_view_get_buffer(GTK_TEXT_VIEW(ir_view(self, w))) ||
        GTK_TEXT_BUFFER(self->stage_buf[w][stage]) !=
            gtk_text_view_get_buffer(GTK_TEXT_VIEW(ir_view(self, w)))) {
        if (pane_shown(self, w))
            show_stage(self, w, stage);
        else
            self->pane_stage[w] = stage;
        if (w == 0)
            update_file_counts(self);
        if (pane_shown(self, w))
            render_ir_pane(self, w);
    }
    g_signal_emit(self, sigs[SIG_STAGE_CHANGED], 0, (guint)pane);
    return TRUE;
}

tk_stage_kind tkv_bind_view_get_stage(TkvBindView *self, TkvPaneId pane)
{
    if (!self->k)
        return TK_STAGE_UNKNOWN;
    return self->pane_stage[pane == TKV_PANE_SECONDARY ? 1 : 0];
}

void tkv_bind_view_set_second_visible(TkvBindView *self, gboolean visible)
{
    if (self->second_visible == visible)
        return;
    self->second_visible = visible;
    gtk_widget_set_visible(GTK_WIDGET(self->secondary_pane), visible);
    if (visible && self->k) {
        show_stage(self, 1, self->pane_stage[1]);
        render_ir_pane(self, 1);
        prefetch_stages(self);
    }
    /* Three panes share the width: the source a third, the IR the rest,
     * halved; two panes: the source 40%. */
    int w = gtk_widget_get_width(GTK_WIDGET(self));
    if (w > 0) {
        int source = visible ? w * 3 / 10 : w * 2 / 5;
        gtk_paned_set_position(GTK_PANED(self->outer), source);
        if (visible)
            gtk_paned_set_position(GTK_PANED(self->ir_paned), (w - source) / 2);
    }
    g_signal_emit(self, sigs[SIG_STAGE_CHANGED], 0, (guint)TKV_PANE_SECONDARY);
}

gboolean tkv_bind_view_get_second_visible(TkvBindView *self) { return self->second_visible; }

void tkv_bind_view_set_exact(TkvBindView *self, gboolean exact)
{
    if (self->exact == exact)
        return;
    self->exact = exact;
    update_file_counts(self);
    render(self);
}

TkvAnchorKind tkv_bind_view_get_anchor(TkvBindView *self, tk_stage_kind *stage,
                                       tk_file_id *file, guint *line)
{
    if (stage)
        *stage = self->anchor_stage;
    if (file)
        *file = self->anchor_file;
    if (line)
        *line = self->anchor_line;
    return self->anchor;
}

tk_file_id tkv_bind_view_get_file(TkvBindView *self) { return self->file; }

TkvCodePane *tkv_bind_view_get_pane(TkvBindView *self, TkvPaneId pane)
{
    switch (pane) {
    case TKV_PANE_SOURCE: return self->source_pane;
    case TKV_PANE_PRIMARY: return self->primary_pane;
    default: return self->secondary_pane;
    }
}

TkvCodePane *tkv_bind_view_get_focused_pane(TkvBindView *self)
{
    if (self->focused == self->secondary_pane && !self->second_visible)
        return self->primary_pane;
    return self->focused ? self->focused : self->primary_pane;
}

gboolean tkv_bind_view_step_match(TkvBindView *self, int delta)
{
    TkvCodePane *order[4] = {tkv_bind_view_get_focused_pane(self), self->primary_pane,
                             self->second_visible ? self->secondary_pane : NULL,
                             self->source_pane};
    for (int i = 0; i < 4; i++)
        if (order[i] && tkv_code_view_step_match(tkv_code_pane_get_view(order[i]), delta))
            return TRUE;
    return FALSE;
}

/* ---- state for tests ------------------------------------------------------------ */

static void write_lines(JsonBuilder *b, const char *name, GArray *lines)
{
    json_builder_set_member_name(b, name);
    json_builder_begin_array(b);
    for (guint i = 0; i < lines->len; i++)
        json_builder_add_int_value(b, g_array_index(lines, guint32, i));
    json_builder_end_array(b);
    g_array_unref(lines);
}

static void write_pane(JsonBuilder *b, TkvCodePane *pane)
{
    TkvCodeView *v = tkv_code_pane_get_view(pane);
    write_lines(b, "selected", tkv_code_view_get_tagged_lines(v, "tkv-selected"));
    write_lines(b, "matches", tkv_code_view_get_tagged_lines(v, "tkv-match"));
    write_lines(b, "current", tkv_code_view_get_tagged_lines(v, "tkv-match-current"));
    write_lines(b, "folded", tkv_code_view_get_folded_lines(v));
    json_builder_set_member_name(b, "match_text");
    json_builder_add_string_value(b, tkv_code_pane_get_match_text(pane));
    json_builder_set_member_name(b, "line_count");
    json_builder_add_int_value(b, tkv_code_view_get_line_count(v));
    json_builder_set_member_name(b, "cursor_line");
    json_builder_add_int_value(b, tkv_code_view_get_cursor_line(v));
}

void tkv_bind_view_write_state(TkvBindView *self, JsonBuilder *b)
{
    json_builder_set_member_name(b, "exact");
    json_builder_add_boolean_value(b, self->exact);
    json_builder_set_member_name(b, "anchor");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "kind");
    json_builder_add_string_value(b, self->anchor == TKV_ANCHOR_SOURCE ? "source" :
                                     self->anchor == TKV_ANCHOR_IR     ? "ir" : "none");
    if (self->anchor == TKV_ANCHOR_SOURCE) {
        char *p = g_utf8_make_valid(tkv_document_get_file_path(self->doc, self->anchor_file), -1);
        json_builder_set_member_name(b, "file");
        json_builder_add_string_value(b, p);
        g_free(p);
    }
    if (self->anchor == TKV_ANCHOR_IR) {
        json_builder_set_member_name(b, "stage");
        json_builder_add_string_value(b, tk_stage_kind_name(self->anchor_stage));
    }
    if (self->anchor != TKV_ANCHOR_NONE) {
        json_builder_set_member_name(b, "line");
        json_builder_add_int_value(b, self->anchor_line);
    }
    json_builder_end_object(b);

    json_builder_set_member_name(b, "source");
    json_builder_begin_object(b);
    if (self->k && self->file != TKV_NO_FILE) {
        char *p = g_utf8_make_valid(tkv_document_get_file_path(self->doc, self->file), -1);
        json_builder_set_member_name(b, "file");
        json_builder_add_string_value(b, p);
        g_free(p);
        const char *local = tkv_document_get_source_path(self->doc, self->file);
        json_builder_set_member_name(b, "resolved");
        if (local) {
            char *l = g_utf8_make_valid(local, -1);
            json_builder_add_string_value(b, l);
            g_free(l);
        } else {
            json_builder_add_null_value(b);
        }
    }
    write_pane(b, self->source_pane);
    json_builder_end_object(b);

    for (int w = 0; w < N_IR_PANES; w++) {
        json_builder_set_member_name(b, w == 0 ? "primary" : "secondary");
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "visible");
        json_builder_add_boolean_value(b, pane_shown(self, w));
        json_builder_set_member_name(b, "stage");
        json_builder_add_string_value(b, self->k ? tk_stage_kind_name(self->pane_stage[w]) : "");
        if (pane_shown(self, w))
            write_pane(b, ir_pane(self, w));
        json_builder_end_object(b);
    }
}

/* ---- GObject ------------------------------------------------------------------- */

static void tkv_bind_view_dispose(GObject *object)
{
    TkvBindView *self = TKV_BIND_VIEW(object);
    g_clear_handle_id(&self->prefetch_id, g_source_remove);
    gtk_widget_dispose_template(GTK_WIDGET(self), TKV_TYPE_BIND_VIEW);
    drop_buffers(self);
    g_clear_object(&self->doc);
    G_OBJECT_CLASS(tkv_bind_view_parent_class)->dispose(object);
}

static void tkv_bind_view_finalize(GObject *object)
{
    TkvBindView *self = TKV_BIND_VIEW(object);
    g_hash_table_unref(self->file_buf);
    g_array_unref(self->file_counts);
    G_OBJECT_CLASS(tkv_bind_view_parent_class)->finalize(object);
}

static void tkv_bind_view_class_init(TkvBindViewClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    oc->dispose = tkv_bind_view_dispose;
    oc->finalize = tkv_bind_view_finalize;
    sigs[SIG_ANCHOR_CHANGED] = g_signal_new("anchor-changed", G_TYPE_FROM_CLASS(klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 0);
    sigs[SIG_STAGE_CHANGED] = g_signal_new("stage-changed", G_TYPE_FROM_CLASS(klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 1, G_TYPE_UINT);
    sigs[SIG_FILE_CHANGED] = g_signal_new("file-changed", G_TYPE_FROM_CLASS(klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 0);
    g_type_ensure(TKV_TYPE_CODE_PANE);
    gtk_widget_class_set_template_from_resource(wc, "/org/tkview/Viewer/ui/tkv_bind_view.ui");
    gtk_widget_class_bind_template_child(wc, TkvBindView, outer);
    gtk_widget_class_bind_template_child(wc, TkvBindView, ir_paned);
    gtk_widget_class_bind_template_child(wc, TkvBindView, source_pane);
    gtk_widget_class_bind_template_child(wc, TkvBindView, primary_pane);
    gtk_widget_class_bind_template_child(wc, TkvBindView, secondary_pane);
    gtk_widget_class_set_css_name(wc, "tkvbindview");
}

static void tkv_bind_view_init(TkvBindView *self)
{
    gtk_widget_init_template(GTK_WIDGET(self));
    self->file_buf = g_hash_table_new_full(NULL, NULL, NULL, g_object_unref);
    self->file_counts = g_array_new(FALSE, TRUE, sizeof(guint32));
    self->file = TKV_NO_FILE;
    for (int w = 0; w < N_IR_PANES; w++) {
        self->pane_ref[w] = (PaneRef){self, w};
        TkvCodeView *v = ir_view(self, w);
        tkv_code_view_set_line_state_func(v, ir_line_state, &self->pane_ref[w], FALSE);
        g_signal_connect(v, "line-selected", G_CALLBACK(on_ir_line), &self->pane_ref[w]);
        g_signal_connect(tkv_code_pane_get_selector(ir_pane(self, w)), "notify::selected",
                         G_CALLBACK(on_stage_selected), &self->pane_ref[w]);
        g_signal_connect(ir_pane(self, w), "focused", G_CALLBACK(on_pane_focused), self);
    }
    tkv_code_view_set_line_state_func(source_view(self), source_line_state, self, TRUE);
    g_signal_connect(source_view(self), "line-selected", G_CALLBACK(on_source_line), self);
    g_signal_connect(tkv_code_pane_get_selector(self->source_pane), "notify::selected",
                     G_CALLBACK(on_file_selected), self);
    g_signal_connect(self->source_pane, "focused", G_CALLBACK(on_pane_focused), self);
    gtk_paned_set_position(GTK_PANED(self->outer), 480);
}
