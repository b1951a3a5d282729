/* kernel.c - the kernel model: making a kernel, its stage files and stages,
 * and the accessors of tkdump/tk_kernel.h. */
#include "tkdump/tk_kernel.h"

#include <string.h>

#include "kernel/kernel.h"

tk_kernel *kernel_new(const char *name, const char *hash)
{
    tk_kernel *k = g_new0(tk_kernel, 1);
    k->name = g_strdup(name);
    k->hash = g_strdup(hash);
    kernel_meta_init(&k->meta);
    return k;
}

void kernel_meta_init(tk_kernel_meta *m)
{
    memset(m, 0, sizeof *m);
    int64_t *unknown[] = {&m->num_warps,   &m->num_ctas,     &m->num_stages,
                          &m->shared_bytes, &m->registers,   &m->spill_bytes,
                          &m->warp_size,   &m->waves_per_eu, &m->sgprs,
                          &m->agprs,       &m->vgpr_spills,  &m->sgpr_spills,
                          &m->lds_static_bytes, &m->occupancy};
    for (size_t i = 0; i < G_N_ELEMENTS(unknown); i++)
        *unknown[i] = -1;
}

void kernel_free(tk_kernel *k)
{
    if (!k)
        return;
    for (int i = 0; i < TK_STAGE_COUNT; i++) {
        g_free(k->files[i].path);
        tk_stage_free(k->stages[i]);
        g_free(k->missing[i]);
        g_free(k->missing_default[i]);
    }
    g_free(k->name);
    g_free(k->hash);
    g_free(k->origin);
    g_free(k->meta_path);
    g_free(k->cubin_path);
    g_free(k->hsaco_path);
    g_free(k->source_path);
    g_free(k->profile_path);
    g_free(k->life_ranges_path);
    g_free(k->target);
    g_free(k->triton_version);
    if (k->constants)
        g_ptr_array_free(k->constants, TRUE);
    if (k->options)
        g_ptr_array_free(k->options, TRUE);
    g_free(k);
}

gboolean kernel_offer_stage(tk_kernel *k, tk_stage_kind kind,
                            const char *path, int rank, const char *ext)
{
    if (kind >= TK_STAGE_COUNT || rank <= k->files[kind].rank)
        return FALSE;
    g_free(k->files[kind].path);
    k->files[kind].path = g_strdup(path);
    k->files[kind].rank = rank;
    k->files[kind].ext = ext;
    return TRUE;
}

int kernel_read_stages(tk_kernel *k, tk_loctab *tab, tk_diags *diags)
{
    int n = 0;
    for (int i = 0; i < TK_STAGE_COUNT; i++) {
        if (!k->files[i].path || k->stages[i])
            continue;
        k->stages[i] = tk_stage_read((tk_stage_kind)i, k->files[i].path, tab,
                                     diags);
        if (k->stages[i])
            n++;
        else {
            /* What could not be read is not offered to a later save. */
            g_free(k->files[i].path);
            k->files[i].path = NULL;
            k->files[i].rank = KERNEL_RANK_NONE;
        }
    }
    return n;
}

void kernel_set_target(tk_kernel *k, const char *target)
{
    g_free(k->target);
    k->target = g_strdup(target);
    k->meta.target = k->target;
}

void kernel_set_triton_version(tk_kernel *k, const char *version)
{
    g_free(k->triton_version);
    k->triton_version = g_strdup(version);
    k->meta.triton_version = k->triton_version;
}

const char *tk_kernel_name(const tk_kernel *k)
{
    return k->name;
}

const char *tk_kernel_hash(const tk_kernel *k)
{
    return k->hash;
}

const tk_stage *tk_kernel_stage(const tk_kernel *k, tk_stage_kind kind)
{
    return kind < TK_STAGE_COUNT ? k->stages[kind] : NULL;
}

/* Whether K was compiled by Triton's AMD backend. */
static int is_amd(const tk_kernel *k)
{
    if (k->meta.target)
        return g_str_has_prefix(k->meta.target, "hip");
    return k->stages[TK_STAGE_AMDGCN] || k->files[TK_STAGE_AMDGCN].path ||
           k->hsaco_path;
}

int tk_kernel_stage_expected(const tk_kernel *k, tk_stage_kind kind)
{
    switch (kind) {
    case TK_STAGE_TTIR:
    case TK_STAGE_TTGIR:
    case TK_STAGE_LLIR:
        return 1;
    case TK_STAGE_PTX:
    case TK_STAGE_SASS:
        return !is_amd(k);
    case TK_STAGE_AMDGCN:
        return is_amd(k);
    default:
        return 0;
    }
}

int tk_kernel_has_stages(const tk_kernel *k)
{
    for (int s = 0; s < TK_STAGE_COUNT; s++)
        if (k->stages[s])
            return 1;
    return 0;
}

const tk_kernel_meta *tk_kernel_metadata(const tk_kernel *k)
{
    return &k->meta;
}

const char *tk_kernel_origin(const tk_kernel *k)
{
    return k->origin ? k->origin : "";
}

const char *tk_kernel_profile_path(const tk_kernel *k)
{
    return k->profile_path;
}

const char *tk_kernel_stage_missing(const tk_kernel *ck, tk_stage_kind kind)
{
    if (kind >= TK_STAGE_COUNT || ck->stages[kind])
        return NULL;
    if (ck->missing[kind])
        return ck->missing[kind];
    /* Not recorded: say where it was looked for.  The text is made on first
     * use and cached, which is why the kernel is written to here. */
    tk_kernel *k = (tk_kernel *)ck;
    if (!k->missing_default[kind]) {
        if (k->from_passes)
            k->missing_default[kind] = g_strdup_printf(
                "no final stages were found: the kernel comes from pass dumps "
                "only (%s), which show its compile pass by pass",
                tk_kernel_origin(k));
        else if (k->files[kind].path)
            k->missing_default[kind] = g_strdup_printf(
                "%s could not be read", k->files[kind].path);
        else if (kind == TK_STAGE_SASS && k->cubin_path &&
                 g_str_has_suffix(k->cubin_path, ".zst"))
            /* a format-4 bundle's cubin is compressed: nvdisasm needs it
             * plain */
            k->missing_default[kind] = g_strdup_printf(
                "no %s.sass_gi, .sass_g or .sass beside the cubin; make one "
                "with: zstd -dc %s > %s.cubin && nvdisasm -c -gi %s.cubin",
                k->name, k->cubin_path, k->name, k->name);
        else if (kind == TK_STAGE_SASS && k->cubin_path)
            k->missing_default[kind] = g_strdup_printf(
                "no %s.sass_gi, .sass_g or .sass beside the cubin; make one "
                "with: nvdisasm -c -gi %s", k->name, k->cubin_path);
        else if (kind == TK_STAGE_AMDGCN && k->hsaco_path) {
            const char *arch = k->meta.target ? strchr(k->meta.target, ':')
                                              : NULL;
            /* a format-4 bundle's code object is compressed: unpacked
             * first, as llvm-objdump needs it plain */
            gboolean zst = g_str_has_suffix(k->hsaco_path, ".zst");
            char *unpack = zst ? g_strdup_printf("zstd -dc %s > %s.hsaco && ",
                                                 k->hsaco_path, k->name)
                               : g_strdup("");
            char *obj = zst ? g_strdup_printf("%s.hsaco", k->name)
                            : g_strdup(k->hsaco_path);
            k->missing_default[kind] = g_strdup_printf(
                "no %s.amdgcn beside the code object; make a disassembly "
                "with line numbers with: %sllvm-objdump-19 -d --line-numbers "
                "--mcpu=%s %s > %s.amdgcn_dis",
                k->name, unpack, arch && arch[1] ? arch + 1 : "gfx942", obj,
                k->name);
            g_free(unpack);
            g_free(obj);
        }
        else
            k->missing_default[kind] = g_strdup_printf(
                "no %s file for kernel %s in %s", tk_stage_kind_name(kind),
                k->name, tk_kernel_origin(k));
    }
    return k->missing_default[kind];
}

void kernel_add_constant(tk_kernel *k, const char *name, const char *value)
{
    if (!k->constants)
        k->constants = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(k->constants, g_strdup(name));
    g_ptr_array_add(k->constants, g_strdup(value));
}

void kernel_add_option(tk_kernel *k, const char *name, const char *value)
{
    if (!k->options)
        k->options = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(k->options, g_strdup(name));
    g_ptr_array_add(k->options, g_strdup(value));
}

size_t tk_kernel_option_count(const tk_kernel *k)
{
    return k->options ? k->options->len / 2 : 0;
}

const char *tk_kernel_option(const tk_kernel *k, size_t i, const char **value)
{
    if (i >= tk_kernel_option_count(k))
        return NULL;
    if (value)
        *value = g_ptr_array_index(k->options, 2 * i + 1);
    return g_ptr_array_index(k->options, 2 * i);
}

size_t tk_kernel_constant_count(const tk_kernel *k)
{
    return k->constants ? k->constants->len / 2 : 0;
}

const char *tk_kernel_constant(const tk_kernel *k, size_t i, const char **value)
{
    if (i >= tk_kernel_constant_count(k))
        return NULL;
    if (value)
        *value = g_ptr_array_index(k->constants, 2 * i + 1);
    return g_ptr_array_index(k->constants, 2 * i);
}

const char *tk_kernel_source_ttir(const tk_kernel *k)
{
    return k->source_path;
}
