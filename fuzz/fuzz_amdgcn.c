/* fuzz_amdgcn.c - libFuzzer target for the AMDGCN location readers (the
 * assembly and llvm-objdump's disassembly, told apart by the text). */
#include "fuzz_one.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return tk_fuzz_one(TK_STAGE_AMDGCN, "fuzz.amdgcn", data, size);
}
