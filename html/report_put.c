/* report_put.c - the base every writer of the report calls: putting a
 * data file (whole or compressed) into the staged folder, and offsets in
 * UTF-16 units as the browser counts them.  report.c (the orchestrator)
 * and the data_*.c writers call down into it; it calls none of them. */
#include "report.h"

#include <string.h>

#include "put_queue.h"

int html_report_put(html_report *r, const char *rel, const char *key,
                  const GString *json)
{
    /* The key is generator-made ASCII; the JSON is script-safe (jsonw.h). */
    GString *s = g_string_sized_new(json->len + 64);
    g_string_append(s, "TK.put(\"");
    jw_escape(s, key, strlen(key));
    g_string_append(s, "\",");
    g_string_append_len(s, json->str, json->len);
    g_string_append(s, ");\n");
    int rc = html_outdir_write(r->out, rel, s->str, s->len, r->diags);
    g_string_free(s, TRUE);
    g_atomic_int_inc(&r->files);
    return rc;
}

int html_report_put_z(html_report *r, const char *rel, const char *key, GString *json)
{
    /* Compressed and written on the writer thread (put_queue.h): pass
     * data repeat themselves from pass to pass and shrink 6 to 10 times. */
    g_atomic_int_inc(&r->files);
    return html_put_queue_push(r->queue, rel, key, json);
}

uint32_t html_report_u16_offset(const char *s, size_t off)
{
    uint32_t n = 0;
    size_t i = 0;
    while (i < off) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            i++;
            n++;
            continue;
        }
        gunichar u = g_utf8_get_char_validated(s + i, (gssize)(off - i));
        if (u == (gunichar)-1 || u == (gunichar)-2) {
            i++;
            n++;
            continue;
        }
        i = (size_t)(g_utf8_next_char(s + i) - s);
        n += u >= 0x10000 ? 2 : 1;
    }
    return n;
}
