/* meta.c - a kernel's metadata: Triton's NAME.json and the cubin.
 *
 * NAME.json (in Triton's cache) gives the launch configuration Triton chose:
 * num_warps, num_ctas, num_stages, "shared" (bytes of shared memory, LDS on
 * AMD), warp_size, target {backend, arch}, triton_version and, for AMD,
 * waves_per_eu.  Registers and local memory are
 * not in it (Triton asks the driver at load time), so they are read from the
 * cubin's ELF: NVIDIA's ".nv.info" sections hold a list of attributes
 * (EIATTR_*), among them the register count and the frame size of each
 * function.  The ELF is parsed here with every offset checked, because the
 * cubin is as untrusted as any other input.
 */
#include "load/internal.h"

#include <elf.h>
#include <string.h>


/* ---- NAME.json -------------------------------------------------------- */

/* "cuda:90" from {"backend": "cuda", "arch": 90}; AMD's arch is a string
 * ("gfx942").  Caller frees; NULL when the target says neither. */
static char *target_string(JsonObject *target)
{
    const char *backend = bundle_json_string(target, "backend");
    if (!backend)
        return NULL;
    const char *arch_s = bundle_json_string(target, "arch");
    if (arch_s)
        return g_strdup_printf("%s:%s", backend, arch_s);
    int64_t arch = bundle_json_int(target, "arch");
    if (arch >= 0)
        return g_strdup_printf("%s:%" G_GINT64_FORMAT, backend, (gint64)arch);
    return g_strdup(backend);
}

/* NAME.json's "constants" (older Triton): each member's value as JSON
 * text, scalars only (an array or object value is not a constexpr). */
static void read_constants(tk_kernel *k, JsonObject *constants)
{
    if (!constants)
        return;
    GList *members = json_object_get_members(constants);
    for (GList *m = members; m; m = m->next) {
        JsonNode *v = json_object_get_member(constants, m->data);
        if (!v || JSON_NODE_TYPE(v) != JSON_NODE_VALUE)
            continue;
        char *text = json_to_string(v, FALSE);
        kernel_add_constant(k, m->data, text);
        g_free(text);
    }
    g_list_free(members);
}

/* Members that are no compile option: the kernel's identity, what the
 * compile produced, and what tk_kernel_meta or read_constants() holds. */
static const char *const not_options[] = {
    "name", "hash", "shared", "tmem_size", "global_scratch_size",
    "global_scratch_align", "profile_scratch_size", "profile_scratch_align",
    "tensordesc_meta", "constants", "num_warps", "num_ctas", "num_stages",
    "warp_size", "target", "triton_version", NULL};

/* Every other member of NAME.json, as JSON text: a configuration is
 * everything that can differ, not a fixed list. */
static void read_options(tk_kernel *k, JsonObject *o)
{
    if (k->options)
        return; /* read once */
    GList *members = json_object_get_members(o);
    for (GList *m = members; m; m = m->next) {
        if (g_strv_contains(not_options, m->data))
            continue;
        JsonNode *v = json_object_get_member(o, m->data);
        if (!v)
            continue;
        char *text = json_to_string(v, FALSE);
        kernel_add_option(k, m->data, text);
        g_free(text);
    }
    g_list_free(members);
}

void bundle_meta_read_options(tk_kernel *k, const char *path, tk_diags *diags)
{
    char *err = NULL;
    JsonNode *root = bundle_json_read_file(path, TK_INPUT_FILE_METADATA, &err);
    if (root && JSON_NODE_TYPE(root) == JSON_NODE_OBJECT)
        read_options(k, json_node_get_object(root));
    else
        tk_diags_add(diags, TK_DIAG_WARNING, path, 0,
                     "cannot read the kernel metadata: %s",
                     err ? err : "not a JSON object");
    g_free(err);
    if (root)
        json_node_unref(root);
}

int bundle_meta_read_json(tk_kernel *k, const char *path, char **hash,
                          tk_diags *diags)
{
    if (hash)
        *hash = NULL;
    char *err = NULL;
    JsonNode *root = bundle_json_read_file(path, TK_INPUT_FILE_METADATA, &err);
    if (!root || JSON_NODE_TYPE(root) != JSON_NODE_OBJECT) {
        tk_diags_add(diags, TK_DIAG_WARNING, path, 0,
                     "cannot read the kernel metadata: %s",
                     err ? err : "not a JSON object");
        g_free(err);
        if (root)
            json_node_unref(root);
        return -1;
    }
    JsonObject *o = json_node_get_object(root);
    k->meta.num_warps = bundle_json_int(o, "num_warps");
    k->meta.num_ctas = bundle_json_int(o, "num_ctas");
    k->meta.num_stages = bundle_json_int(o, "num_stages");
    k->meta.shared_bytes = bundle_json_int(o, "shared");
    k->meta.warp_size = bundle_json_int(o, "warp_size");
    k->meta.waves_per_eu = bundle_json_int(o, "waves_per_eu");
    char *target = target_string(bundle_json_object(o, "target"));
    kernel_set_target(k, target);
    g_free(target);
    kernel_set_triton_version(k, bundle_json_string(o, "triton_version"));
    read_constants(k, bundle_json_object(o, "constants"));
    read_options(k, o);
    if (hash && bundle_json_string(o, "hash") && *bundle_json_string(o, "hash"))
        *hash = g_strdup(bundle_json_string(o, "hash"));
    json_node_unref(root);
    return 0;
}

/* ---- the cubin -------------------------------------------------------- */

/* EIATTR codes and formats, as cuobjdump -elf names them.  Each attribute is
 * a 4-byte header {format, code, u16} where for EIFMT_SVAL the u16 is the
 * size of the payload that follows; the other formats carry no payload. */
#define EIFMT_SVAL 0x04
#define EIATTR_FRAME_SIZE 0x11
#define EIATTR_REGCOUNT 0x2f

static uint32_t rd32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

typedef struct {
    const unsigned char *data;
    size_t len;
    const Elf64_Shdr *sh; /* unaligned in memory: copied before use */
    size_t shnum;
    Elf64_Shdr shstr;
} elf_view;

/* Section I's header, copied (the image need not be aligned). */
static Elf64_Shdr section(const elf_view *e, size_t i)
{
    Elf64_Shdr s;
    memcpy(&s, (const unsigned char *)e->sh + i * sizeof(Elf64_Shdr),
           sizeof s);
    return s;
}

/* The bytes of section S, or NULL when they do not lie inside the file. */
static const unsigned char *section_bytes(const elf_view *e, Elf64_Shdr s)
{
    if (s.sh_type == SHT_NOBITS || s.sh_offset > e->len ||
        s.sh_size > e->len - s.sh_offset)
        return NULL;
    return e->data + s.sh_offset;
}

/* The NUL-terminated string at OFF of string table S, or NULL. */
static const char *section_string(const elf_view *e, Elf64_Shdr s,
                                  uint64_t off)
{
    const unsigned char *b = section_bytes(e, s);
    if (!b || off >= s.sh_size)
        return NULL;
    const char *str = (const char *)b + off;
    return memchr(str, '\0', s.sh_size - off) ? str : NULL;
}

/* The symbol index of function NAME in the first symbol table, or -1. */
static int64_t find_symbol(const elf_view *e, const char *name)
{
    for (size_t i = 0; i < e->shnum; i++) {
        Elf64_Shdr s = section(e, i);
        if (s.sh_type != SHT_SYMTAB || s.sh_entsize != sizeof(Elf64_Sym) ||
            s.sh_link >= e->shnum)
            continue;
        const unsigned char *b = section_bytes(e, s);
        Elf64_Shdr strtab = section(e, s.sh_link);
        if (!b)
            continue;
        size_t n = s.sh_size / sizeof(Elf64_Sym);
        for (size_t j = 0; j < n; j++) {
            Elf64_Sym sym;
            memcpy(&sym, b + j * sizeof sym, sizeof sym);
            if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC)
                continue;
            const char *sname = section_string(e, strtab, sym.st_name);
            if (sname && strcmp(sname, name) == 0)
                return (int64_t)j;
        }
        return -1;
    }
    return -1;
}

/* Walks the attributes of one .nv.info section.  Attributes naming symbol
 * SYM (or any symbol, when SYM is -1 and the section holds one function's
 * attributes only) set *REGS and *LOCAL. */
static void scan_nv_info(const unsigned char *b, size_t size, int64_t sym,
                         int64_t *regs, int64_t *local, int *n_regcounts)
{
    size_t off = 0;
    while (size - off >= 4) {
        unsigned fmt = b[off], code = b[off + 1];
        size_t payload = fmt == EIFMT_SVAL ? (size_t)(b[off + 2] | b[off + 3] << 8)
                                           : 0;
        if (fmt < 0x01 || fmt > 0x04 || payload > size - off - 4)
            return; /* unknown format: the rest cannot be framed */
        const unsigned char *p = b + off + 4;
        if (fmt == EIFMT_SVAL && payload >= 8 &&
            (code == EIATTR_REGCOUNT || code == EIATTR_FRAME_SIZE)) {
            uint32_t s = rd32(p), v = rd32(p + 4);
            if (code == EIATTR_REGCOUNT)
                (*n_regcounts)++;
            if (sym < 0 || s == (uint64_t)sym) {
                if (code == EIATTR_REGCOUNT)
                    *regs = v;
                else
                    *local = v;
            }
        }
        off += 4 + payload;
    }
}

int bundle_cubin_resources(const unsigned char *data, size_t len,
                           const char *name, int64_t *regs, int64_t *local_bytes,
                           const char **why)
{
    *regs = *local_bytes = -1;
    Elf64_Ehdr eh;
    if (len < sizeof eh || memcmp(data, ELFMAG, SELFMAG) != 0) {
        *why = "not an ELF file";
        return -1;
    }
    memcpy(&eh, data, sizeof eh);
    if (eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_ident[EI_DATA] != ELFDATA2LSB) {
        *why = "not a 64-bit little-endian ELF file";
        return -1;
    }
    elf_view e = {.data = data, .len = len};
    e.shnum = eh.e_shnum;
    if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > len ||
        eh.e_shoff < sizeof eh) {
        *why = "bad section header table";
        return -1;
    }
    e.sh = (const Elf64_Shdr *)(data + eh.e_shoff);
    if (e.shnum == 0 && len - eh.e_shoff >= sizeof(Elf64_Shdr)) {
        /* More than 0xff00 sections: the count is in section 0. */
        e.shnum = section(&e, 0).sh_size;
    }
    if (e.shnum == 0 ||
        e.shnum > (len - eh.e_shoff) / sizeof(Elf64_Shdr)) {
        *why = "bad section header table";
        return -1;
    }
    size_t shstrndx = eh.e_shstrndx;
    if (shstrndx == SHN_XINDEX)
        shstrndx = section(&e, 0).sh_link;
    if (shstrndx >= e.shnum) {
        *why = "bad section name table";
        return -1;
    }
    e.shstr = section(&e, shstrndx);

    int64_t sym = find_symbol(&e, name);
    char *own = g_strconcat(".nv.info.", name, NULL);
    int n_regcounts = 0;
    int64_t any_regs = -1, any_local = -1;
    for (size_t i = 0; i < e.shnum; i++) {
        Elf64_Shdr s = section(&e, i);
        const char *sname = section_string(&e, e.shstr, s.sh_name);
        const unsigned char *b = section_bytes(&e, s);
        if (!sname || !b)
            continue;
        if (strcmp(sname, ".nv.info") == 0) {
            if (sym >= 0)
                scan_nv_info(b, s.sh_size, sym, regs, local_bytes,
                             &n_regcounts);
            else
                scan_nv_info(b, s.sh_size, -1, &any_regs, &any_local,
                             &n_regcounts);
        } else if (strcmp(sname, own) == 0) {
            /* Older toolchains put the function's own attributes here. */
            int unused = 0;
            int64_t r = -1, l = -1;
            scan_nv_info(b, s.sh_size, -1, &r, &l, &unused);
            if (*regs < 0)
                *regs = r;
            if (*local_bytes < 0)
                *local_bytes = l;
        }
    }
    g_free(own);
    /* A cubin whose symbol table does not name the kernel (a renamed loose
     * file) still says enough when it holds one function only. */
    if (sym < 0 && n_regcounts == 1) {
        if (*regs < 0)
            *regs = any_regs;
        if (*local_bytes < 0)
            *local_bytes = any_local;
    }
    return 0;
}

int bundle_meta_read_cubin(tk_kernel *k, const char *path, tk_diags *diags)
{
    /* Read, not mapped: mapping opens without O_NONBLOCK (a FIFO named
     * NAME.cubin would hang it) and a file cut while mapped faults. */
    size_t len = 0;
    char *err = NULL;
    unsigned char *data =
        (unsigned char *)tk_input_file_read(path, TK_INPUT_FILE_CUBIN, &len, &err);
    if (!data) {
        tk_diags_add(diags, TK_DIAG_WARNING, path, 0,
                     "cannot read the cubin: %s", err);
        g_free(err);
        return -1;
    }
    const char *why = NULL;
    int64_t regs = -1, local = -1;
    int rc = -1;
    if (len == 0)
        why = "empty file";
    else
        rc = bundle_cubin_resources(data, len, k->name, &regs, &local, &why);
    g_free(data);
    if (rc != 0) {
        tk_diags_add(diags, TK_DIAG_WARNING, path, 0,
                     "cannot read registers from the cubin: %s", why);
        return -1;
    }
    k->meta.registers = regs;
    k->meta.spill_bytes = local;
    return 0;
}
