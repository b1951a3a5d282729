/* tkv_settings.h - the viewer's remembered layout (GSettings, schema
 * org.tkview.Viewer: data/org.tkview.Viewer.gschema.xml). */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The viewer's settings, or NULL when the schema is not installed (the
 * viewer run from a build folder without GSETTINGS_SCHEMA_DIR): the
 * layout then starts from the defaults every time.  Caller unrefs. */
GSettings *tkv_settings_new(void);

G_END_DECLS
