/* tkv_style.h - light or dark, following the system.
 *
 * GTK 4.8 has no AdwStyleManager (that is libadwaita), so the preference is
 * read from what the desktop offers: the XDG settings portal's
 * org.freedesktop.appearance color-scheme (GNOME 42+, KDE), else GtkSettings
 * gtk-application-prefer-dark-theme or a theme name ending in "-dark".  The
 * user can force one in the menu (app.color-scheme) or with
 * TKVIEW_COLOR_SCHEME=light|dark.  The result is applied to GtkSettings (so
 * the GTK theme matches) and picks the GtkSourceView scheme tkview-light or
 * tkview-dark, shipped in the GResource.
 */
#ifndef TKV_STYLE_H
#define TKV_STYLE_H

#include <gtksourceview/gtksource.h>

G_BEGIN_DECLS

#define TKV_TYPE_STYLE (tkv_style_get_type())
G_DECLARE_FINAL_TYPE(TkvStyle, tkv_style, TKV, STYLE, GObject)

typedef enum {
    TKV_SCHEME_SYSTEM,
    TKV_SCHEME_LIGHT,
    TKV_SCHEME_DARK
} TkvSchemeChoice;

/* The process-wide instance, created on first use (after gtk_init). */
TkvStyle *tkv_style_get_default(void);

void tkv_style_set_choice(TkvStyle *style, TkvSchemeChoice choice);
TkvSchemeChoice tkv_style_get_choice(TkvStyle *style);

gboolean tkv_style_is_dark(TkvStyle *style);

/* The scheme for the code views; owned by GtkSourceView's manager. */
GtkSourceStyleScheme *tkv_style_get_scheme(TkvStyle *style);

/* A color of the scheme's tkview:* style NAME ("tkview:match"), its
 * background or (FOREGROUND) foreground; FALLBACK when the scheme lacks it. */
GdkRGBA tkv_style_color(TkvStyle *style, const char *name, gboolean foreground,
                        const char *fallback);

/* "changed" is emitted when the scheme changes. */

G_END_DECLS

#endif
