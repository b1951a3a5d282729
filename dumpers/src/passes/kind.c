/* kind.c - what an indexed pass dump file holds, from all of its dumps.
 *
 * tk_passes_sniff() decides from a file's head whether it is a pass dump
 * file at all; once the whole file is indexed, its kind is said from every
 * dump it has.  `tkview info` shows this kind and the bundle writer names
 * each kernel's slice after it ("mlir.txt.gz"), so both take it from here.
 */
#include "passes/internal.h"

tk_passes_file_kind tk_passes_content_kind(const tk_passes *passes)
{
    int mlir = 0, llvm = 0;
    size_t n = passes ? tk_passes_count(passes) : 0;
    for (size_t i = 0; i < n && !(mlir && llvm); i++) {
        /* Triton's internal MLIR dumps (SoftwarePipeliner) go to stderr
         * with the LLVM dumps: they count with them, as the sniffer's
         * TK_PASSES_FILE_LLVM says. */
        if (tk_passes_get(passes, i)->kind == TK_PASS_MLIR)
            mlir = 1;
        else
            llvm = 1;
    }
    return mlir && llvm ? TK_PASSES_FILE_MIXED
           : llvm       ? TK_PASSES_FILE_LLVM
           : mlir       ? TK_PASSES_FILE_MLIR
                        : TK_PASSES_FILE_NONE;
}
