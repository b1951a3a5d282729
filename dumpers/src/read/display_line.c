/* display_line.c - how a code pane shows a stage's line without the
 * indentation its format carries (tk_stage_line_display(), tk_stage.h).
 * The report's data, the viewer and the CLI all show SASS through this
 * one rule, so a pane beside another shows instructions, not blanks. */
#include "tkdump/tk_stage.h"

#include <string.h>

/* A SASS instruction line as nvdisasm writes it: 8 blanks, the address
 * in a comment (slash, star, 0010, star, slash), 19 blanks, "S2R R3,
 * SR_TID.X ;".  Shown as the address, 2 blanks and the instruction; the
 * address stays (profiles and nvdisasm output are read by it). */
static int sass_split(const char *s, size_t len, tk_display_line *out)
{
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    size_t a = i;
    if (i + 2 >= len || s[i] != '/' || s[i + 1] != '*')
        return 0;
    i += 2;
    while (i < len && ((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
                       (s[i] >= 'A' && s[i] <= 'F')))
        i++;
    if (i + 1 >= len || i - a < 6 || s[i] != '*' || s[i + 1] != '/')
        return 0;
    size_t addr_end = i + 2;
    i = addr_end;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i == addr_end || i == len)
        return 0;
    out->head = s + a;
    out->head_len = addr_end - a;
    out->body = s + i;
    out->body_len = len - i;
    return 1;
}

int tk_stage_line_display(const tk_stage *stage, uint32_t line, tk_display_line *out)
{
    size_t len = 0;
    const char *s = tk_stage_line(stage, line, &len);
    memset(out, 0, sizeof *out);
    if (!s)
        return 0;
    out->body = s;
    out->body_len = len;
    if (tk_stage_kind_of(stage) == TK_STAGE_SASS)
        return sass_split(s, len, out);
    return 0;
}
