/* passfiles.c - the pass dump files that came with the input, and each
 * kernel's sequence of dumps in them (tk_bundle.h, "pass dumps").
 *
 * Files are found by content, never by name: users rename a captured stderr
 * to run2.log.  Finding costs a look at the head of each candidate file when
 * the bundle is loaded; indexing (tk_passes.h) waits for the first question
 * about passes, so `tkview bind` never reads hundreds of MB of dumps.
 *
 * Which sequence is a kernel's:
 *  - in a file found by content, the one tk_passes_find_seq() picks for the
 *    kernel's key (tk_kernel_pass_key(): its name, num_warps and stage
 *    digests, here because the pass index knows nothing of kernels); a
 *    tie is reported and gives none (never a guess), and so do two kernels
 *    whose best match is the same sequence with the same score;
 *  - in a file a bundle's manifest lists for a kernel, the one picked for
 *    that kernel only (the file holds only its dumps);
 *  - in a pass dump file given as the input (or a folder of nothing else),
 *    each compile is a kernel of its own (it has no stages to compare):
 *    passfiles_only.c.
 *
 * A bundle carries, per kernel, its slice of each file: only the dumps of
 * its sequence, headers included, in file order, so the slice is itself a
 * pass dump file that indexes to the same dumps.  Slices are gzip
 * compressed (gzip.c) and copied a bounded chunk at a time.
 */
#include "passfiles/internal.h"
#include "passes/internal.h"
#include "tkdump/tk_bundle_passes.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* At most this many files are looked into per load: a folder of 100 000
 * logs must not cost 100 000 reads of 256 KiB. */
#define MAX_SNIFFED 1000
/* Kernels named in one "no dumps of ..." note. */
#define MAX_NAMED 5

static void pass_file_free(gpointer p)
{
    bundle_pass_file *f = p;
    tk_passes_free(f->ix);
    g_hash_table_destroy(f->seq_of);
    g_free(f->path);
    g_free(f->index_path);
    g_free(f);
}

static bundle_pass_file *add_file(tk_bundle *b, const char *path,
                                  const tk_kernel *owner)
{
    if (!b->pass_found)
        b->pass_found = g_ptr_array_new_with_free_func(pass_file_free);
    bundle_pass_file *f = g_new0(bundle_pass_file, 1);
    f->path = g_strdup(path);
    f->owner = owner;
    f->confine = b->confine;
    f->seq_of = g_hash_table_new(g_direct_hash, g_direct_equal);
    g_ptr_array_add(b->pass_found, f);
    return f;
}

void bundle_passfiles_add(tk_bundle *b, const char *path, const tk_kernel *owner)
{
    add_file(b, path, owner);
}

void bundle_passfiles_add_indexed(tk_bundle *b, const char *path, const char *index_path,
                                  const tk_kernel *owner)
{
    bundle_pass_file *f = add_file(b, path, owner);
    f->index_path = g_strdup(index_path);
}

void bundle_passfiles_clear(tk_bundle *b)
{
    bundle_passfiles_ahead_clear(b);
    if (b->pass_files)
        g_ptr_array_free(b->pass_files, TRUE);
    if (b->pass_found)
        g_ptr_array_free(b->pass_found, TRUE);
    b->pass_files = b->pass_found = NULL;
    tk_diags_free(b->pass_rejected);
    b->pass_rejected = NULL;
}

/* ---- finding files by content ------------------------------------------- */

/* What the content of PATH says, reading a gzip file's text. */
static tk_passes_file_kind sniff(const char *path, const char *confine)
{
    int refs = bundle_passfiles_is_refs(path);
    if (!refs && !bundle_gzip_is(path))
        return tk_passes_sniff_file(path);
    char *buf = g_malloc(TK_PASSES_SNIFF_BYTES);
    int64_t n = refs ? bundle_passfiles_refs_head(path, confine, buf,
                                                  TK_PASSES_SNIFF_BYTES)
                     : bundle_gzip_read_head(path, buf, TK_PASSES_SNIFF_BYTES);
    tk_passes_file_kind k =
        n > 0 ? tk_passes_sniff(buf, (size_t)n) : TK_PASSES_FILE_NONE;
    g_free(buf);
    return k;
}

/* Extensions of files that are never pass dumps: a Triton cache holds
 * thousands of these, and none is worth a read. */
static const char *const not_dumps[] = {
    "ttir", "ttgir", "llir", "ll", "ptx", "sass", "sass_g", "sass_gi",
    "json", "cubin", "source", "cuobjdump_sass", "hsaco", "amdgcn",
    "amdgcn_dis", "so",
    "o", "a", "py", "pyc", "pyi", "c", "h", "cpp", "cu", "lock", "xz",
    "zst", "tar", "zip", "png"};

static gboolean worth_a_look(const char *base)
{
    if (base[0] == '.' || g_str_has_prefix(base, "__grp__"))
        return FALSE;
    const char *dot = strrchr(base, '.');
    for (size_t i = 0; dot && i < G_N_ELEMENTS(not_dumps); i++)
        if (strcmp(dot + 1, not_dumps[i]) == 0)
            return FALSE;
    return TRUE;
}

static int str_order(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct {
    tk_bundle *b;
    size_t sniffed;
    gboolean capped;
    const char *skip; /* a subfolder read otherwise (compiles/), or NULL */
} finder;

/* Keeps why PATH is no pass dump file, to be said if the load finds
 * nothing else (bundle_passfiles_report_rejected). */
static void reject(tk_bundle *b, const char *path, const char *why)
{
    if (!b->pass_rejected)
        b->pass_rejected = tk_diags_new();
    if (tk_diags_count(b->pass_rejected) < MAX_NAMED)
        tk_diags_add(b->pass_rejected, TK_DIAG_ERROR, path, 0,
                     "neither a stage file nor a pass dump file: %s", why);
    b->n_rejected++;
}

void bundle_passfiles_report_rejected(const tk_bundle *b, tk_diags *diags)
{
    size_t n = b->pass_rejected ? tk_diags_count(b->pass_rejected) : 0;
    for (size_t i = 0; i < n; i++) {
        const tk_diag *d = tk_diags_get(b->pass_rejected, i);
        tk_diags_add(diags, d->severity, d->file, d->line, "%s", d->message);
    }
    if (b->n_rejected > n)
        tk_diags_add(diags, TK_DIAG_NOTE, b->root, 0,
                     "%zu more files are neither stage files nor pass dump "
                     "files", b->n_rejected - n);
}

/* Looks at the files of DIR, then (when DESCEND) at those of each
 * subfolder.  Names are sorted: the order found is the order listed.
 * Symbolic links to folders are not followed. */
static void look_in(finder *f, const char *dir, gboolean descend)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    if (!d)
        return; /* the kernel scan has said so, for the folder loaded */
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    for (const char *e; (e = g_dir_read_name(d));)
        g_ptr_array_add(names, g_strdup(e));
    g_dir_close(d);
    g_ptr_array_sort(names, str_order);
    GPtrArray *subs = g_ptr_array_new_with_free_func(g_free);
    for (size_t i = 0; i < names->len; i++) {
        const char *base = g_ptr_array_index(names, i);
        char *path = g_build_filename(dir, base, NULL);
        struct stat st;
        if (lstat(path, &st) != 0) {
            g_free(path);
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            if (descend && base[0] != '.' &&
                !(f->skip && strcmp(base, f->skip) == 0))
                g_ptr_array_add(subs, path);
            else
                g_free(path);
            continue;
        }
        /* A link in a bundle to a file elsewhere is not read
         * (docs/bundle.md, "What a bundle may read"). */
        if (S_ISLNK(st.st_mode) &&
            (stat(path, &st) != 0 ||
             (f->b->confine && !bundle_path_within(f->b->confine, path))))
            st.st_mode = 0;
        if (!S_ISREG(st.st_mode) || !worth_a_look(base)) {
            g_free(path);
            continue;
        }
        if (st.st_size == 0) {
            reject(f->b, path, "it is empty");
            g_free(path);
            continue;
        }
        if (f->sniffed >= MAX_SNIFFED) {
            f->capped = TRUE;
            g_free(path);
            continue;
        }
        f->sniffed++;
        if (sniff(path, f->b->confine) != TK_PASSES_FILE_NONE)
            add_file(f->b, path, NULL);
        else
            reject(f->b, path,
                   "no pass dump header (\"// -----// IR Dump\", "
                   "\"*** IR Dump\") in its first 256 KiB");
        g_free(path);
    }
    g_ptr_array_unref(names);
    for (size_t i = 0; i < subs->len; i++)
        look_in(f, g_ptr_array_index(subs, i), FALSE);
    g_ptr_array_unref(subs);
}

void bundle_passfiles_find(tk_bundle *b, const char *root, tk_diags *diags)
{
    gboolean compiles = bundle_passfiles_add_compiles(b, root, diags);
    finder f = {b, 0, FALSE, compiles ? "compiles" : NULL};
    look_in(&f, root, TRUE);
    if (f.capped)
        tk_diags_add(diags, TK_DIAG_NOTE, root, 0,
                     "looked for pass dumps in the first %d files only; "
                     "give a pass dump file as the input to read it",
                     MAX_SNIFFED);
}

/* ---- indexing ------------------------------------------------------------ */

/* Indexes F.  A gzip file is indexed as its text (tk_passes.h): read in
 * place, at any offset, through restart points, never decompressed to disk
 * or into memory. */
void bundle_passfiles_index_one(bundle_pass_file *f, tk_diags *diags)
{
    f->tried = TRUE;
    /* A manifest may name a FIFO or a device: opening it could block. */
    struct stat st;
    if (stat(f->path, &st) != 0) {
        tk_diags_add(diags, TK_DIAG_ERROR, f->path, 0,
                     "cannot read pass dumps: %s", g_strerror(errno));
        return;
    }
    if (!S_ISREG(st.st_mode)) {
        tk_diags_add(diags, TK_DIAG_ERROR, f->path, 0,
                     "cannot read pass dumps: not a regular file");
        return;
    }
    if (!bundle_passfiles_refs_allowed(f->path, f->confine, diags))
        return;
    if (f->index_path && bundle_may_read(f->confine, f->index_path)) {
        /* A bundle's stored index: no text inflated.  One that does not
         * match its slice is said so, and the text indexed instead. */
        char *why = NULL;
        f->ix = passes_stored_open(f->path, f->index_path, diags, &why);
        if (!f->ix)
            tk_diags_add(diags, TK_DIAG_WARNING, f->index_path, 0,
                         "stored index of %s not used: %s; its text is indexed instead",
                         f->path, why);
        g_free(why);
    }
    if (!f->ix)
        f->ix = tk_passes_index(f->path, diags);
    /* A file listed for one kernel (a bundle's slice, a capture's
     * per-compile file) holds one compile: its dumps are one sequence even
     * where their levels would start another (Triton's pipeliner dumps
     * written between MLIR passes, a slice's dumps in file order). */
    if (f->ix && (f->one_compile || f->owner))
        passes_attribute_one_compile(f->ix);
}
static void warn_tie(const bundle_pass_file *f, const tk_kernel *k, ptrdiff_t s,
                     size_t n_best, tk_diags *diags)
{
    tk_diags_add(diags, TK_DIAG_WARNING, f->path, bundle_passfiles_seq_line(f->ix, (size_t)s),
                 "kernel %s (%.12s): %zu compiles in this file match it "
                 "equally well (the first at line %llu) and their dumps "
                 "differ from the first; none is shown for it",
                 k->name, k->hash, n_best, bundle_passfiles_seq_line(f->ix, (size_t)s));
}

/* Several compiles match K's key equally (the same kernel compiled twice,
 * or options that act only after LLVM IR, such as enable_fp_fusion): the
 * dumps they have identical are K's whichever compile was K's, so K is
 * shown them, with a note that says they are shared.  Returns the shared
 * sequence, or -1 when their first dumps already differ (then a tie). */
static ptrdiff_t share_tie(bundle_pass_file *f, const tk_kernel *k,
                           const tk_pass_key *key, ptrdiff_t best,
                           tk_diags *diags)
{
    int top = tk_passes_seq_score(f->ix, (size_t)best, key);
    GArray *tied = g_array_new(FALSE, FALSE, sizeof(size_t));
    size_t ns = tk_passes_seq_count(f->ix);
    for (size_t i = 0; i < ns; i++)
        if (!tk_passes_seq(f->ix, i)->shared_by &&
            tk_passes_seq_score(f->ix, i, key) == top)
            g_array_append_val(tied, i);
    ptrdiff_t s = tk_passes_share(f->ix, (const size_t *)(void *)tied->data,
                                  tied->len);
    if (s >= 0) {
        const tk_pass_seq *q = tk_passes_seq(f->ix, (size_t)s);
        GString *lines = g_string_new(NULL);
        for (guint i = 0; i < tied->len; i++)
            g_string_append_printf(
                lines, "%s%llu", i ? ", " : "",
                bundle_passfiles_seq_line(f->ix, g_array_index(tied, size_t, i)));
        if (q->n_dumps == q->full_dumps)
            tk_diags_add(diags, TK_DIAG_NOTE, f->path,
                         bundle_passfiles_seq_line(f->ix, (size_t)s),
                         "kernel %s (%.12s): %zu compiles in this file "
                         "(at lines %s) have identical dumps; they are shown "
                         "for it, shared with the others",
                         k->name, k->hash, (size_t)tied->len, lines->str);
        else {
            const tk_pass_seq *first =
                tk_passes_seq(f->ix, g_array_index(tied, size_t, 0));
            const tk_pass_dump *part = tk_passes_get(f->ix, first->dumps[q->n_dumps]);
            tk_diags_add(diags, TK_DIAG_NOTE, f->path,
                         (unsigned long long)part->header_line,
                         "kernel %s (%.12s): %zu compiles in this file "
                         "(at lines %s) have identical dumps up to pass %s "
                         "(dump %zu of %zu), where they part; the %zu before "
                         "are shown for it, shared with the others, and the "
                         "rest, which the dumps cannot tell apart, is not",
                         k->name, k->hash, (size_t)tied->len, lines->str,
                         part->pass, q->n_dumps + 1, q->full_dumps, q->n_dumps);
        }
        g_string_free(lines, TRUE);
    } else {
        warn_tie(f, k, best, tied->len, diags);
    }
    g_array_free(tied, TRUE);
    return s;
}

/* The sequence of the kernel a manifest listed F for. */
static void match_owner(bundle_pass_file *f, tk_diags *diags)
{
    const tk_kernel *k = f->owner;
    /* With one sequence that is a compile (a bundle's slice is one), the
     * stages' digests cannot change which is picked nor make a tie: they
     * only add to a score the name and warps make nonzero.  Digesting the
     * first three stages was 7% of `tkview info` on a bundle (issue 25). */
    size_t compiles = 0;
    for (size_t i = 0; i < tk_passes_seq_count(f->ix) && compiles < 2; i++)
        compiles += tk_passes_seq(f->ix, i)->shared_by == 0;
    tk_pass_key key;
    if (compiles > 1)
        tk_kernel_pass_key(k, &key);
    else
        bundle_pass_key_without_stages(k, &key);
    size_t n_best = 0;
    ptrdiff_t s = tk_passes_find_seq(f->ix, &key, &n_best);
    if (s < 0)
        tk_diags_add(diags, TK_DIAG_WARNING, f->path, 0,
                     "holds no dump of kernel %s (%.12s), which the bundle's "
                     "manifest lists it for",
                     k->name, k->hash);
    else if (n_best > 1) {
        s = share_tie(f, k, &key, s, diags);
        if (s >= 0)
            g_hash_table_insert(f->seq_of, (gpointer)k,
                                GSIZE_TO_POINTER(s + 1));
    } else
        g_hash_table_insert(f->seq_of, (gpointer)k, GSIZE_TO_POINTER(s + 1));
}

typedef struct {
    const tk_kernel *kernel; /* the best claimant so far */
    int score;
    gboolean tied;           /* two kernels claim it with that score */
} claim;

/* The sequences of every kernel of B in F, a file found by content. */
static void match_all(tk_bundle *b, bundle_pass_file *f, tk_diags *diags)
{
    size_t ns = tk_passes_seq_count(f->ix);
    claim *claims = g_new0(claim, ns ? ns : 1);
    GPtrArray *missing = g_ptr_array_new();
    for (guint i = 0; i < b->kernels->len; i++) {
        const tk_kernel *k = g_ptr_array_index(b->kernels, i);
        if (bundle_passfiles_owns(b, k))
            continue; /* its dumps are known, not guessed */
        tk_pass_key key;
        tk_kernel_pass_key(k, &key);
        size_t n_best = 0;
        ptrdiff_t s = tk_passes_find_seq(f->ix, &key, &n_best);
        if (s < 0) {
            g_ptr_array_add(missing, (gpointer)k);
            continue;
        }
        if (n_best > 1) {
            /* A shared sequence is each tied kernel's: no claim. */
            s = share_tie(f, k, &key, s, diags);
            if (s >= 0)
                g_hash_table_insert(f->seq_of, (gpointer)k,
                                    GSIZE_TO_POINTER(s + 1));
            continue;
        }
        claim *c = &claims[s];
        int score = tk_passes_seq_score(f->ix, (size_t)s, &key);
        if (!c->kernel || score > c->score) {
            c->kernel = k;
            c->score = score;
            c->tied = FALSE;
        } else if (score == c->score) {
            tk_diags_add(diags, TK_DIAG_WARNING, f->path, bundle_passfiles_seq_line(f->ix, s),
                         "the compile at line %llu matches kernels %s "
                         "(%.12s) and %s (%.12s) equally well; it is shown "
                         "for neither",
                         bundle_passfiles_seq_line(f->ix, s), c->kernel->name, c->kernel->hash,
                         k->name, k->hash);
            c->tied = TRUE;
        }
    }
    size_t matched = 0;
    for (size_t s = 0; s < ns; s++) {
        if (!claims[s].kernel || claims[s].tied)
            continue;
        g_hash_table_insert(f->seq_of, (gpointer)claims[s].kernel,
                            GSIZE_TO_POINTER(s + 1));
        matched++;
    }
    if (matched == 0 && ns > 0) {
        tk_diags_add(diags, TK_DIAG_NOTE, f->path, 0,
                     "none of its %zu compile(s) is one of the kernels "
                     "loaded here",
                     ns);
    } else if (missing->len > 0) {
        GString *names = g_string_new(NULL);
        for (guint i = 0; i < missing->len && i < MAX_NAMED; i++) {
            const tk_kernel *k = g_ptr_array_index(missing, i);
            g_string_append_printf(names, "%s%s (%.12s)", i ? ", " : "",
                                   k->name, k->hash);
        }
        if (missing->len > MAX_NAMED)
            g_string_append(names, ", ...");
        tk_diags_add(diags, TK_DIAG_NOTE, f->path, 0,
                     "no dumps of %u of the %u kernels: %s", missing->len,
                     b->kernels->len, names->str);
        g_string_free(names, TRUE);
    }
    g_ptr_array_free(missing, TRUE);
    g_free(claims);
}

/* Indexes every file found, once, and matches kernels to sequences. */
static void index_all(tk_bundle *b, tk_diags *diags)
{
    if (b->pass_files)
        return;
    b->pass_files = g_ptr_array_new();
    bundle_passfiles_index_job *jobs = bundle_passfiles_index_jobs(b);
    for (guint i = 0; b->pass_found && i < b->pass_found->len; i++) {
        bundle_pass_file *f = g_ptr_array_index(b->pass_found, i);
        if (jobs[i].f) {
            tk_diags *local = jobs[i].diags;
            if (tk_diags_count(local) >= TK_DIAGS_PER_FILE) {
                /* A capped list only counts what it dropped: indexed again
                 * here, into DIAGS, for the same diagnostics as in one go. */
                /* The same text, for the same load: charged once. */
                tk_passes_refund_budget(f->ix);
                tk_passes_free(f->ix);
                f->ix = NULL;
                bundle_passfiles_index_one(f, diags);
            } else {
                for (size_t k = 0; k < tk_diags_count(local); k++) {
                    const tk_diag *d = tk_diags_get(local, k);
                    tk_diags_add(diags, d->severity, d->file, d->line, "%s",
                                 d->message);
                }
            }
            tk_diags_free(local);
        }
        if (!f->ix)
            continue;
        g_ptr_array_add(b->pass_files, f);
        if (f->direct)
            continue; /* its kernels were made from its sequences */
        if (f->owner)
            match_owner(f, diags);
        else
            match_all(b, f, diags);
    }
    g_free(jobs);
}

size_t tk_bundle_pass_file_count(tk_bundle *b, tk_diags *diags)
{
    index_all(b, diags);
    return b->pass_files->len;
}

const tk_passes *tk_bundle_pass_file(tk_bundle *b, size_t i)
{
    index_all(b, NULL);
    if (i >= b->pass_files->len)
        return NULL;
    return ((bundle_pass_file *)g_ptr_array_index(b->pass_files, i))->ix;
}

ptrdiff_t tk_bundle_kernel_pass_seq(tk_bundle *b, const tk_kernel *k,
                                    size_t i)
{
    index_all(b, NULL);
    if (i >= b->pass_files->len || !k)
        return -1;
    bundle_pass_file *f = g_ptr_array_index(b->pass_files, i);
    gpointer v = g_hash_table_lookup(f->seq_of, k);
    return v ? (ptrdiff_t)GPOINTER_TO_SIZE(v) - 1 : -1;
}

gboolean bundle_passfiles_load_direct(tk_bundle *b, const char *path,
                                      tk_diags *diags)
{
    if (sniff(path, b->confine) == TK_PASSES_FILE_NONE)
        return FALSE;
    bundle_pass_file *f = add_file(b, path, NULL);
    f->direct = TRUE;
    index_all(b, diags);
    bundle_passfiles_make_kernels(b, diags);
    return TRUE;
}

gboolean bundle_passfiles_load_found(tk_bundle *b, tk_diags *diags)
{
    if (!b->pass_found || b->pass_found->len == 0 || b->pass_files)
        return FALSE;
    for (guint i = 0; i < b->pass_found->len; i++)
        ((bundle_pass_file *)g_ptr_array_index(b->pass_found, i))->direct = TRUE;
    index_all(b, diags);
    bundle_passfiles_make_kernels(b, diags);
    return TRUE;
}
