/* meta_fields.c - a kernel's metadata as the list of facts every front end
 * shows (tk_kernel_meta_fields()). */
#include "tkdump/tk_kernel.h"

#include <stddef.h>
#include <string.h>

typedef struct {
    const char *key, *label, *unit, *unit_long;
    int amd;
    size_t offset; /* of the int64_t in tk_kernel_meta; SIZE_MAX: text */
} Row;

#define INT(f) offsetof(tk_kernel_meta, f)
#define TEXT ((size_t)-1)

/* The order `tkview info` has always printed; the AMD rows last. */
static const Row rows[] = {
    {"num_warps", "num_warps", "", "", 0, INT(num_warps)},
    {"num_ctas", "num_ctas", "", "", 0, INT(num_ctas)},
    {"num_stages", "num_stages", "", "", 0, INT(num_stages)},
    {"shared", "shared memory", " B", " bytes", 0, INT(shared_bytes)},
    {"registers", "registers", "", " per thread", 0, INT(registers)},
    {"spills", "spills", " B", " bytes", 0, INT(spill_bytes)},
    {"target", "target", "", "", 0, TEXT},
    {"triton", "Triton", "", "", 0, TEXT},
    {"wavefront", "wavefront", "", " lanes", 1, INT(warp_size)},
    {"waves_per_eu", "waves_per_eu", "", "", 1, INT(waves_per_eu)},
    {"sgprs", "SGPRs", "", "", 1, INT(sgprs)},
    {"agprs", "AGPRs", "", " (of the registers)", 1, INT(agprs)},
    {"vgpr_spills", "VGPR spills", "", "", 1, INT(vgpr_spills)},
    {"sgpr_spills", "SGPR spills", "", "", 1, INT(sgpr_spills)},
    {"static LDS", "static LDS", " B", " bytes", 1, INT(lds_static_bytes)},
    {"occupancy", "occupancy", " waves/SIMD", " waves per SIMD", 1, INT(occupancy)},
};
_Static_assert(sizeof rows / sizeof rows[0] <= TK_META_FIELD_MAX, "TK_META_FIELD_MAX");

size_t tk_kernel_meta_fields(const tk_kernel_meta *m, tk_meta_field *out, size_t max)
{
    if (!m)
        return 0;
    int is_amd = m->target && strncmp(m->target, "hip", 3) == 0;
    size_t n = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const Row *r = &rows[i];
        if (r->amd && !is_amd)
            continue;
        tk_meta_field f = {r->key, r->label, NULL, -1, r->unit, r->unit_long, r->amd};
        if (r->offset == TEXT) {
            f.text = strcmp(r->key, "target") == 0 ? m->target : m->triton_version;
            if (!f.text)
                continue;
        } else {
            memcpy(&f.value, (const char *)m + r->offset, sizeof f.value);
            if (f.value < 0)
                continue;
        }
        if (n < max)
            out[n] = f;
        n++;
    }
    return n;
}
