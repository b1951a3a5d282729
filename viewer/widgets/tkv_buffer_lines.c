/* tkv_buffer_lines.c - per-line highlights and long-line folds of a buffer. */
#include "widgets/tkv_buffer_lines.h"

#include <string.h>

static const char *const hl_names[TKV_HL_COUNT] = {
    "tkv-diff-filler", "tkv-diff-replace", "tkv-diff-delete", "tkv-diff-insert",
    "tkv-context", "tkv-match", "tkv-approx", "tkv-match-current", "tkv-selected",
};
static const char *const hl_styles[TKV_HL_COUNT] = {
    "tkview:diff-filler", "tkview:diff-replace", "tkview:diff-delete", "tkview:diff-insert",
    "tkview:context", "tkview:match", "tkview:approx", "tkview:match-current",
    "tkview:selected",
};
static const char *const hl_fallbacks[TKV_HL_COUNT] = {
    "#f6f8fa", "#eaf1fb", "#ffebe9", "#e6ffec", "#fdf8e3", "#fff1b8", "#f3dcc2", "#ffd666",
    "#cfe4ff",
};

/* A line's bits: 1 << kind per highlight, and DIM_BIT when it is not code. */
#define DIM_BIT 0x8000u
G_STATIC_ASSERT(TKV_HL_COUNT < 15);

int tkv_highlight_from_name(const char *name)
{
    for (int i = 0; i < TKV_HL_COUNT; i++)
        if (!g_strcmp0(name, hl_names[i]))
            return i;
    return -1;
}

const char *tkv_highlight_style(TkvHighlight kind) { return hl_styles[kind]; }
const char *tkv_highlight_fallback(TkvHighlight kind) { return hl_fallbacks[kind]; }

typedef struct {
    guint line;  /* 0-based */
    guint chars; /* without the line end */
} LongLine;

typedef struct {
    guint16 *bits;             /* per line, 0-based: 1 << kind, DIM_BIT */
    guint len;                 /* lines BITS covers */
    guint count[TKV_HL_COUNT]; /* lines carrying each kind */
    guint n_dim;               /* lines with DIM_BIT */
    GtkTextTag *locations;     /* invisible while location lines are hidden */
    GArray *location_lines;    /* guint32, ascending */

    GArray *long_lines;  /* LongLine, ascending; NULL before folding */
    GtkTextTag *fold;    /* invisible; owned by the buffer's tag table */
    int shown_first;     /* 0-based lines shown whole, -1: none */
    int shown_last;
} Lines;

static void lines_free(gpointer p)
{
    Lines *s = p;
    g_free(s->bits);
    if (s->location_lines)
        g_array_unref(s->location_lines);
    if (s->long_lines)
        g_array_unref(s->long_lines);
    g_free(s);
}

static Lines *lines_of(GtkTextBuffer *b, gboolean create)
{
    static GQuark q;
    if (!q)
        q = g_quark_from_static_string("tkv-buffer-lines");
    Lines *s = g_object_get_qdata(G_OBJECT(b), q);
    if (!s && create) {
        s = g_new0(Lines, 1);
        s->shown_first = s->shown_last = -1;
        g_object_set_qdata_full(G_OBJECT(b), q, s, lines_free);
    }
    return s;
}

/* ---- highlights ------------------------------------------------------------ */

/* Makes S->bits cover LC lines. */
static void grow(Lines *s, guint lc)
{
    if (s->len >= lc)
        return;
    s->bits = g_renew(guint16, s->bits, lc);
    memset(s->bits + s->len, 0, (lc - s->len) * sizeof *s->bits);
    s->len = lc;
}

void tkv_buffer_lines_mark(GtkTextBuffer *b, TkvHighlight kind, guint first, guint n,
                           gboolean on)
{
    guint lc = (guint)gtk_text_buffer_get_line_count(b);
    if (!first || first > lc || !n)
        return;
    guint last = first - 1 + MIN(n, lc - first + 1); /* 1-based, inclusive */
    Lines *s = lines_of(b, on);
    if (!s)
        return;
    if (on)
        grow(s, lc);
    guint16 bit = (guint16)(1u << kind);
    for (guint l = first; l <= last && l <= s->len; l++) {
        guint16 *p = &s->bits[l - 1];
        if (on && !(*p & bit)) {
            *p |= bit;
            s->count[kind]++;
        } else if (!on && (*p & bit)) {
            *p &= (guint16)~bit;
            s->count[kind]--;
        }
    }
}

void tkv_buffer_lines_mark_list(GtkTextBuffer *b, TkvHighlight kind, const guint32 *lines,
                                gsize n, gboolean on)
{
    for (gsize i = 0; i < n;) {
        gsize j = i + 1;
        while (j < n && lines[j] == lines[j - 1] + 1)
            j++;
        tkv_buffer_lines_mark(b, kind, lines[i], (guint)(j - i), on);
        i = j;
    }
}

void tkv_buffer_lines_clear(GtkTextBuffer *b, TkvHighlight kind)
{
    Lines *s = lines_of(b, FALSE);
    if (!s)
        return;
    for (guint l = 0; l < s->len; l++)
        s->bits[l] &= (guint16) ~(1u << kind);
    s->count[kind] = 0;
}

gboolean tkv_buffer_lines_any(GtkTextBuffer *b)
{
    Lines *s = lines_of(b, FALSE);
    for (int k = 0; s && k < TKV_HL_COUNT; k++)
        if (s->count[k])
            return TRUE;
    return FALSE;
}

int tkv_buffer_lines_top(GtkTextBuffer *b, guint line0)
{
    Lines *s = lines_of(b, FALSE);
    if (!s || line0 >= s->len || !(s->bits[line0] & ~DIM_BIT))
        return -1;
    int k = TKV_HL_COUNT - 1;
    while (!(s->bits[line0] & (1u << k)))
        k--;
    return k;
}

/* ---- lines that are not code, lines that only state a location -------------- */

void tkv_buffer_lines_set_dim(GtkTextBuffer *b, const guint32 *lines, gsize n)
{
    Lines *s = lines_of(b, TRUE);
    grow(s, (guint)gtk_text_buffer_get_line_count(b));
    for (gsize i = 0; i < n; i++)
        if (lines[i] && lines[i] <= s->len && !(s->bits[lines[i] - 1] & DIM_BIT)) {
            s->bits[lines[i] - 1] |= DIM_BIT;
            s->n_dim++;
        }
}

gboolean tkv_buffer_lines_any_dim(GtkTextBuffer *b)
{
    Lines *s = lines_of(b, FALSE);
    return s && s->n_dim;
}

gboolean tkv_buffer_lines_is_dim(GtkTextBuffer *b, guint line0)
{
    Lines *s = lines_of(b, FALSE);
    return s && line0 < s->len && (s->bits[line0] & DIM_BIT);
}

void tkv_buffer_lines_set_location_lines(GtkTextBuffer *b, const guint32 *lines, gsize n)
{
    Lines *s = lines_of(b, TRUE);
    if (s->locations || !n)
        return;
    s->location_lines = g_array_new(FALSE, FALSE, sizeof(guint32));
    g_array_append_vals(s->location_lines, lines, (guint)n);
    s->locations = gtk_text_buffer_create_tag(b, NULL, "invisible", FALSE, NULL);
    /* A whole line with its line end, runs of lines at once. */
    for (gsize i = 0; i < n;) {
        gsize j = i + 1;
        while (j < n && lines[j] == lines[j - 1] + 1)
            j++;
        GtkTextIter from, to;
        gtk_text_buffer_get_iter_at_line(b, &from, (int)lines[i] - 1);
        if (!gtk_text_buffer_get_iter_at_line(b, &to, (int)lines[j - 1]))
            gtk_text_buffer_get_end_iter(b, &to);
        gtk_text_buffer_apply_tag(b, s->locations, &from, &to);
        i = j;
    }
}

void tkv_buffer_lines_hide_location_lines(GtkTextBuffer *b, gboolean hide)
{
    Lines *s = lines_of(b, FALSE);
    if (!s || !s->locations)
        return;
    gboolean now;
    g_object_get(s->locations, "invisible", &now, NULL);
    if (!now != !hide)
        g_object_set(s->locations, "invisible", hide, NULL);
}

GArray *tkv_buffer_lines_hidden_location_lines(GtkTextBuffer *b)
{
    GArray *out = g_array_new(FALSE, FALSE, sizeof(guint32));
    Lines *s = lines_of(b, FALSE);
    gboolean hidden = FALSE;
    if (s && s->locations)
        g_object_get(s->locations, "invisible", &hidden, NULL);
    if (hidden)
        g_array_append_vals(out, s->location_lines->data, s->location_lines->len);
    return out;
}

GArray *tkv_buffer_lines_list(GtkTextBuffer *b, TkvHighlight kind)
{
    GArray *out = g_array_new(FALSE, FALSE, sizeof(guint32));
    Lines *s = lines_of(b, FALSE);
    if (!s || !s->count[kind])
        return out;
    for (guint32 l = 1; l <= s->len; l++)
        if (s->bits[l - 1] & (1u << kind))
            g_array_append_val(out, l);
    return out;
}

/* ---- folds ---------------------------------------------------------------- */

static void set_folded(GtkTextBuffer *b, Lines *s, const LongLine *ll, gboolean folded)
{
    GtkTextIter from, to;
    gtk_text_buffer_get_iter_at_line_offset(b, &from, (int)ll->line, TKV_FOLD_COLUMN);
    to = from;
    if (!gtk_text_iter_ends_line(&to))
        gtk_text_iter_forward_to_line_end(&to);
    if (folded)
        gtk_text_buffer_apply_tag(b, s->fold, &from, &to);
    else
        gtk_text_buffer_remove_tag(b, s->fold, &from, &to);
}

void tkv_buffer_lines_fold(GtkTextBuffer *b, const char *text, gsize len)
{
    Lines *s = lines_of(b, TRUE);
    if (s->long_lines)
        return;
    s->long_lines = g_array_new(FALSE, FALSE, sizeof(LongLine));
    /* The buffer's text as bytes: a line of few bytes has few characters, and
     * most lines are short, so only the long ones are counted in characters. */
    const char *p = text, *end = text + len;
    for (guint line = 0; p && p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        if (le - p > TKV_FOLD_COLUMN + TKV_FOLD_MIN_HIDDEN) {
            LongLine ll = {line, (guint)g_utf8_strlen(p, le - p)};
            if (ll.chars > TKV_FOLD_COLUMN + TKV_FOLD_MIN_HIDDEN)
                g_array_append_val(s->long_lines, ll);
        }
        p = nl ? nl + 1 : NULL;
    }
    if (!s->long_lines->len)
        return;
    s->fold = gtk_text_buffer_create_tag(b, NULL, "invisible", TRUE, NULL);
    for (guint i = 0; i < s->long_lines->len; i++)
        set_folded(b, s, &g_array_index(s->long_lines, LongLine, i), TRUE);
}

/* Index of the first long line at or after LINE0. */
static guint first_long_at(const Lines *s, int line0)
{
    guint lo = 0, hi = s->long_lines->len;
    while (lo < hi) {
        guint mid = (lo + hi) / 2;
        if ((int)g_array_index(s->long_lines, LongLine, mid).line < line0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static gboolean shown(const Lines *s, guint line0)
{
    return s->shown_first >= 0 && (int)line0 >= s->shown_first && (int)line0 <= s->shown_last;
}

void tkv_buffer_lines_refold(GtkTextBuffer *b, guint first0, guint end0)
{
    Lines *s = lines_of(b, FALSE);
    if (!s || !s->fold)
        return;
    for (guint i = first_long_at(s, (int)first0); i < s->long_lines->len; i++) {
        const LongLine *ll = &g_array_index(s->long_lines, LongLine, i);
        if (ll->line >= end0)
            break;
        if (!shown(s, ll->line))
            set_folded(b, s, ll, TRUE);
    }
}

void tkv_buffer_lines_show(GtkTextBuffer *b, int first0, int last0)
{
    Lines *s = lines_of(b, FALSE);
    if (!s || !s->fold || (first0 == s->shown_first && last0 == s->shown_last))
        return;
    int old_first = s->shown_first, old_last = s->shown_last;
    s->shown_first = first0;
    s->shown_last = last0;
    /* Fold the lines no longer shown, then show the new ones. */
    if (old_first >= 0)
        for (guint i = first_long_at(s, old_first); i < s->long_lines->len; i++) {
            const LongLine *ll = &g_array_index(s->long_lines, LongLine, i);
            if ((int)ll->line > old_last)
                break;
            if (!shown(s, ll->line))
                set_folded(b, s, ll, TRUE);
        }
    if (first0 >= 0)
        for (guint i = first_long_at(s, first0); i < s->long_lines->len; i++) {
            const LongLine *ll = &g_array_index(s->long_lines, LongLine, i);
            if ((int)ll->line > last0)
                break;
            if (old_first < 0 || (int)ll->line < old_first || (int)ll->line > old_last)
                set_folded(b, s, ll, FALSE);
        }
}

gboolean tkv_buffer_lines_any_folded(GtkTextBuffer *b)
{
    Lines *s = lines_of(b, FALSE);
    if (!s || !s->fold)
        return FALSE;
    /* All the long lines are shown whole only when the selection spans them. */
    guint n = s->long_lines->len;
    return !(shown(s, g_array_index(s->long_lines, LongLine, 0).line) &&
             shown(s, g_array_index(s->long_lines, LongLine, n - 1).line));
}

/* Whether LL's text is in B: a pass diff's row not filled yet
 * (passes/tkv_pass_view_fill.c) is an empty line whose fold is known from
 * the whole text; nothing of it is hidden until its text comes. */
static gboolean long_line_there(GtkTextBuffer *b, const LongLine *ll)
{
    GtkTextIter it;
    gtk_text_buffer_get_iter_at_line(b, &it, (int)ll->line);
    return gtk_text_iter_get_chars_in_line(&it) > TKV_FOLD_COLUMN;
}

guint tkv_buffer_lines_hidden(GtkTextBuffer *b, guint line0)
{
    Lines *s = lines_of(b, FALSE);
    if (!s || !s->fold || shown(s, line0))
        return 0;
    guint i = first_long_at(s, (int)line0);
    if (i >= s->long_lines->len)
        return 0;
    const LongLine *ll = &g_array_index(s->long_lines, LongLine, i);
    return ll->line == line0 && long_line_there(b, ll) ? ll->chars - TKV_FOLD_COLUMN : 0;
}

GArray *tkv_buffer_lines_folded(GtkTextBuffer *b)
{
    GArray *out = g_array_new(FALSE, FALSE, sizeof(guint32));
    Lines *s = lines_of(b, FALSE);
    for (guint i = 0; s && s->fold && i < s->long_lines->len; i++) {
        const LongLine *ll = &g_array_index(s->long_lines, LongLine, i);
        if (!shown(s, ll->line) && long_line_there(b, ll)) {
            guint32 l = ll->line + 1;
            g_array_append_val(out, l);
        }
    }
    return out;
}
