/* fuzz_llvm.c - libFuzzer target for the LLVM IR location reader. */
#include "fuzz_one.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return tk_fuzz_one(TK_STAGE_LLIR, "fuzz.llir", data, size);
}
