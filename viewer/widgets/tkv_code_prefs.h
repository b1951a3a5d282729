/* tkv_code_prefs.h - how every code pane shows its text: the font size
 * (zoom: Ctrl+plus, Ctrl+minus, Ctrl+0) and whether long lines wrap.
 *
 * One process-wide instance holds both as properties ("font-size", in
 * points, TKV_CODE_FONT_MIN..TKV_CODE_FONT_MAX; "wrap", a boolean); the
 * application binds them to its GSettings (remembered like the layout).
 * The size is one CSS rule for the display (textview.tkv-code), so the
 * gutters, which inherit the view's font, follow it; the text views handed
 * to tkv_code_prefs_follow() wrap or not as "wrap" says.
 */
#ifndef TKV_CODE_PREFS_H
#define TKV_CODE_PREFS_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TKV_CODE_FONT_MIN 6
#define TKV_CODE_FONT_MAX 32
#define TKV_CODE_FONT_DEFAULT 10

#define TKV_TYPE_CODE_PREFS (tkv_code_prefs_get_type())
G_DECLARE_FINAL_TYPE(TkvCodePrefs, tkv_code_prefs, TKV, CODE_PREFS, GObject)

/* The process-wide instance, created on first use (after gtk_init). */
TkvCodePrefs *tkv_code_prefs_get_default(void);

/* Font size in points, clamped to TKV_CODE_FONT_MIN..MAX. */
void tkv_code_prefs_set_font_size(TkvCodePrefs *self, int points);
int tkv_code_prefs_get_font_size(TkvCodePrefs *self);
void tkv_code_prefs_set_wrap(TkvCodePrefs *self, gboolean wrap);
gboolean tkv_code_prefs_get_wrap(TkvCodePrefs *self);

/* TV gets the code panes' class (their font size) and wraps as "wrap"
 * says, now and whenever it changes, for as long as it lives. */
void tkv_code_prefs_follow(GtkTextView *tv);

G_END_DECLS

#endif
