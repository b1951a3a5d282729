/* meta_amdgcn.c - an AMD kernel's resources, from its AMDGCN assembly.
 *
 * Registers, scratch and LDS are not in Triton's NAME.json; the assembly
 * printer writes them twice in the .amdgcn text, both cheap to read:
 *
 *   - the kernel descriptor: ".amdhsa_next_free_vgpr 76",
 *     ".amdhsa_next_free_sgpr 22" (without VCC and the other reserved
 *     registers), ".amdhsa_group_segment_fixed_size 0",
 *     ".amdhsa_private_segment_fixed_size 0", ".amdhsa_accum_offset 60";
 *   - the code object's metadata, YAML between ".amdgpu_metadata" and
 *     ".end_amdgpu_metadata", one entry per kernel under "amdhsa.kernels:":
 *     "  - .agpr_count: 16", "    .name: matmul_kernel", ".vgpr_count: 76",
 *     ".sgpr_count: 28" (what the hardware allocates), ".vgpr_spill_count",
 *     ".sgpr_spill_count", ".private_segment_fixed_size",
 *     ".group_segment_fixed_size", ".wavefront_size: 64";
 *   - and in the "; Kernel info:" comments, "; Occupancy: 6".
 *
 * The YAML entry named after the kernel wins (the only entry when there is
 * one), then the descriptor.  Only those few lines are read: the YAML is not
 * parsed as YAML, nor is anything trusted beyond a number after a key.  The
 * disassembly of a code object (.amdgcn_dis) carries none of this.
 */
#include "load/internal.h"

#include <string.h>

#include "util/scan.h"

/* What one source (the YAML entry, the descriptor) said; -1 unknown. */
typedef struct {
    int64_t vgprs, sgprs, agprs, vgpr_spills, sgpr_spills, scratch, lds;
    int64_t wave;
} amd_resources;

static void resources_init(amd_resources *r)
{
    r->vgprs = r->sgprs = r->agprs = r->vgpr_spills = r->sgpr_spills = -1;
    r->scratch = r->lds = r->wave = -1;
}

/* The number after KEY at P (KEY, then blanks or ':' and blanks, then
 * digits, then nothing but blanks).  -1 when the line is not that. */
static int64_t value_after(const char *p, const char *end, const char *key)
{
    if (!scan_starts(p, end, key))
        return -1;
    p += strlen(key);
    if (p < end && *p == ':')
        p++;
    const char *q = scan_skip_spaces(p, end);
    if (q == p)
        return -1; /* ".vgpr_count_x": another key */
    uint32_t v;
    if (scan_u32(&q, end, &v) != SCAN_OK || scan_skip_spaces(q, end) != end)
        return -1;
    return v;
}

static void take(int64_t *dst, const char *p, const char *end,
                 const char *key)
{
    int64_t v = value_after(p, end, key);
    if (v >= 0)
        *dst = v;
}

/* A key of one YAML kernel entry (P past the "  - " or the indentation). */
static void yaml_key(amd_resources *r, const char *p, const char *end)
{
    take(&r->vgprs, p, end, ".vgpr_count");
    take(&r->sgprs, p, end, ".sgpr_count");
    take(&r->agprs, p, end, ".agpr_count");
    take(&r->vgpr_spills, p, end, ".vgpr_spill_count");
    take(&r->sgpr_spills, p, end, ".sgpr_spill_count");
    take(&r->scratch, p, end, ".private_segment_fixed_size");
    take(&r->lds, p, end, ".group_segment_fixed_size");
    take(&r->wave, p, end, ".wavefront_size");
}

static void set_if_known(int64_t *dst, int64_t v)
{
    if (v >= 0)
        *dst = v;
}

void bundle_meta_read_amdgcn(tk_kernel *k)
{
    const tk_stage *st = k->stages[TK_STAGE_AMDGCN];
    if (!st)
        return;
    amd_resources desc, yaml, entry;
    resources_init(&desc);
    resources_init(&yaml);
    resources_init(&entry);
    int64_t occupancy = -1;
    int in_yaml = 0, entries = 0, named = 0, entry_named = 0;
    size_t name_len = strlen(k->name);
    uint32_t n = tk_stage_line_count(st);
    for (uint32_t l = 1; l <= n; l++) {
        size_t len;
        const char *line = tk_stage_line(st, l, &len);
        const char *end = line + len;
        const char *p = scan_skip_spaces(line, end);
        if (in_yaml) {
            if (scan_starts(p, end, ".end_amdgpu_metadata")) {
                in_yaml = 0;
                continue;
            }
            size_t indent = (size_t)(p - line);
            if (indent == 2 && scan_starts(p, end, "- ")) {
                /* "  - .agpr_count: 16": a new kernel entry. */
                if (entries++ && (entry_named || !named))
                    yaml = entry;
                named |= entry_named;
                resources_init(&entry);
                entry_named = 0;
                p = scan_skip_spaces(p + 2, end);
            } else if (indent != 4 || entries == 0) {
                continue; /* the arguments' keys, amdhsa.version, ... */
            }
            yaml_key(&entry, p, end);
            if (scan_starts(p, end, ".name:")) {
                const char *v = scan_skip_spaces(p + 6, end);
                const char *e = end;
                while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
                    e--;
                entry_named = (size_t)(e - v) == name_len &&
                              memcmp(v, k->name, name_len) == 0;
            }
            continue;
        }
        if (scan_starts(p, end, ".amdgpu_metadata")) {
            in_yaml = 1;
            continue;
        }
        if (scan_starts(p, end, ".amdhsa_")) {
            take(&desc.vgprs, p, end, ".amdhsa_next_free_vgpr");
            take(&desc.sgprs, p, end, ".amdhsa_next_free_sgpr");
            take(&desc.scratch, p, end, ".amdhsa_private_segment_fixed_size");
            take(&desc.lds, p, end, ".amdhsa_group_segment_fixed_size");
        } else if (scan_starts(p, end, "; Occupancy:")) {
            take(&occupancy, p, end, "; Occupancy");
        }
    }
    /* The last entry, closed by the block's end. */
    if (entries && (entry_named || !named))
        yaml = entry;
    if (entries > 1 && !named && !entry_named)
        resources_init(&yaml); /* several kernels, none of them this one */

    amd_resources *srcs[] = {&desc, &yaml}; /* later wins */
    for (size_t i = 0; i < G_N_ELEMENTS(srcs); i++) {
        const amd_resources *r = srcs[i];
        set_if_known(&k->meta.registers, r->vgprs);
        set_if_known(&k->meta.sgprs, r->sgprs);
        set_if_known(&k->meta.agprs, r->agprs);
        set_if_known(&k->meta.vgpr_spills, r->vgpr_spills);
        set_if_known(&k->meta.sgpr_spills, r->sgpr_spills);
        set_if_known(&k->meta.spill_bytes, r->scratch);
        set_if_known(&k->meta.lds_static_bytes, r->lds);
        if (k->meta.warp_size < 0)
            set_if_known(&k->meta.warp_size, r->wave);
    }
    set_if_known(&k->meta.occupancy, occupancy);
}
