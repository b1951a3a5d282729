/* key.c - a kernel turned into what its pass dumps are matched with
 * (tk_kernel_pass_key(), tk_bundle_passes.h): its name, the warps its compile was
 * asked for, its first stages' digests. */
#include "passfiles/internal.h"
#include "tkdump/tk_bundle_passes.h"

#include <string.h>

/* The warps the kernel's compile was asked for, as its TTGIR's module says
 * ("ttg.num-warps"), or -1: a warp-specialized kernel's metadata counts
 * its partitions' warps too (4 asked + 2 partitions of 4 = 12), and the
 * pass dumps say what the module says. */
static int64_t asked_warps(const tk_stage *ttgir)
{
    static const char attr[] = "\"ttg.num-warps\" = ";
    uint32_t n = ttgir ? tk_stage_line_count(ttgir) : 0;
    for (uint32_t i = 1; i <= n; i++) {
        size_t len = 0;
        const char *l = tk_stage_line(ttgir, i, &len);
        if (!l || len < 8 || strncmp(l, "module attributes", 17) != 0)
            continue;
        char buf[512];
        size_t m = len < sizeof buf - 1 ? len : sizeof buf - 1;
        memcpy(buf, l, m);
        buf[m] = 0;
        const char *at = strstr(buf, attr);
        if (!at)
            return -1;
        return g_ascii_strtoll(at + strlen(attr), NULL, 10);
    }
    return -1;
}

/* The key's stages are the first stage kinds. */
G_STATIC_ASSERT(TK_STAGE_TTIR == 0 && TK_STAGE_TTGIR == 1 &&
                TK_STAGE_LLIR == 2 && TK_PASS_KEY_STAGES == 3);

void bundle_pass_key_without_stages(const tk_kernel *k, tk_pass_key *key)
{
    memset(key, 0, sizeof *key);
    key->name = k->name;
    key->num_warps = k->meta.num_warps;
    int64_t asked = asked_warps(k->stages[TK_STAGE_TTGIR]);
    if (asked > 0)
        key->num_warps = asked;
}

void tk_kernel_pass_key(const tk_kernel *k, tk_pass_key *key)
{
    bundle_pass_key_without_stages(k, key);
    for (int i = 0; i < TK_PASS_KEY_STAGES; i++) {
        if (k->stages[i]) {
            key->have[i] = 1;
            tk_pass_digest_stage(k->stages[i], &key->stage[i]);
        }
    }
}
