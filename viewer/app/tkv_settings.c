/* tkv_settings.c - the viewer's remembered layout.
 *
 * GSettings aborts on a schema it cannot find, and a viewer run from its
 * build folder has none installed: the schema is looked up first, and
 * without it the layout is simply not remembered.  meson compiles the
 * schema into the build folder (viewer/data), where the tests point
 * GSETTINGS_SCHEMA_DIR, with GSETTINGS_BACKEND=memory. */
#include "app/tkv_settings.h"

#define TKV_SCHEMA "org.tkview.Viewer"

GSettings *tkv_settings_new(void)
{
    GSettingsSchemaSource *src = g_settings_schema_source_get_default();
    GSettingsSchema *schema = src ? g_settings_schema_source_lookup(src, TKV_SCHEMA, TRUE) : NULL;
    if (!schema)
        return NULL;
    GSettings *s = g_settings_new_full(schema, NULL, NULL);
    g_settings_schema_unref(schema);
    return s;
}
