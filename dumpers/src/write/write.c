/* write.c - tk_bundle_save(): a tkview bundle from whatever was
 * loaded (each kernel's slice of the pass dumps: passfiles.c).
 *
 * The bundle is built in a fresh folder beside OUTDIR and renamed into place
 * at the end (tk_staged_dir.h), so OUTDIR is either absent or a whole
 * bundle, never half of one.  Every name written is made here from safe
 * characters (bundle_path_safe_name): nothing a kernel name, hash or source
 * path says can place a file outside OUTDIR.  manifest.json is written
 * last.
 */
#include "load/internal.h"
#include "passfiles/internal.h"
#include "tkdump/tk_bundle_write.h"
#include "tkdump/tk_staged_dir.h"
#include "write/store.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NAME_MAX_BYTES 80

/* ---- files ------------------------------------------------------------ */

/* What copy_file() returns when FROM is refused before anything is
 * written: the input is at fault, not the bundle being written. */
#define COPY_REFUSED BUNDLE_WRITE_REFUSED

/* Copies the file FROM, read as a file of KIND (tk_input_file.h: a regular
 * file, opened without blocking, within KIND's limit), to the new file TO
 * (which must not exist).  Returns 0, COPY_REFUSED when FROM cannot be read
 * as such a file (a FIFO, a device, too large), or -1 when the copy failed;
 * *ERR set on failure (caller frees). */
static int copy_file(const char *from, const char *to, tk_input_file_kind kind,
                     char **err)
{
    char *why = NULL;
    int in = tk_input_file_open(from, kind, NULL, &why);
    if (in < 0) {
        *err = why;
        return COPY_REFUSED;
    }
    int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (out < 0) {
        *err = g_strdup_printf("cannot create %s: %s", to, g_strerror(errno));
        close(in);
        return -1;
    }
    char *buf = g_malloc(1 << 20);
    int rc = 0;
    uint64_t copied = 0;
    for (;;) {
        ssize_t n = read(in, buf, 1 << 20);
        if (n == 0)
            break;
        if (n > 0 && (copied += (uint64_t)n) > tk_input_file_limit(kind)) {
            *err = g_strdup_printf("cannot read %s: it grew past the limit "
                                   "of a %s while it was copied",
                                   from, tk_input_file_kind_name(kind));
            rc = -1;
            break;
        }
        if (n < 0) {
            if (errno == EINTR)
                continue;
            *err = g_strdup_printf("cannot read %s: %s", from,
                                   g_strerror(errno));
            rc = -1;
            break;
        }
        for (ssize_t done = 0; done < n;) {
            ssize_t w = write(out, buf + done, (size_t)(n - done));
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                *err = g_strdup_printf("cannot write %s: %s", to,
                                       g_strerror(errno));
                rc = -1;
                break;
            }
            done += w;
        }
        if (rc)
            break;
    }
    g_free(buf);
    close(in);
    if (close(out) != 0 && rc == 0) {
        *err = g_strdup_printf("cannot write %s: %s", to, g_strerror(errno));
        rc = -1;
    }
    if (rc != 0)
        unlink(to); /* no half file left behind */
    return rc;
}

/* Whether PATH is a folder with something in it. */
static gboolean dir_not_empty(const char *path)
{
    GDir *d = g_dir_open(path, 0, NULL);
    if (!d)
        return TRUE; /* cannot tell: do not replace it */
    gboolean full = g_dir_read_name(d) != NULL;
    g_dir_close(d);
    return full;
}

/* ---- the writer ------------------------------------------------------- */

typedef struct {
    tk_bundle *b;
    const char *tmp; /* the folder being built */
    tk_diags *diags;
    const char *outdir;
    GHashTable *used; /* names taken in the bundle folder */
    GPtrArray *slices; /* the pass dump slices to write (passfiles/) */
    bundle_write_store *store; /* the kernels' files, each stored once */
} writer;

/* Puts FROM into the bundle as *REL (relative to the bundle): a kernel's
 * file (KERNEL_FILE) through the store, which may name another kernel's
 * file with the same bytes or FILE.zst instead (*REL says which), any other
 * copied as it is.  Returns 0, or -1 with an error.  A FROM that cannot be
 * read as a file of KIND (a FIFO or a device in someone's bundle) is left
 * out with a warning: *REL is freed and set to NULL, and the manifest does
 * not list it. */
static int put_file(writer *w, const char *from, char **rel,
                    tk_input_file_kind kind, gboolean kernel_file)
{
    char *err = NULL;
    int rc;
    if (kernel_file) {
        rc = bundle_write_store_put(w->store, from, rel, kind, &err);
    } else {
        char *to = g_build_filename(w->tmp, *rel, NULL);
        rc = copy_file(from, to, kind, &err);
        g_free(to);
    }
    if (rc == COPY_REFUSED) {
        tk_diags_add(w->diags, TK_DIAG_WARNING, from, 0,
                     "left out of the bundle: cannot read this %s: %s",
                     tk_input_file_kind_name(kind), err);
        g_free(err);
        g_free(*rel);
        *rel = NULL;
        rc = 0;
    } else if (rc != 0) {
        tk_diags_add(w->diags, TK_DIAG_ERROR, w->outdir, 0,
                     "cannot write the bundle: %s", err);
        g_free(err);
    }
    return rc;
}

/* A folder name for kernel K, unique in the bundle: NAME-HASHPREFIX. */
static char *kernel_folder(writer *w, const tk_kernel *k)
{
    char *name = bundle_path_safe_name(k->name, NAME_MAX_BYTES);
    char *hash = bundle_path_safe_name(k->hash, 8);
    char *folder = g_strdup_printf("%s-%s", name, hash);
    for (int i = 2; g_hash_table_contains(w->used, folder); i++) {
        g_free(folder);
        folder = g_strdup_printf("%s-%s-%d", name, hash, i);
    }
    g_hash_table_add(w->used, g_strdup(folder));
    g_free(name);
    g_free(hash);
    return folder;
}

static int write_kernel(writer *w, const tk_kernel *k, bundle_manifest_kernel *mk)
{
    mk->kernel = k;
    mk->folder = kernel_folder(w, k);
    char *dir = g_build_filename(w->tmp, mk->folder, NULL);
    if (g_mkdir(dir, 0755) != 0) {
        tk_diags_add(w->diags, TK_DIAG_ERROR, w->outdir, 0,
                     "cannot write the bundle: cannot create %s: %s", dir,
                     g_strerror(errno));
        g_free(dir);
        return -1;
    }
    g_free(dir);
    char *base = bundle_path_safe_name(k->name, NAME_MAX_BYTES);
    int rc = 0;
    for (int i = 0; i < TK_STAGE_COUNT && rc == 0; i++) {
        if (!k->stages[i] || !k->files[i].path)
            continue;
        const char *ext = k->files[i].ext ? k->files[i].ext
                                          : tk_stage_kind_name((tk_stage_kind)i);
        mk->stage[i] = g_strdup_printf("%s/%s.%s", mk->folder, base, ext);
        rc = put_file(w, k->files[i].path, &mk->stage[i], TK_INPUT_FILE_STAGE,
                      TRUE);
    }
    struct {
        const char *from;
        const char *ext;
        char **rel;
        tk_input_file_kind kind;
    } extra[] = {{k->meta_path, "json", &mk->metadata, TK_INPUT_FILE_METADATA},
                 {k->cubin_path, "cubin", &mk->cubin, TK_INPUT_FILE_CUBIN},
                 /* AMD's code object: a binary like the cubin */
                 {k->hsaco_path, "hsaco", &mk->hsaco, TK_INPUT_FILE_CUBIN},
                 /* NAME.source: the TTIR before any pass */
                 {k->source_path, "source", &mk->source_ttir,
                  TK_INPUT_FILE_STAGE},
                 {k->profile_path, "profile.json", &mk->profile,
                  TK_INPUT_FILE_PROFILE}};
    for (size_t i = 0; i < G_N_ELEMENTS(extra) && rc == 0; i++) {
        if (!extra[i].from)
            continue;
        *extra[i].rel = g_strdup_printf("%s/%s.%s", mk->folder, base,
                                        extra[i].ext);
        rc = put_file(w, extra[i].from, extra[i].rel, extra[i].kind, TRUE);
    }
    /* The register life ranges go beside the cubin under the same name,
     * and the manifest names them (files.sass_lr): a kernel whose cubin is
     * another's shares its file. */
    char *lr = rc == 0 ? bundle_meta_life_ranges_path(k) : NULL;
    if (lr) {
        mk->sass_lr = g_strdup_printf("%s/%s.sass_lr", mk->folder, base);
        rc = put_file(w, lr, &mk->sass_lr, TK_INPUT_FILE_STAGE, TRUE);
        g_free(lr);
    }
    g_free(base);
    if (rc == 0)
        rc = bundle_passfiles_write_kernel(w->b, k, w->tmp, mk, w->outdir,
                                           w->slices, w->diags);
    return rc;
}

/* Copies every source file the locations name that can be found; the others
 * are listed as missing.  Fills SRCS (one per file of the table). */
static int write_sources(writer *w, bundle_manifest_source *srcs, size_t n)
{
    GHashTable *copied = g_hash_table_new_full(g_str_hash, g_str_equal,
                                               g_free, g_free);
    gboolean have_dir = FALSE;
    int rc = 0;
    for (size_t f = 0; f < n && rc == 0; f++) {
        bundle_manifest_source *s = &srcs[f];
        s->path = tk_loctab_file_path(w->b->tab, (tk_file_id)f);
        const char *local = bundle_sources_resolve(w->b, (tk_file_id)f, w->diags);
        /* A bundle from elsewhere names paths of its choosing, but the
         * trust rule (sources.c) never resolves one to a file outside it:
         * nothing of this machine is packed into a bundle passed on
         * (~/.ssh/id_rsa as a "source"). */
        if (!local) {
            s->reason = bundle_sources_outside(w->b, (tk_file_id)f)
                            ? "found only outside the bundle it was loaded "
                              "from, which is not read"
                            : "not found";
            continue;
        }
        const char *done = g_hash_table_lookup(copied, local);
        if (done) { /* two spellings of one file */
            s->file = g_strdup(done);
            continue;
        }
        if (!have_dir) {
            char *dir = g_build_filename(w->tmp, "sources", NULL);
            rc = g_mkdir(dir, 0755);
            if (rc != 0)
                tk_diags_add(w->diags, TK_DIAG_ERROR, w->outdir, 0,
                             "cannot write the bundle: cannot create %s: %s",
                             dir, g_strerror(errno));
            g_free(dir);
            have_dir = TRUE;
            if (rc != 0)
                break;
        }
        char *base = g_path_get_basename(s->path);
        char *safe = bundle_path_safe_name(base, NAME_MAX_BYTES);
        char *rel = g_strdup_printf("sources/%04zu-%s", f, safe);
        g_free(base);
        g_free(safe);
        char *to = g_build_filename(w->tmp, rel, NULL);
        char *err = NULL;
        int crc = copy_file(local, to, TK_INPUT_FILE_SOURCE, &err);
        if (crc == 0) {
            s->file = rel;
            g_hash_table_insert(copied, g_strdup(local), g_strdup(rel));
        } else if (crc != COPY_REFUSED) {
            /* A write that failed (the disk full): the bundle would lack a
             * source it should hold, so it is not written at all
             * (docs/bundle.md: a failure to write is an error). */
            tk_diags_add(w->diags, TK_DIAG_ERROR, w->outdir, 0,
                         "cannot write the bundle: %s", err);
            g_free(err);
            g_free(rel);
            g_free(to);
            rc = -1;
            break;
        } else {
            /* A source that vanished since it was found: the bundle is still
             * whole without it, as for any source not found. */
            tk_diags_add(w->diags, TK_DIAG_WARNING, s->path, 0,
                         "source not copied into the bundle: %s", err);
            s->reason = "could not be copied";
            g_free(err);
            g_free(rel);
        }
        g_free(to);
    }
    g_hash_table_destroy(copied);
    return rc;
}

/* The autotuner's timings that came with the input, kept at the bundle's
 * top where tk_bundle_autotune_timings() finds them again (a file that
 * cannot be read as one is left out with a warning, as put_file() does). */
static int write_timings(writer *w)
{
    char *from = tk_bundle_autotune_timings(w->b);
    if (!from)
        return 0;
    char *rel = g_strdup("autotune_timings.json");
    int rc = put_file(w, from, &rel, TK_INPUT_FILE_TIMINGS, FALSE);
    g_free(rel);
    g_free(from);
    return rc;
}

int tk_bundle_save(const tk_bundle *bundle, const char *outdir,
                   tk_diags *diags)
{
    if (!bundle || !outdir || !*outdir) {
        tk_diags_add(diags, TK_DIAG_ERROR, outdir ? outdir : "", 0,
                     "no bundle or no output folder given");
        return -1;
    }
    /* Source resolution fills a cache: saving changes nothing a reader of
     * the bundle can see. */
    tk_bundle *b = (tk_bundle *)bundle;
    /* Never into, or around, what is read (bundle X -o X/sub). */
    if (tk_bundle_check_output(b, outdir, diags) != 0)
        return -1;
    char *out = g_canonicalize_filename(outdir, NULL);
    struct stat st;
    if (stat(out, &st) == 0 && (!S_ISDIR(st.st_mode) || dir_not_empty(out))) {
        tk_diags_add(diags, TK_DIAG_ERROR, outdir, 0,
                     "refusing to write the bundle: %s exists and is not an "
                     "empty folder",
                     outdir);
        g_free(out);
        return -1;
    }
    /* Built beside OUTDIR, renamed into place at the end (util/'s
     * tk_staged_dir), so OUTDIR is never half a bundle. */
    tk_staged_dir *staged = tk_staged_dir_new(out, 0);
    if (!staged) {
        tk_diags_add(diags, TK_DIAG_ERROR, outdir, 0,
                     "cannot write the bundle: cannot create a folder beside "
                     "it: %s",
                     g_strerror(errno));
        g_free(out);
        return -1;
    }
    const char *tmpl = tk_staged_dir_path(staged);
    writer w = {.b = b, .tmp = tmpl, .diags = diags, .outdir = outdir,
                .used = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                              NULL),
                .slices = g_ptr_array_new(),
                .store = bundle_write_store_new(tmpl)};
    g_hash_table_add(w.used, g_strdup("sources"));
    g_hash_table_add(w.used, g_strdup("manifest.json"));
    g_hash_table_add(w.used, g_strdup("autotune_timings.json"));

    size_t nk = b->kernels->len;
    bundle_manifest_kernel *mks = g_new0(bundle_manifest_kernel, nk ? nk : 1);
    int rc = 0;
    for (size_t i = 0; i < nk && rc == 0; i++)
        rc = write_kernel(&w, g_ptr_array_index(b->kernels, i), &mks[i]);
    /* The pass dump slices planned above, compressed on several threads. */
    if (rc == 0)
        rc = bundle_passfiles_write_slices(w.slices, outdir, diags);
    bundle_passfiles_slices_free(w.slices);
    size_t ns = tk_loctab_file_count(b->tab);
    bundle_manifest_source *srcs = g_new0(bundle_manifest_source, ns ? ns : 1);
    if (rc == 0)
        rc = write_sources(&w, srcs, ns);
    if (rc == 0)
        rc = write_timings(&w);
    if (rc == 0) {
        size_t len = 0;
        char *text = bundle_manifest_build(b, mks, nk, srcs, ns, &len);
        char *mpath = g_build_filename(tmpl, "manifest.json", NULL);
        GError *err = NULL;
        if (!g_file_set_contents(mpath, text, (gssize)len, &err)) {
            tk_diags_add(diags, TK_DIAG_ERROR, outdir, 0,
                         "cannot write the bundle: %s", err->message);
            g_error_free(err);
            rc = -1;
        }
        g_free(mpath);
        g_free(text);
    }
    /* The commit replaces an empty folder, and fails on one that was
     * filled meanwhile: nobody's files are lost. */
    if (rc == 0 && tk_staged_dir_commit(staged) != 0) {
        tk_diags_add(diags, TK_DIAG_ERROR, outdir, 0,
                     "cannot put the bundle in place: %s", g_strerror(errno));
        rc = -1;
    }
    tk_staged_dir_free(staged); /* removes it unless committed */

    for (size_t i = 0; i < nk; i++) {
        g_free(mks[i].folder);
        for (int s = 0; s < TK_STAGE_COUNT; s++)
            g_free(mks[i].stage[s]);
        g_free(mks[i].metadata);
        g_free(mks[i].cubin);
        g_free(mks[i].hsaco);
        g_free(mks[i].profile);
        g_free(mks[i].source_ttir);
        g_free(mks[i].sass_lr);
        for (guint p = 0; mks[i].passes && p < mks[i].passes->len; p++) {
            g_free(g_array_index(mks[i].passes, bundle_manifest_pass, p).file);
            g_free(g_array_index(mks[i].passes, bundle_manifest_pass, p).index);
        }
        if (mks[i].passes)
            g_array_free(mks[i].passes, TRUE);
    }
    g_free(mks);
    for (size_t i = 0; i < ns; i++)
        g_free(srcs[i].file);
    g_free(srcs);
    g_hash_table_destroy(w.used);
    bundle_write_store_free(w.store);
    g_free(out);
    return rc;
}
