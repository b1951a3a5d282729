/* fuzz_mlir.c - libFuzzer target for the MLIR location reader (TTIR and
 * TTGIR read alike). */
#include "fuzz_one.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return tk_fuzz_one(TK_STAGE_TTGIR, "fuzz.ttgir", data, size);
}
