/* passfiles_only.c - pass dump files as the whole input (one given
 * directly, or a folder holding nothing else): their compiles are the
 * kernels, without final stages (tk_bundle_load.h).
 *
 * A compile's MLIR_DUMP_PATH sequence and its stderr sequence are one
 * kernel when they can be paired without a guess: one of each names the
 * kernel, or the content of the kernel's function singles the pair out;
 * otherwise each stays a kernel of its own, with a note.
 */
#include "passfiles/internal.h"

#include <string.h>

/* Which part of a compile a sequence holds: MLIR_DUMP_PATH gives the MLIR
 * pass manager's dumps of a compile and a captured stderr the LLVM ones
 * (with Triton's internal MLIR dumps), so one compile is two sequences in
 * two files; a stderr that got both holds it whole. */
typedef enum { PART_WHOLE, PART_MLIR, PART_LLVM } part_role;

typedef struct {
    bundle_pass_file *f;
    size_t seq;
    part_role role;
    gboolean done; /* made into a kernel */
} seq_ref;

static part_role role_of(const tk_passes *p, const tk_pass_seq *q)
{
    gboolean mlir = FALSE, llvm = FALSE;
    for (size_t j = 0; j < q->n_dumps; j++) {
        tk_pass_kind k = tk_passes_get(p, q->dumps[j])->kind;
        if (k == TK_PASS_MLIR)
            mlir = TRUE;
        else if (k != TK_PASS_MLIR_INTERNAL)
            llvm = TRUE;
    }
    return mlir && !llvm ? PART_MLIR : llvm && !mlir ? PART_LLVM : PART_WHOLE;
}

/* What survives the translation of the LLVM-dialect module into LLVM IR,
 * read in the kernel's function: the threads per block Triton asks for
 * (nvvm.reqntid / maxntid, from num_warps) and the number of loads, stores,
 * atomics and inline asm statements, which the translation maps one to one
 * (it folds constants, never memory operations or asm).  Configurations of
 * one kernel differ in these (num_warps, BLOCK sizes: the vector width of
 * the loads, the asm a layout needs); a compile's two halves agree. */
typedef struct {
    gboolean ok; /* the kernel's function was found */
    long threads; /* -1 when not said */
    unsigned loads, stores, atomics, asms;
} fingerprint;

static gboolean fingerprint_equal(const fingerprint *a, const fingerprint *b)
{
    return a->ok && b->ok && a->threads == b->threads &&
           a->loads == b->loads && a->stores == b->stores &&
           a->atomics == b->atomics && a->asms == b->asms;
}

/* The number after the first KEY in [S, END), or -1. */
static long number_after(const char *s, const char *end, const char *key)
{
    size_t kl = strlen(key);
    const char *at = s;
    while (at < end && (at = memmem(at, (size_t)(end - at), key, kl))) {
        const char *n = at + kl;
        if (n < end && g_ascii_isdigit(*n)) {
            long v = 0;
            for (; n < end && g_ascii_isdigit(*n) && v < 1000000; n++)
                v = v * 10 + (*n - '0');
            return v;
        }
        at += kl;
    }
    return -1;
}

/* Whether LINE (LEN bytes) defines @NAME, quoted or not. */
static gboolean names_function(const char *line, size_t len, const char *name)
{
    char *plain = g_strdup_printf("@%s(", name);
    char *quoted = g_strdup_printf("@\"%s\"(", name);
    gboolean hit = memmem(line, len, plain, strlen(plain)) ||
                   memmem(line, len, quoted, strlen(quoted));
    g_free(plain);
    g_free(quoted);
    return hit;
}

static gboolean has(const char *line, size_t len, const char *what)
{
    return memmem(line, len, what, strlen(what)) != NULL;
}

/* The fingerprint of function NAME in BODY, an LLVM-dialect MLIR module
 * (MLIR) or an LLVM IR module. */
static fingerprint fingerprint_text(const char *body, size_t len,
                                    const char *name, gboolean mlir)
{
    fingerprint fp = {FALSE, -1, 0, 0, 0, 0};
    const char *end = body + len;
    size_t indent = 0;
    for (const char *l = body; l < end;) {
        const char *nl = memchr(l, '\n', (size_t)(end - l));
        const char *le = nl ? nl : end;
        size_t n = (size_t)(le - l);
        size_t ws = strspn(l, " \t");
        if (ws > n)
            ws = n;
        if (!fp.ok) {
            gboolean def = mlir ? has(l, n, "llvm.func ")
                                : n >= 7 && memcmp(l, "define ", 7) == 0;
            if (def && names_function(l, n, name)) {
                fp.ok = TRUE;
                indent = ws;
                if (mlir) {
                    fp.threads = number_after(l, le, "nvvm.reqntid = array<i32: ");
                    if (fp.threads < 0)
                        fp.threads = number_after(l, le, "nvvm.maxntid = array<i32: ");
                }
            }
        } else if (ws == indent && ws < n && l[ws] == '}') {
            break; /* the end of the function */
        } else if (mlir) {
            fp.loads += has(l, n, "= llvm.load ");
            fp.stores += has(l, n, "llvm.store ");
            fp.atomics += has(l, n, "llvm.atomicrmw ") || has(l, n, "llvm.cmpxchg ");
            fp.asms += has(l, n, "llvm.inline_asm ");
        } else {
            fp.loads += has(l, n, " = load ");
            fp.stores += n - ws >= 6 && memcmp(l + ws, "store ", 6) == 0;
            fp.atomics += has(l, n, " = atomicrmw ") || has(l, n, " = cmpxchg ");
            fp.asms += has(l, n, "call ") && has(l, n, " asm ");
        }
        l = nl ? nl + 1 : end;
    }
    if (fp.ok && !mlir) {
        /* A function attribute (newer LLVM) or !nvvm.annotations. */
        static const char *const keys[] = {
            "\"nvvm.reqntid\"=\"", "\"nvvm.maxntid\"=\"",
            "!\"reqntidx\", i32 ", "!\"maxntidx\", i32 "};
        for (size_t i = 0; i < G_N_ELEMENTS(keys) && fp.threads < 0; i++)
            fp.threads = number_after(body, end, keys[i]);
    }
    return fp;
}

/* The fingerprint of sequence R: an MLIR part at its last LLVM-dialect
 * dump (Triton's last MLIR passes add debug scopes, no operation), an LLVM
 * part at its first LLVM IR dump that defines the kernel (the module just
 * translated: Annotation2Metadata changes no instruction). */
static fingerprint fingerprint_of(const seq_ref *r, tk_diags *diags)
{
    fingerprint none = {FALSE, -1, 0, 0, 0, 0};
    const tk_passes *p = r->f->ix;
    const tk_pass_seq *q = tk_passes_seq(p, r->seq);
    ptrdiff_t pick = -1;
    for (size_t j = 0; j < q->n_dumps; j++) {
        size_t i = r->role == PART_MLIR ? q->n_dumps - 1 - j : j;
        const tk_pass_dump *d = tk_passes_get(p, q->dumps[i]);
        if (d->status != TK_PASS_PRINTED || d->body_len == 0)
            continue;
        if (r->role == PART_MLIR && d->kind == TK_PASS_MLIR &&
            d->level == TK_PASS_LEVEL_LLVM_MLIR) {
            pick = (ptrdiff_t)q->dumps[i];
            break;
        }
        if (r->role == PART_LLVM && d->kind == TK_PASS_LLVM_IR &&
            strcmp(d->kernel, q->kernel) == 0) {
            pick = (ptrdiff_t)q->dumps[i];
            break;
        }
    }
    if (pick < 0)
        return none;
    size_t len = 0;
    char *body = tk_passes_read(p, (size_t)pick, &len, diags);
    if (!body)
        return none;
    fingerprint fp = fingerprint_text(body, len, q->kernel,
                                      r->role == PART_MLIR);
    g_free(body);
    return fp;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* "mlir_passes.txt lines 1, 48010" for the sequences of REFS. */
static void describe_refs(GString *out, GPtrArray *refs)
{
    for (guint i = 0; i < refs->len; i++) {
        const seq_ref *r = g_ptr_array_index(refs, i);
        const seq_ref *prev = i ? g_ptr_array_index(refs, i - 1) : NULL;
        if (!prev || prev->f != r->f)
            g_string_append_printf(out, "%s%s line ", prev ? "; " : "",
                                   base_name(r->f->path));
        else
            g_string_append(out, ", ");
        g_string_append_printf(out, "%llu", bundle_passfiles_seq_line(r->f->ix, r->seq));
    }
}

/* Pairs the MLIR and LLVM parts among REFS (the sequences of one kernel
 * name, in file order): PARTNER receives, for each ref, the ref it pairs
 * with.  One of each, in two files: they pair.  More: a pair is made only
 * where the fingerprints single out one MLIR part and one LLVM part; the
 * rest stay apart, with a note.  Never by position alone: compiles of
 * parallel workers may be written in any order. */
static void pair_parts(GPtrArray *refs, GHashTable *partner, tk_diags *diags)
{
    GPtrArray *m = g_ptr_array_new(), *l = g_ptr_array_new();
    for (guint i = 0; i < refs->len; i++) {
        seq_ref *r = g_ptr_array_index(refs, i);
        if (r->role == PART_MLIR)
            g_ptr_array_add(m, r);
        else if (r->role == PART_LLVM)
            g_ptr_array_add(l, r);
    }
    if (m->len == 1 && l->len == 1) {
        seq_ref *a = g_ptr_array_index(m, 0), *b = g_ptr_array_index(l, 0);
        if (a->f != b->f) {
            g_hash_table_insert(partner, a, b);
            g_hash_table_insert(partner, b, a);
        }
    } else if (m->len > 0 && l->len > 0) {
        fingerprint *fm = g_new0(fingerprint, m->len);
        fingerprint *fl = g_new0(fingerprint, l->len);
        for (guint i = 0; i < m->len; i++)
            fm[i] = fingerprint_of(g_ptr_array_index(m, i), diags);
        for (guint j = 0; j < l->len; j++)
            fl[j] = fingerprint_of(g_ptr_array_index(l, j), diags);
        for (guint i = 0; i < m->len; i++) {
            guint same_m = 0, same_l = 0, hit = 0;
            for (guint x = 0; x < m->len; x++)
                same_m += fingerprint_equal(&fm[i], &fm[x]);
            for (guint j = 0; j < l->len; j++)
                if (fingerprint_equal(&fm[i], &fl[j])) {
                    same_l++;
                    hit = j;
                }
            seq_ref *a = g_ptr_array_index(m, i);
            seq_ref *b = same_l ? g_ptr_array_index(l, hit) : NULL;
            if (same_m == 1 && same_l == 1 && a->f != b->f) {
                g_hash_table_insert(partner, a, b);
                g_hash_table_insert(partner, b, a);
            }
        }
        GPtrArray *lone_m = g_ptr_array_new(), *lone_l = g_ptr_array_new();
        for (guint i = 0; i < m->len; i++)
            if (!g_hash_table_contains(partner, g_ptr_array_index(m, i)))
                g_ptr_array_add(lone_m, g_ptr_array_index(m, i));
        for (guint j = 0; j < l->len; j++)
            if (!g_hash_table_contains(partner, g_ptr_array_index(l, j)))
                g_ptr_array_add(lone_l, g_ptr_array_index(l, j));
        if (lone_m->len > 0 && lone_l->len > 0) {
            const seq_ref *r0 = g_ptr_array_index(lone_m, 0);
            GString *where = g_string_new(NULL);
            g_string_append_printf(where, "%u MLIR compile(s) (", lone_m->len);
            describe_refs(where, lone_m);
            g_string_append_printf(where, ") and %u LLVM compile(s) (",
                                   lone_l->len);
            describe_refs(where, lone_l);
            tk_diags_add(diags, TK_DIAG_NOTE, r0->f->path, 0,
                         "kernel %s: %s) are not joined: their dumps do not "
                         "tell which LLVM compile continues which MLIR "
                         "compile (threads per block, loads, stores, atomics "
                         "and inline asm of the kernel agree with more than "
                         "one, or with none); each is listed as a kernel of "
                         "its own",
                         tk_passes_seq(r0->f->ix, r0->seq)->kernel,
                         where->str);
            g_string_free(where, TRUE);
        }
        g_ptr_array_free(lone_m, TRUE);
        g_ptr_array_free(lone_l, TRUE);
        g_free(fm);
        g_free(fl);
    }
    g_ptr_array_free(m, TRUE);
    g_ptr_array_free(l, TRUE);
}

/* Mixes the exact digests of sequence Q's dumps into H (FNV-1a over 64-bit
 * words, with a shift so that order matters). */
static uint64_t hash_seq(uint64_t h, const tk_passes *p, const tk_pass_seq *q)
{
    for (size_t j = 0; j < q->n_dumps; j++) {
        const tk_pass_dump *d = tk_passes_get(p, q->dumps[j]);
        h = (h ^ d->digest.exact) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h;
}

/* A kernel for sequence A (and its partner B, NULL when none) in B's
 * kernels.  Its name for a compile that has no Triton hash: 16 hex digits
 * mixing the exact digests of its dumps in order, so that the same dumps
 * give the same name on every load and another compile of the kernel
 * another name; the same compile twice gets -2, -3 to stay apart. */
static void add_seq_kernel(tk_bundle *b, seq_ref *a, seq_ref *p,
                           GHashTable *hashes)
{
    if (p && p->role == PART_MLIR) { /* MLIR first, as the pipeline runs */
        seq_ref *t = a;
        a = p;
        p = t;
    }
    const tk_pass_seq *qa = tk_passes_seq(a->f->ix, a->seq);
    uint64_t h = hash_seq(0xcbf29ce484222325ull, a->f->ix, qa);
    if (p)
        h = hash_seq(h, p->f->ix, tk_passes_seq(p->f->ix, p->seq));
    char *base = g_strdup_printf("%016" G_GINT64_MODIFIER "x", (guint64)h);
    char *hash = g_strdup(base);
    for (int n = 2; g_hash_table_contains(hashes, hash); n++) {
        g_free(hash);
        hash = g_strdup_printf("%s-%d", base, n);
    }
    g_free(base);
    g_hash_table_add(hashes, hash);
    tk_kernel *k = kernel_new(qa->kernel, hash);
    k->from_passes = TRUE;
    k->origin = g_strdup_printf("%s, line %llu", a->f->path,
                                bundle_passfiles_seq_line(a->f->ix, a->seq));
    g_hash_table_insert(a->f->seq_of, k, GSIZE_TO_POINTER(a->seq + 1));
    a->done = TRUE;
    if (p) {
        char *o = g_strdup_printf("%s; %s, line %llu", k->origin, p->f->path,
                                  bundle_passfiles_seq_line(p->f->ix, p->seq));
        g_free(k->origin);
        k->origin = o;
        g_hash_table_insert(p->f->seq_of, k, GSIZE_TO_POINTER(p->seq + 1));
        p->done = TRUE;
    }
    g_ptr_array_add(b->kernels, k);
}

void bundle_passfiles_make_kernels(tk_bundle *b, tk_diags *diags)
{
    GPtrArray *refs = g_ptr_array_new_with_free_func(g_free);
    GHashTable *by_name = g_hash_table_new_full(
        g_str_hash, g_str_equal, NULL, (GDestroyNotify)g_ptr_array_unref);
    GPtrArray *names = g_ptr_array_new(); /* first seen first */
    GPtrArray *barren = g_ptr_array_new(); /* files that name no kernel */
    for (guint i = 0; i < b->pass_files->len; i++) {
        bundle_pass_file *f = g_ptr_array_index(b->pass_files, i);
        size_t unnamed = 0, named = 0;
        for (size_t s = 0; s < tk_passes_seq_count(f->ix); s++) {
            const tk_pass_seq *q = tk_passes_seq(f->ix, s);
            if (!q->kernel[0]) {
                unnamed++;
                continue;
            }
            named++;
            seq_ref *r = g_new0(seq_ref, 1);
            *r = (seq_ref){f, s, role_of(f->ix, q), FALSE};
            g_ptr_array_add(refs, r);
            GPtrArray *same = g_hash_table_lookup(by_name, q->kernel);
            if (!same) {
                same = g_ptr_array_new();
                g_hash_table_insert(by_name, (gpointer)q->kernel, same);
                g_ptr_array_add(names, (gpointer)q->kernel);
            }
            g_ptr_array_add(same, r);
        }
        if (unnamed > 0)
            tk_diags_add(diags, TK_DIAG_NOTE, f->path, 0,
                         "%zu sequence(s) of dumps name no kernel; they are "
                         "not listed as kernels",
                         unnamed);
        if (named == 0)
            g_ptr_array_add(barren, f);
    }
    GHashTable *partner = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (guint i = 0; i < names->len; i++)
        pair_parts(g_hash_table_lookup(by_name, g_ptr_array_index(names, i)),
                   partner, diags);
    GHashTable *hashes = g_hash_table_new_full(g_str_hash, g_str_equal,
                                               g_free, NULL);
    for (guint i = 0; i < refs->len; i++) {
        seq_ref *r = g_ptr_array_index(refs, i);
        if (!r->done)
            add_seq_kernel(b, r, g_hash_table_lookup(partner, r), hashes);
    }
    /* Nothing to show is an error about each file; beside kernels from
     * other files, a warning. */
    for (guint i = 0; i < barren->len; i++)
        tk_diags_add(diags,
                     b->kernels->len ? TK_DIAG_WARNING : TK_DIAG_ERROR,
                     ((bundle_pass_file *)g_ptr_array_index(barren, i))->path, 0,
                     "a pass dump file, but no dump in it defines a kernel");
    g_ptr_array_free(barren, TRUE);
    g_hash_table_destroy(hashes);
    g_hash_table_destroy(partner);
    g_ptr_array_free(names, TRUE);
    g_hash_table_destroy(by_name);
    g_ptr_array_free(refs, TRUE);
}
