/* fuzz_sass.c - libFuzzer target for the SASS location reader (nvdisasm -g
 * and -gi output). */
#include "fuzz_one.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return tk_fuzz_one(TK_STAGE_SASS, "fuzz.sass_gi", data, size);
}
