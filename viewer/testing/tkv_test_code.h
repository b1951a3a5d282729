/* tkv_test_code.h - how a window's code panes show their text, for the
 * screenshot and zoom tests (test-state's "geometry"."code"). */
#ifndef TKV_TEST_CODE_H
#define TKV_TEST_CODE_H

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

/* Writes "code": {font_size, wrap, views: [...]} on B, one entry per text
 * view of WIN shown (tkv_test_code.c says what each holds). */
void tkv_test_code_write(GtkWindow *win, JsonBuilder *b);

#endif
