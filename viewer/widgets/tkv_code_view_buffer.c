/* tkv_code_view_buffer.c - the buffers a TkvCodeView shows: in the current
 * scheme, syntax highlighted in idle time, their text kept beside them, and
 * emptied in idle time once a view lets them go.  Apart
 * from the widget because a buffer is made and kept by the view's owner, long
 * before and after any view shows it. */
#include "widgets/tkv_code_view_private.h"

#include <string.h>

#include "widgets/tkv_style.h"

void tkv_code_view_apply_scheme(GtkSourceBuffer *buffer)
{
    GtkSourceStyleScheme *scheme = tkv_style_get_scheme(tkv_style_get_default());
    if (gtk_source_buffer_get_style_scheme(buffer) != scheme)
        gtk_source_buffer_set_style_scheme(buffer, scheme);
}

/* Syntax highlighting in the background.  GtkSourceView highlights a region
 * when it is first drawn; jumping to IR far away (the lines a selection is
 * bound to) would pay for it inside the frame that shows the selection.  So
 * once a buffer exists, idle slices of HIGHLIGHT_SLICE lines highlight it all,
 * and selections only pay for layout and paint. */
#define HIGHLIGHT_SLICE 80

typedef struct {
    GWeakRef buffer;
    int next; /* first line not yet highlighted */
} Highlighter;

/* The idle sources still highlighting (guint ids) and the buffers alive
 * (GtkSourceBuffer *, weak): GApplication runs every ready source before
 * g_application_run() returns, so without a stop a viewer asked to quit
 * would first highlight every buffer still alive, in our idle slices and
 * in GtkSourceView's own (minutes under AddressSanitizer after a walk
 * through a bundle's passes). */
static GHashTable *pending;
static GHashTable *live;
static gboolean stopped;
/* buffers let go of, being emptied (below) */
static GQueue retirees = G_QUEUE_INIT; /* GtkTextBuffer *, one reference each */
static guint retire_id;
static guint retire_waited;

static void forget_buffer(gpointer data, GObject *gone)
{
    if (live)
        g_hash_table_remove(live, gone);
}

static gboolean highlight_slice(gpointer data)
{
    Highlighter *h = data;
    GtkSourceBuffer *b = g_weak_ref_get(&h->buffer);
    if (!b) {
        /* the buffer is gone: this source ends, and is no longer pending
         * (tkv_code_view_stop_highlighting() would remove it again) */
        g_hash_table_remove(pending, GUINT_TO_POINTER(g_source_get_id(g_main_current_source())));
        return G_SOURCE_REMOVE;
    }
    GtkTextBuffer *tb = GTK_TEXT_BUFFER(b);
    int lines = gtk_text_buffer_get_line_count(tb);
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_line(tb, &s, h->next);
    if (!gtk_text_buffer_get_iter_at_line(tb, &e, h->next + HIGHLIGHT_SLICE))
        gtk_text_buffer_get_end_iter(tb, &e);
    gtk_source_buffer_ensure_highlight(b, &s, &e);
    h->next += HIGHLIGHT_SLICE;
    g_object_unref(b);
    if (h->next < lines)
        return G_SOURCE_CONTINUE;
    g_hash_table_remove(pending, GUINT_TO_POINTER(g_source_get_id(g_main_current_source())));
    return G_SOURCE_REMOVE;
}

static void highlighter_free(gpointer data)
{
    Highlighter *h = data;
    g_weak_ref_clear(&h->buffer);
    g_free(h);
}

static void highlight_in_background(GtkSourceBuffer *b)
{
    if (stopped)
        return;
    Highlighter *h = g_new0(Highlighter, 1);
    g_weak_ref_init(&h->buffer, b);
    if (!pending)
        pending = g_hash_table_new(NULL, NULL);
    guint id = g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, highlight_slice, h, highlighter_free);
    g_hash_table_add(pending, GUINT_TO_POINTER(id));
}

void tkv_code_view_stop_highlighting(void)
{
    stopped = TRUE;
    if (retire_id)
        g_source_remove(retire_id);
    retire_id = 0;
    g_queue_clear_full(&retirees, g_object_unref);
    GHashTableIter it;
    gpointer key;
    if (pending) {
        g_hash_table_iter_init(&it, pending);
        while (g_hash_table_iter_next(&it, &key, NULL))
            g_source_remove(GPOINTER_TO_UINT(key));
        g_clear_pointer(&pending, g_hash_table_destroy);
    }
    if (live) {
        g_hash_table_iter_init(&it, live);
        while (g_hash_table_iter_next(&it, &key, NULL)) {
            g_object_weak_unref(key, forget_buffer, NULL);
            gtk_source_buffer_set_highlight_syntax(key, FALSE);
        }
        g_clear_pointer(&live, g_hash_table_destroy);
    }
}

/* A buffer's text, kept with it (buffers are never edited): what the find
 * bar searches.  Read back from the buffer, 2 MB of a diff side took 40-80 ms
 * (GtkTextBuffer walks its tree of segments); the copy made with the
 * buffer, a millisecond. */
typedef struct {
    char *text;
    gsize len;
} BufferText;

static void buffer_text_free(gpointer p)
{
    BufferText *t = p;
    g_free(t->text);
    g_free(t);
}

void tkv_code_view_buffer_keep_text(GtkTextBuffer *b, const char *text, gsize len)
{
    BufferText *t = g_new0(BufferText, 1);
    t->text = g_strndup(text, len);
    t->len = len;
    g_object_set_data_full(G_OBJECT(b), "tkv-text", t, buffer_text_free);
}

const char *tkv_code_view_buffer_text(GtkTextBuffer *b, gsize *len)
{
    BufferText *t = g_object_get_data(G_OBJECT(b), "tkv-text");
    if (!t) {
        /* a buffer not made here: read it once */
        GtkTextIter s, e;
        gtk_text_buffer_get_bounds(b, &s, &e);
        char *text = gtk_text_buffer_get_text(b, &s, &e, TRUE);
        tkv_code_view_buffer_keep_text(b, text, strlen(text));
        g_free(text);
        t = g_object_get_data(G_OBJECT(b), "tkv-text");
    }
    *len = t->len;
    return t->text;
}

GtkSourceBuffer *tkv_code_view_new_buffer(const char *text, gssize len,
                                          const char *language_id)
{
    GtkSourceBuffer *b = gtk_source_buffer_new(NULL);
    GtkTextBuffer *tb = GTK_TEXT_BUFFER(b);
    gtk_text_buffer_set_enable_undo(tb, FALSE);
    gtk_source_buffer_set_highlight_matching_brackets(b, FALSE);
    if (language_id) {
        GtkSourceLanguage *lang = gtk_source_language_manager_get_language(
            gtk_source_language_manager_get_default(), language_id);
        if (lang)
            gtk_source_buffer_set_language(b, lang);
    }
    gtk_text_buffer_set_text(tb, text ? text : "", text ? len : 0);
    tkv_code_view_buffer_keep_text(tb, text ? text : "", text ? (len < 0 ? strlen(text) : (gsize)len) : 0);
    if (text)
        tkv_buffer_lines_fold(tb, text, len < 0 ? strlen(text) : (gsize)len);
    GtkTextIter start;
    gtk_text_buffer_get_start_iter(tb, &start);
    gtk_text_buffer_place_cursor(tb, &start);
    tkv_code_view_apply_scheme(b);
    if (language_id && gtk_source_buffer_get_language(b))
        highlight_in_background(b);
    if (!stopped) {
        if (!live)
            live = g_hash_table_new(NULL, NULL);
        g_hash_table_add(live, b);
        g_object_weak_ref(G_OBJECT(b), forget_buffer, NULL);
    } else {
        gtk_source_buffer_set_highlight_syntax(b, FALSE);
    }
    return b;
}

/* ---- buffers let go of ------------------------------------------------------ */

/* A highlighted buffer of a pass diff's 40,000 lines took 300-450 ms of the
 * main thread to finalize (perf: GtkSourceView's context engine removes
 * each of its highlighting tags from the whole buffer, one walk of the
 * text's tree per tag), paid inside the click that replaced it.  A buffer a
 * view lets go of is kept instead, and emptied from its end RETIRE_SLICE
 * lines at a time in low-priority idle slices (a deletion drops the tags'
 * toggles with the text, in one walk of the lines deleted); finalized
 * empty, it costs nothing.  A buffer someone else still holds (a stage's,
 * shown again later) is not ours to empty: it is let go of as it is. */
#define RETIRE_SLICE 2000
#define RETIRE_WAIT_SLICES 8 /* slices a retiree waits for other holders */
#define RETIRE_MIN_LINES 2000 /* smaller ones are cheap to finalize */


static gboolean retire_slice(gpointer data)
{
    GtkTextBuffer *b = g_queue_peek_head(&retirees);
    if (!b) {
        retire_id = 0;
        return G_SOURCE_REMOVE;
    }
    int lines = gtk_text_buffer_get_line_count(b);
    if (G_OBJECT(b)->ref_count > 1 && retire_waited++ < RETIRE_WAIT_SLICES)
        return G_SOURCE_CONTINUE;
    if (G_OBJECT(b)->ref_count > 1 || lines <= 1) {
        g_object_unref(g_queue_pop_head(&retirees));
        retire_waited = 0;
        return G_SOURCE_CONTINUE;
    }
    GtkTextIter s, e;
    gtk_text_buffer_get_iter_at_line(b, &s, MAX(lines - RETIRE_SLICE, 0));
    gtk_text_buffer_get_end_iter(b, &e);
    gtk_text_buffer_delete(b, &s, &e);
    return G_SOURCE_CONTINUE;
}

void tkv_code_view_retire_buffer(GtkTextBuffer *b)
{
    if (!b)
        return;
    if (stopped || gtk_text_buffer_get_line_count(b) < RETIRE_MIN_LINES) {
        g_object_unref(b);
        return;
    }
    g_queue_push_tail(&retirees, b);
    if (!retire_id)
        retire_id = g_idle_add_full(G_PRIORITY_LOW, retire_slice, NULL, NULL);
}

/* GTK 4.8's text layout caches the display of a line (its Pango layout)
 * also for lines it has not measured yet: the cursor's line, looked up by
 * the view's own "value-changed" handler (the input method's spot), a line
 * whose position was asked for.  gtk_text_view_set_buffer() drops the
 * displays of measured lines only, so the others stay in the cache, keyed by
 * lines of the old buffer; the cache keeps its displays sorted by line
 * number, and the next display made for the new buffer is compared with
 * them: "gtk_text_btree_line_number couldn't find line", or a read of freed
 * lines (SIGSEGV in gtk_text_view_get_cursor_locations) once the old buffer
 * is gone.  Walking the passes of sample_dumps/amd_gfx942 met it within a
 * minute (tests/viewer/test_viewer_changes.py).
 *
 * A change of the view's default style makes the layout invalidate the
 * whole buffer, line by line, while the old buffer's lines are still there:
 * every cached display goes, measured or not.  The margin is set back at
 * once; nothing is drawn in between. */
void tkv_code_view_set_buffer(TkvCodeView *self, GtkTextBuffer *b)
{
    GtkTextView *tv = GTK_TEXT_VIEW(self);
    if (gtk_text_view_get_buffer(tv) == b)
        return;
    int margin = gtk_text_view_get_left_margin(tv);
    gtk_text_view_set_left_margin(tv, margin + 1);
    gtk_text_view_set_left_margin(tv, margin);
    gtk_text_view_set_buffer(tv, b);
}
