/* data_layouts.h - TTGIR layouts as the report's data write them: a
 * stage's (data_kernel.c, STAGE.bind.js) and the layouts of the lines of
 * pass diffs (data_layouts.c), so that a layout reference is explained
 * on hover in a diff as in a code pane.
 *
 * The layouts are the library's (tk_layouts.h): definitions read from the
 * `#name = #ttg.kind<...>` lines of each text, the references of a line
 * found by tk_layouts_line_uses(), how a layout covers a tensor by
 * tk_layouts_cover().  A pass data file (a chain, a stored diff) holds one
 * table,
 *
 *   "ly": {"defs": [...], "covers": [...]}   definitions (as a stage's,
 *                                            "parent" an index into
 *                                            these, "line" 0) and covers
 *
 * and per line its references, [start, end, def, cover, ...] (UTF-16
 * offsets into the line; cover -1: none), or 0.  A line's references are
 * resolved in the text it was stored from: the definitions at the top of
 * that pass's dump (a line that the next passes leave byte for byte keeps
 * them; a pass that gave an alias another meaning rewrote its definition
 * line, which its diff shows).
 */
#ifndef HTML_DATA_LAYOUTS_H
#define HTML_DATA_LAYOUTS_H

#include "report.h"
#include "tkdump/tk_layouts.h"

/* A layout definition as the report writes it (a JSON object). */
void html_report_write_layout(jw *w, const tk_layout *l);

/* How layout LAYOUT of LAY covers the tensor of use U (a JSON object). */
void html_report_write_cover(jw *w, const tk_layouts *lay, const tk_layout_use *u, int layout);

typedef struct html_report_lays html_report_lays;

html_report_lays *html_report_lays_new(void);
void html_report_lays_free(html_report_lays *l);

/* Empties the table, for the next data file. */
void html_report_lays_clear(html_report_lays *l);

/* The text of SIDE (TK_IR_A, TK_IR_B) whose lines come next: SIDE of D,
 * whose definitions are its first kept lines (read back here: call it
 * before reading the lines of that side). */
void html_report_lays_text(html_report_lays *l, const tk_ir_diff *d, int side);

/* Writes the references of LINE (LEN bytes, of SIDE's text; NULL: none)
 * as [start, end, def, cover, ...], or 0 when it has none. */
void html_report_lays_line(html_report_lays *l, jw *w, int side, const char *line, size_t len);

/* Whether any line written so far had a reference. */
gboolean html_report_lays_any(const html_report_lays *l);

/* Writes the table, {"defs": [...], "covers": [...]}. */
void html_report_lays_write(html_report_lays *l, jw *w);

/* Layouts of a TTGIR stage into W: definitions, and per use on a line the
 * layout and how it covers that tensor (computed by tk_layouts_cover()). */
void html_report_write_stage_layouts(jw *w, const tk_stage *st);

#endif
