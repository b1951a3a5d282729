/* text.h - a file's bytes in memory, split into lines (internal).
 *
 * Every reader works on a text_buf: the whole file in one buffer, NUL-terminated
 * for the convenience of scanners, with the offset of each line start.  Line
 * ends are tk_lines.h's: "\n", a "\r" before it not part of the line (CRLF
 * files read like LF files).  Lines are 1-based in every public API.
 */
#ifndef TKDUMP_TEXT_H
#define TKDUMP_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tkdump/tk_diags.h"
#include "tkdump/tk_lines.h"

/* Files of 4 GiB or more are refused: offsets are 32-bit to keep the line
 * index at 4 bytes a line. */
#define TEXT_MAX_BYTES ((size_t)UINT32_MAX - 1)

typedef struct {
    char *data;           /* LEN bytes, then a NUL; owned */
    size_t len;
    uint32_t n_lines;
    uint32_t *line_start; /* n_lines + 1 entries; the last is LEN (+1 if the
                             file ends in a newline); owned */
    char *name;           /* for diagnostics; owned */
} text_buf;

/* Reads the stage file PATH (tk_input_file_read(), TK_INPUT_FILE_STAGE: a
 * regular file of at most 1 GiB).  Returns 0 on success; on failure adds an
 * error naming PATH to
 * DIAGS and returns -1 (TEXT is then empty and needs no text_clear()).
 * A file with NUL bytes in its first 64 KiB is refused as binary. */
int text_read(text_buf *text, const char *path, tk_diags *diags);

/* Copies LEN bytes of DATA.  Never fails on content; NAME names it. */
int text_from_memory(text_buf *text, const char *name, const char *data,
                     size_t len, tk_diags *diags);

void text_clear(text_buf *text);

/* Reads at most CAP bytes from the start of the file at PATH into BUF, for
 * sniffing a file's kind.  Only regular files are read, and without blocking:
 * a FIFO or a kernel file like /proc/kmsg (which calls itself regular) gives
 * nothing rather than hanging a folder scan.  Returns the bytes read, or -1
 * when the file cannot be opened or is not a regular file. */
ssize_t text_read_head(const char *path, char *buf, size_t cap);

/* Line LINE (1-based) without its line end; *LEN its length. */
static inline const char *text_line(const text_buf *t, uint32_t line,
                                    size_t *len)
{
    const char *s = t->data + t->line_start[line - 1];
    size_t n = t->line_start[line] - t->line_start[line - 1];
    if (n > 0 && s[n - 1] == '\n')
        n--;
    *len = tk_lines_trim(s, n);
    return s;
}

/* Whether the first LEN bytes of DATA look like binary data (a NUL byte). */
int text_looks_binary(const char *data, size_t len);

#endif
