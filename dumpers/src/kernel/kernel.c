/* kernel.c - the kernel model: making a kernel, its stage files and stages,
 * and the accessors of tkdump/tk_kernel.h. */
#include "tkdump/tk_kernel.h"

#include "kernel/kernel.h"

tk_kernel *kernel_new(const char *name, const char *hash)
{
    tk_kernel *k = g_new0(tk_kernel, 1);
    k->name = g_strdup(name);
    k->hash = g_strdup(hash);
    k->meta.num_warps = k->meta.num_ctas = k->meta.num_stages = -1;
    k->meta.shared_bytes = k->meta.registers = k->meta.spill_bytes = -1;
    return k;
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
    g_free(k->source_path);
    g_free(k->profile_path);
    g_free(k->target);
    g_free(k->triton_version);
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
        else if (kind == TK_STAGE_SASS && k->cubin_path)
            k->missing_default[kind] = g_strdup_printf(
                "no %s.sass_gi, .sass_g or .sass beside the cubin; make one "
                "with: nvdisasm -c -gi %s", k->name, k->cubin_path);
        else
            k->missing_default[kind] = g_strdup_printf(
                "no %s file for kernel %s in %s", tk_stage_kind_name(kind),
                k->name, tk_kernel_origin(k));
    }
    return k->missing_default[kind];
}
