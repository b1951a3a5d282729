/* fuzz_ptx.c - libFuzzer target for the PTX location reader. */
#include "fuzz_one.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return tk_fuzz_one(TK_STAGE_PTX, "fuzz.ptx", data, size);
}
