/* sniff.c - finding pass dump files by content, not by name.
 *
 * Users rename files ("stderr.log", "run2.txt"); a capture folder holds
 * many.  A file is a pass dump file when a line in its first
 * TK_PASSES_SNIFF_BYTES parses as a dump header (the same parser the index
 * uses, so what is sniffed is what gets indexed).
 */
#include "passes/internal.h"
#include "util/text.h"

#include <string.h>

tk_passes_file_kind tk_passes_sniff(const char *data, size_t len)
{
    if (len > TK_PASSES_SNIFF_BYTES)
        len = TK_PASSES_SNIFF_BYTES;
    if (!data || memchr(data, '\0', len))
        return TK_PASSES_FILE_NONE;
    int mlir = 0, llvm = 0;
    const char *p = data, *end = data + len;
    while (p < end && !(mlir && llvm)) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        size_t n = (size_t)(e - p);
        n = tk_lines_trim(p, n);
        passes_header h;
        if (n > 0 && (p[0] == '/' || p[0] == ';' || p[0] == '*' ||
                      p[0] == '#') &&
            passes_parse_header(p, n, &h) && !h.bad) {
            if (h.kind == TK_PASS_MLIR)
                mlir = 1;
            else
                llvm = 1;
        }
        p = nl ? nl + 1 : end;
    }
    return mlir && llvm ? TK_PASSES_FILE_MIXED
           : mlir       ? TK_PASSES_FILE_MLIR
           : llvm       ? TK_PASSES_FILE_LLVM
                        : TK_PASSES_FILE_NONE;
}

tk_passes_file_kind tk_passes_sniff_file(const char *path)
{
    char *buf = g_malloc(TK_PASSES_SNIFF_BYTES);
    ssize_t have = text_read_head(path, buf, TK_PASSES_SNIFF_BYTES);
    tk_passes_file_kind k = have > 0 ? tk_passes_sniff(buf, (size_t)have)
                                     : TK_PASSES_FILE_NONE;
    g_free(buf);
    return k;
}

const char *tk_passes_file_kind_name(tk_passes_file_kind kind)
{
    switch (kind) {
    case TK_PASSES_FILE_MLIR:
        return "mlir";
    case TK_PASSES_FILE_LLVM:
        return "llvm";
    case TK_PASSES_FILE_MIXED:
        return "mixed";
    default:
        return "none";
    }
}
