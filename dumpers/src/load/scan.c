/* scan.c - finding kernels in what users have on disk: a capture
 * (kernel_dump/ and cache/), a Triton cache or TRITON_DUMP_DIR (HASH/
 * folders), one HASH folder, loose stage files.
 *
 * A folder's files are grouped by kernel name (the file name without its
 * extension), each group a candidate.  A capture holds every kernel twice,
 * under kernel_dump/HASH1/ and cache/HASH2/ with different folder names, so
 * candidates are merged when they have the same name and every stage file
 * both have is byte for byte the same.  Requiring all common stages to agree
 * (not just one) keeps apart two compiles of one kernel that share their
 * TTIR but differ later (num_warps 4 and 8 of one TorchInductor kernel).
 */
#include "load/internal.h"
#include "passfiles/internal.h"
#include "util/text.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SNIFF_BYTES (256 * 1024)

typedef enum {
    FK_IGNORE,
    FK_STAGE,
    FK_META,   /* NAME.json */
    FK_CUBIN,  /* NAME.cubin */
    FK_HSACO,  /* NAME.hsaco: AMD's code object */
    FK_SOURCE, /* NAME.source: the TTIR before any pass */
    FK_SNIFF   /* the name does not say: look at the content */
} file_kind;

typedef struct {
    const char *ext;
    file_kind fk;
    tk_stage_kind kind;
    int rank;
    const char *store_ext;
} ext_rule;

static const ext_rule ext_rules[] = {
    {"ttir", FK_STAGE, TK_STAGE_TTIR, KERNEL_RANK_NAMED, "ttir"},
    {"ttgir", FK_STAGE, TK_STAGE_TTGIR, KERNEL_RANK_NAMED, "ttgir"},
    {"llir", FK_STAGE, TK_STAGE_LLIR, KERNEL_RANK_NAMED, "llir"},
    {"ll", FK_STAGE, TK_STAGE_LLIR, KERNEL_RANK_NAMED, "llir"},
    {"ptx", FK_STAGE, TK_STAGE_PTX, KERNEL_RANK_NAMED, "ptx"},
    {"sass_gi", FK_STAGE, TK_STAGE_SASS, KERNEL_RANK_NAMED, "sass_gi"},
    {"sass_g", FK_STAGE, TK_STAGE_SASS, KERNEL_RANK_SASS_G, "sass_g"},
    {"sass", FK_STAGE, TK_STAGE_SASS, KERNEL_RANK_SASS, "sass"},
    {"amdgcn", FK_STAGE, TK_STAGE_AMDGCN, KERNEL_RANK_NAMED, "amdgcn"},
    {"amdgcn_dis", FK_STAGE, TK_STAGE_AMDGCN, KERNEL_RANK_AMDGCN_DIS,
     "amdgcn_dis"},
    {"json", FK_META, TK_STAGE_UNKNOWN, 0, NULL},
    {"cubin", FK_CUBIN, TK_STAGE_UNKNOWN, 0, NULL},
    {"hsaco", FK_HSACO, TK_STAGE_UNKNOWN, 0, NULL},
    {"source", FK_SOURCE, TK_STAGE_UNKNOWN, 0, NULL},
    {"txt", FK_SNIFF, TK_STAGE_UNKNOWN, KERNEL_RANK_SNIFFED, NULL},
    {"mlir", FK_SNIFF, TK_STAGE_UNKNOWN, KERNEL_RANK_SNIFFED, NULL},
};

/* What the file name BASE says.  *STEM receives the kernel name it implies
 * (caller frees). */
static const ext_rule *classify(const char *base, char **stem)
{
    static const ext_rule sniff = {"", FK_SNIFF, TK_STAGE_UNKNOWN,
                                   KERNEL_RANK_SNIFFED, NULL};
    *stem = NULL;
    /* Hidden files, and Triton's __grp__NAME.json (the list of a cache
     * entry's files), are not kernels. */
    if (base[0] == '.' || g_str_has_prefix(base, "__grp__"))
        return NULL;
    /* NAME.EXT.zst (a format-4 bundle's file, read inflated by
     * tk_input_file_read()) is NAME.EXT; its bytes are never sniffed. */
    size_t n = strlen(base);
    if (n > 4 && g_str_has_suffix(base, ".zst")) {
        char *plain = g_strndup(base, n - 4);
        const ext_rule *r = classify(plain, stem);
        g_free(plain);
        if (r && r->fk != FK_SNIFF)
            return r;
        g_free(*stem);
        *stem = NULL;
        return NULL;
    }
    const char *dot = strrchr(base, '.');
    if (!dot) {
        *stem = g_strdup(base);
        return &sniff;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(ext_rules); i++) {
        if (strcmp(dot + 1, ext_rules[i].ext) != 0)
            continue;
        if (ext_rules[i].fk == FK_SNIFF) /* "k.ptx.txt" names kernel k */
            *stem = g_strndup(base, strcspn(base, "."));
        else
            *stem = g_strndup(base, (size_t)(dot - base));
        return &ext_rules[i];
    }
    return NULL;
}

/* The stage kind of a file whose name does not say, from its first bytes;
 * *EXT receives the extension to store it under. */
static tk_stage_kind sniff_file(const char *path, const char **ext)
{
    char *buf = g_malloc(SNIFF_BYTES);
    ssize_t got = text_read_head(path, buf, SNIFF_BYTES);
    if (got <= 0) {
        g_free(buf);
        return TK_STAGE_UNKNOWN;
    }
    size_t n = (size_t)got;
    tk_stage_kind kind = tk_stage_kind_sniff(buf, n);
    /* MLIR_DUMP_PATH files and captured stderr hold pass dumps of whole
     * modules, which look like stages but are read by the pass views. */
    if (memmem(buf, n, "IR Dump ", 8))
        kind = TK_STAGE_UNKNOWN;
    static const char *const names[] = {"ttir", "ttgir", "llir", "ptx"};
    if (kind < TK_STAGE_SASS)
        *ext = names[kind];
    else if (kind == TK_STAGE_SASS)
        *ext = memmem(buf, n, "inlined at", 10) ? "sass_gi"
               : memmem(buf, n, "//## File", 9) ? "sass_g"
                                                 : "sass";
    else if (kind == TK_STAGE_AMDGCN)
        *ext = memmem(buf, n, "file format elf64-amdgpu", 24) ? "amdgcn_dis"
                                                              : "amdgcn";
    g_free(buf);
    return kind;
}

/* ---- candidates ------------------------------------------------------- */

typedef struct {
    tk_kernel *k;    /* its files; stages not read yet */
    char *dir;       /* the folder it was found in */
    char *json_hash; /* "hash" of its NAME.json, NULL when none */
    gboolean meta_read; /* NAME.json already read into k->meta: each file is
                           parsed once (json-glib costs ~0.3 ms a file, a
                           third of loading a 16-kernel capture) */
    gboolean has_stage;
} candidate;

static void candidate_free(gpointer p)
{
    candidate *c = p;
    kernel_free(c->k);
    g_free(c->dir);
    g_free(c->json_hash);
    g_free(c);
}

static int str_order(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in DIR, sorted (listing order is the file system's whim), or
 * NULL with a warning. */
static GPtrArray *list_dir(const char *dir, tk_diags *diags)
{
    GError *err = NULL;
    GDir *d = g_dir_open(dir, 0, &err);
    if (!d) {
        tk_diags_add(diags, TK_DIAG_WARNING, dir, 0,
                     "cannot list the folder: %s", err->message);
        g_error_free(err);
        return NULL;
    }
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    for (const char *e; (e = g_dir_read_name(d));)
        g_ptr_array_add(names, g_strdup(e));
    g_dir_close(d);
    g_ptr_array_sort(names, str_order);
    return names;
}

/* Whether PATH may be read: the one trust check (bundle/path.c). */
static gboolean may_read(const char *confine, const char *path)
{
    return bundle_may_read(confine, path);
}

/* Scans the files of DIR (not its subfolders) into candidates appended to
 * CANDS, reading only what may_read() allows.  Returns whether DIR looks
 * like a Triton HASH folder (metadata, a cubin or a __grp__ file beside the
 * stages). */
static gboolean scan_dir(GPtrArray *cands, const char *dir,
                         const char *confine, tk_diags *diags)
{
    GPtrArray *names = list_dir(dir, diags);
    if (!names)
        return FALSE;
    gboolean triton_dir = FALSE;
    GHashTable *by_stem = g_hash_table_new_full(g_str_hash, g_str_equal,
                                                g_free, NULL);
    size_t first = cands->len;
    for (size_t i = 0; i < names->len; i++) {
        const char *base = g_ptr_array_index(names, i);
        char *path = g_build_filename(dir, base, NULL);
        char *stem = NULL;
        const ext_rule *r = NULL;
        gboolean regular = g_file_test(path, G_FILE_TEST_IS_REGULAR);
        if (regular && !may_read(confine, path)) {
            tk_diags_add(diags, TK_DIAG_WARNING, path, 0,
                         "not read: a symbolic link out of the bundle "
                         "(a bundle reads only its own files)");
            regular = FALSE;
        }
        if (regular) {
            if (g_str_has_prefix(base, "__grp__"))
                triton_dir = TRUE;
            r = classify(base, &stem);
        }
        tk_stage_kind kind = r ? r->kind : TK_STAGE_UNKNOWN;
        const char *store_ext = r ? r->store_ext : NULL;
        if (r && r->fk == FK_SNIFF) {
            kind = sniff_file(path, &store_ext);
            if (kind == TK_STAGE_UNKNOWN)
                r = NULL;
        }
        if (!r || !stem || !*stem) {
            g_free(stem);
            g_free(path);
            continue;
        }
        candidate *c = g_hash_table_lookup(by_stem, stem);
        if (!c) {
            c = g_new0(candidate, 1);
            c->k = kernel_new(stem, NULL);
            c->dir = g_strdup(dir);
            g_ptr_array_add(cands, c);
            g_hash_table_insert(by_stem, g_strdup(stem), c);
        }
        switch (r->fk) {
        case FK_STAGE:
        case FK_SNIFF:
            if (!kernel_offer_stage(c->k, kind, path, r->rank, store_ext) &&
                c->k->files[kind].rank == r->rank)
                tk_diags_add(diags, TK_DIAG_NOTE, path, 0,
                             "a second %s file for kernel %s; using %s",
                             tk_stage_kind_name(kind), stem,
                             c->k->files[kind].path);
            c->has_stage = TRUE;
            break;
        case FK_META:
            triton_dir = TRUE;
            g_free(c->k->meta_path);
            c->k->meta_path = g_strdup(path);
            break;
        case FK_CUBIN:
            triton_dir = TRUE;
            g_free(c->k->cubin_path);
            c->k->cubin_path = g_strdup(path);
            break;
        case FK_HSACO:
            triton_dir = TRUE;
            g_free(c->k->hsaco_path);
            c->k->hsaco_path = g_strdup(path);
            break;
        case FK_SOURCE:
            g_free(c->k->source_path);
            c->k->source_path = g_strdup(path);
            break;
        case FK_IGNORE:
            break;
        }
        g_free(stem);
        g_free(path);
    }
    g_hash_table_destroy(by_stem);
    g_ptr_array_unref(names);
    /* Groups without a stage (a lone config.json, an empty cache entry's
     * leftovers) are no kernels. */
    for (size_t i = cands->len; i > first; i--) {
        candidate *c = g_ptr_array_index(cands, i - 1);
        if (!c->has_stage)
            g_ptr_array_remove_index(cands, i - 1);
        else if (c->k->meta_path)
            c->meta_read = bundle_meta_read_json(c->k, c->k->meta_path,
                                                 &c->json_hash, diags) == 0;
    }
    return triton_dir;
}

/* Scans every subfolder of DIR as a HASH folder. */
static void scan_hash_dirs(GPtrArray *cands, const char *dir,
                           const char *skip, const char *confine,
                           tk_diags *diags)
{
    GPtrArray *names = list_dir(dir, diags);
    if (!names)
        return;
    for (size_t i = 0; i < names->len; i++) {
        const char *base = g_ptr_array_index(names, i);
        if (base[0] == '.' || (skip && strcmp(base, skip) == 0))
            continue;
        char *sub = g_build_filename(dir, base, NULL);
        if (g_file_test(sub, G_FILE_TEST_IS_DIR) && may_read(confine, sub))
            scan_dir(cands, sub, confine, diags);
        g_free(sub);
    }
    g_ptr_array_unref(names);
}

/* ---- merging ---------------------------------------------------------- */

/* Reads up to N bytes from FD into BUF; how many, or -1. */
static ssize_t read_full(int fd, char *buf, size_t n)
{
    size_t have = 0;
    while (have < n) {
        ssize_t r = read(fd, buf + have, n - have);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        have += (size_t)r;
    }
    return (ssize_t)have;
}

/* Whether the files A and B (of KIND) hold the same bytes, compared a
 * bounded chunk at a time through tk_input_file_open(). */
static gboolean same_content(const char *a, const char *b,
                             tk_input_file_kind kind)
{
    if (strcmp(a, b) == 0)
        return TRUE;
    uint64_t na = 0, nb = 0;
    int fa = tk_input_file_open(a, kind, &na, NULL);
    int fb = fa >= 0 ? tk_input_file_open(b, kind, &nb, NULL) : -1;
    gboolean same = fa >= 0 && fb >= 0 && na == nb;
    enum { CHUNK = 64 * 1024 };
    char *ba = same ? g_malloc(2 * CHUNK) : NULL;
    char *bb = ba ? ba + CHUNK : NULL;
    while (same) {
        ssize_t ra = read_full(fa, ba, CHUNK), rb = read_full(fb, bb, CHUNK);
        same = ra >= 0 && ra == rb && memcmp(ba, bb, (size_t)ra) == 0;
        if (ra <= 0)
            break;
    }
    g_free(ba);
    if (fa >= 0)
        close(fa);
    if (fb >= 0)
        close(fb);
    return same;
}

/* Whether stage file F is what the compiler wrote, not derived from a
 * binary by a disassembler (SASS from the cubin, AMDGCN from the code
 * object): derived files are compared through their binary instead. */
static gboolean compiler_written(tk_stage_kind kind, const kernel_stage_file *f)
{
    return kind != TK_STAGE_SASS &&
           !(kind == TK_STAGE_AMDGCN && f->rank != KERNEL_RANK_NAMED);
}

/* Whether candidate C is the kernel of group G (see the top of the file). */
static gboolean same_kernel(const candidate *g, const candidate *c)
{
    if (strcmp(g->k->name, c->k->name) != 0)
        return FALSE;
    if (g->json_hash && c->json_hash && strcmp(g->json_hash, c->json_hash))
        return FALSE;
    int common = 0;
    for (int i = 0; i < TK_STAGE_COUNT; i++) {
        const kernel_stage_file *a = &g->k->files[i], *b = &c->k->files[i];
        if (!a->path || !b->path || !compiler_written(i, a) ||
            !compiler_written(i, b))
            continue;
        if (!same_content(a->path, b->path, TK_INPUT_FILE_STAGE))
            return FALSE;
        common++;
    }
    /* The binaries: a cubin, or AMD's hsaco, read within a cubin's limit. */
    const char *bins[][2] = {{g->k->cubin_path, c->k->cubin_path},
                             {g->k->hsaco_path, c->k->hsaco_path}};
    for (size_t i = 0; i < G_N_ELEMENTS(bins); i++) {
        if (!bins[i][0] || !bins[i][1])
            continue;
        if (!same_content(bins[i][0], bins[i][1], TK_INPUT_FILE_CUBIN))
            return FALSE;
        common++;
    }
    return common > 0;
}

static void take_path(char **dst, const char *src)
{
    if (!*dst && src)
        *dst = g_strdup(src);
}

/* Adds C's files to group G; G's own files win ties. */
static void merge_into(candidate *g, const candidate *c, const char *root)
{
    for (int i = 0; i < TK_STAGE_COUNT; i++)
        if (c->k->files[i].path)
            kernel_offer_stage(g->k, (tk_stage_kind)i, c->k->files[i].path,
                               c->k->files[i].rank, c->k->files[i].ext);
    if (!g->k->meta_path && c->meta_read) {
        /* The metadata comes with its file: take what was read of it. */
        tk_kernel_meta m = c->k->meta;
        g->k->meta = m;
        kernel_set_target(g->k, c->k->target);
        kernel_set_triton_version(g->k, c->k->triton_version);
        /* and its constants and compile options, in pairs */
        for (guint i = 0; c->k->constants && i + 1 < c->k->constants->len; i += 2)
            kernel_add_constant(g->k, c->k->constants->pdata[i],
                                c->k->constants->pdata[i + 1]);
        for (guint i = 0; c->k->options && i + 1 < c->k->options->len; i += 2)
            kernel_add_option(g->k, c->k->options->pdata[i],
                              c->k->options->pdata[i + 1]);
        g->meta_read = TRUE;
    }
    take_path(&g->k->meta_path, c->k->meta_path);
    take_path(&g->k->cubin_path, c->k->cubin_path);
    take_path(&g->k->hsaco_path, c->k->hsaco_path);
    take_path(&g->k->source_path, c->k->source_path);
    take_path(&g->json_hash, c->json_hash);
    char *rel = bundle_path_relative(root, c->dir);
    char *origin = g_strconcat(g->k->origin, ", ", rel, NULL);
    g_free(g->k->origin);
    g->k->origin = origin;
    g_free(rel);
}

/* Turns the merged group G into a kernel of BUNDLE: metadata, hash, stages.
 * Takes G's kernel. */
static void finish_kernel(tk_bundle *b, candidate *g, tk_diags *diags)
{
    tk_kernel *k = g->k;
    g->k = NULL;
    char *hash = NULL;
    if (g->meta_read)
        hash = g_strdup(g->json_hash);
    else if (k->meta_path)
        bundle_meta_read_json(k, k->meta_path, &hash, diags);
    if (!hash)
        hash = g_path_get_basename(g->dir);
    k->hash = hash;
    if (k->cubin_path)
        bundle_meta_read_cubin(k, k->cubin_path, diags);
    if (kernel_read_stages(k, b->tab, diags) == 0) {
        tk_diags_add(diags, TK_DIAG_WARNING, g->dir, 0,
                     "kernel %s: no stage file could be read; skipped",
                     k->name);
        kernel_free(k);
        return;
    }
    bundle_meta_read_amdgcn(k);
    g_ptr_array_add(b->kernels, k);
}

/* Merges CANDS (in order: earlier folders win ties) into kernels of B. */
static void add_kernels(tk_bundle *b, GPtrArray *cands, tk_diags *diags)
{
    GPtrArray *groups = g_ptr_array_new();
    for (size_t i = 0; i < cands->len; i++) {
        candidate *c = g_ptr_array_index(cands, i);
        candidate *g = NULL;
        for (size_t j = 0; j < groups->len && !g; j++)
            if (same_kernel(g_ptr_array_index(groups, j), c))
                g = g_ptr_array_index(groups, j);
        if (g) {
            merge_into(g, c, b->root);
        } else {
            /* Shown relative to the folder loaded, unless it is that
             * folder. */
            c->k->origin = strcmp(c->dir, b->root) == 0
                               ? g_strdup(c->dir)
                               : bundle_path_relative(b->root, c->dir);
            g_ptr_array_add(groups, c);
        }
    }
    for (size_t j = 0; j < groups->len; j++)
        finish_kernel(b, g_ptr_array_index(groups, j), diags);
    g_ptr_array_free(groups, TRUE);
}

/* ---- entry points ----------------------------------------------------- */

/* The Triton caches of Inductor's own in a capture's inductor/ folder
 * (TORCHINDUCTOR_CACHE_DIR): a program that sets Inductor's
 * force_disable_caches has it compile into a fresh Triton cache in a
 * temporary folder there (inductor/tmpXXXX/triton/HASH/), not
 * TRITON_CACHE_DIR.  Without them those compiles are found only in
 * kernel_dump/, whose folders Triton 3.6 names by the source's hash: two
 * compiles of one source (num_warps 4 and 8) share one, the later one's
 * files in it. */
static void scan_inductor_caches(GPtrArray *cands, const char *root, const char *confine,
                                 tk_diags *diags)
{
    char *ind = g_build_filename(root, "inductor", NULL);
    GPtrArray *names = g_file_test(ind, G_FILE_TEST_IS_DIR) && may_read(confine, ind)
                           ? list_dir(ind, diags)
                           : NULL;
    for (guint i = 0; names && i < names->len; i++) {
        const char *base = g_ptr_array_index(names, i);
        char *triton = g_build_filename(ind, base, "triton", NULL);
        if (base[0] != '.' && g_file_test(triton, G_FILE_TEST_IS_DIR) &&
            may_read(confine, triton))
            scan_hash_dirs(cands, triton, NULL, confine, diags);
        g_free(triton);
    }
    if (names)
        g_ptr_array_unref(names);
    g_free(ind);
}

void bundle_scan_folder(tk_bundle *b, const char *root, const char *skip,
                        tk_diags *diags)
{
    GPtrArray *cands = g_ptr_array_new_with_free_func(candidate_free);
    char *dump = g_build_filename(root, "kernel_dump", NULL);
    char *cache = g_build_filename(root, "cache", NULL);
    const char *confine = b->confine;
    gboolean have_dump = g_file_test(dump, G_FILE_TEST_IS_DIR) &&
                         may_read(confine, dump);
    gboolean have_cache = g_file_test(cache, G_FILE_TEST_IS_DIR) &&
                          may_read(confine, cache);
    if (have_dump || have_cache) {
        /* kernel_dump/ first: its folder has every SASS flavour, and a
         * merged kernel lists it first as its origin. */
        b->kind = TK_INPUT_CAPTURE;
        if (have_dump)
            scan_hash_dirs(cands, dump, NULL, confine, diags);
        if (have_cache)
            scan_hash_dirs(cands, cache, NULL, confine, diags);
        scan_inductor_caches(cands, root, confine, diags);
    } else {
        gboolean triton_dir = scan_dir(cands, root, confine, diags);
        if (cands->len > 0) {
            b->kind = triton_dir ? TK_INPUT_KERNEL_DIR : TK_INPUT_FILES;
        } else {
            b->kind = TK_INPUT_KERNEL_DIRS;
            scan_hash_dirs(cands, root, skip, confine, diags);
        }
    }
    g_free(dump);
    g_free(cache);
    add_kernels(b, cands, diags);
    g_ptr_array_free(cands, TRUE);
}

void bundle_scan_file(tk_bundle *b, const char *path, tk_diags *diags)
{
    b->kind = TK_INPUT_FILES;
    char *base = g_path_get_basename(path);
    char *stem = NULL;
    const ext_rule *r = classify(base, &stem);
    tk_stage_kind kind = TK_STAGE_UNKNOWN;
    const char *store_ext = NULL;
    int rank = KERNEL_RANK_SNIFFED;
    if (r && r->fk == FK_STAGE) {
        kind = r->kind;
        store_ext = r->store_ext;
        rank = r->rank;
    } else {
        /* A pass dump file (an MLIR_DUMP_PATH file, a captured stderr, a
         * bundle's compressed slice): its compiles are the kernels. */
        if (bundle_passfiles_load_direct(b, path, diags)) {
            g_free(stem);
            g_free(base);
            return;
        }
        /* Given by hand: whatever the name, the content may say. */
        kind = sniff_file(path, &store_ext);
        if (!stem)
            stem = g_strndup(base, strcspn(base, "."));
    }
    if (kind == TK_STAGE_UNKNOWN || !stem || !*stem) {
        tk_diags_add(diags, TK_DIAG_ERROR, path, 0,
                     "not a stage file: neither its name (.ttir .ttgir .llir "
                     ".ll .ptx .sass_gi .sass_g .sass .amdgcn .amdgcn_dis) "
                     "nor its content says which stage it is");
    } else {
        candidate *c = g_new0(candidate, 1);
        c->k = kernel_new(stem, NULL);
        c->dir = g_path_get_dirname(path);
        c->k->origin = g_strdup(path);
        kernel_offer_stage(c->k, kind, path, rank, store_ext);
        finish_kernel(b, c, diags);
        candidate_free(c);
    }
    g_free(stem);
    g_free(base);
}
