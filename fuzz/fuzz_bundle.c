/* fuzz_bundle.c - libFuzzer target for the bundle loader: manifest.json and
 * the files it names.
 *
 * The input is a small bundle: its parts, split at the separator
 * FUZZ_SEPARATOR, are written as the files of FILES[] (part 0 is
 * manifest.json; a missing part is a missing file) in a folder of this
 * process under $TMPDIR, emptied before each run.  The seeds
 * (corpus/bundle/) are the manifests of sample_dumps/ with their paths
 * pointed at those names, and the shapes of hostile bundles: many tiny
 * dumps, long runs of newlines, manifests that are links (a part starting
 * FUZZ_LINK; make_bundle_seeds.py).  Each run loads the folder
 * with tk_bundle_load(), walks every kernel, stage, line and metadata it
 * hands out, resolves every source file, indexes the pass dump files, and
 * frees it all.  Besides crashes, sanitizer reports, leaks and hangs, these
 * broken promises abort (a finding): a NULL bundle without an error, an
 * error-free load that is empty, and a resolved source outside the bundle
 * folder (the trust rule: no --source-dir is given here).
 */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tkdump/tk_bundle.h"
#include "tkdump/tk_bundle_load.h"
#include "tkdump/tk_bundle_passes.h"
#include "tkdump/tk_input_file.h"
#include "tkdump/tk_staged_dir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_SEPARATOR "#TKFILE#"

/* The bundle's files, in the order of the input's parts. */
static const char *const FILES[] = {
    "manifest.json",  "k/k.ttir",  "k/k.ttgir",       "k/k.llir",
    "k/k.ptx",        "k/k.sass_gi", "k/k.json",      "k/k.cubin",
    "k/k.source",     "k/passes/mlir.txt", "k/passes/llvm.txt",
    "sources/0000-k.py", "dumps/pool.zst",
    /* format 4: kernel files as zstd frames (read inflated) */
    "k/k.ttgir.zst",  "k/k.json.zst",
};
#define N_FILES (sizeof FILES / sizeof FILES[0])

static char *root;      /* this process's folder */
static char *root_real; /* its real path */

static void check(int ok)
{
    if (!ok)
        abort();
}

static volatile size_t sink;

static void touch(const char *s)
{
    if (s)
        sink += strlen(s);
}

static void setup(void)
{
    const char *tmp = g_get_tmp_dir();
    char *tmpl = g_build_filename(tmp, "tkview-fuzz-bundle-XXXXXX", NULL);
    check(g_mkdtemp(tmpl) != NULL);
    root = tmpl;
    char *r = realpath(root, NULL);
    check(r != NULL);
    root_real = g_strdup(r);
    free(r);
}

static void cleanup(void)
{
    if (root)
        tk_staged_dir_remove_tree(root);
}

/* Writes LEN bytes of DATA as REL under root. */
/* A part that starts with this makes its file a symbolic link to the rest
 * of the part (a manifest.json linked to /etc/passwd, to /dev/zero, to a
 * file of the bundle). */
#define FUZZ_LINK "#TKLINK#"

static void put(const char *rel, const uint8_t *d, size_t len)
{
    char *path = g_build_filename(root, rel, NULL);
    char *dir = g_path_get_dirname(path);
    g_mkdir_with_parents(dir, 0755);
    unlink(path); /* a link of the last run is not written through */
    size_t nl = strlen(FUZZ_LINK);
    if (len > nl && len < 4096 && memcmp(d, FUZZ_LINK, nl) == 0 &&
        !memchr(d + nl, '\0', len - nl)) {
        char *target = g_strndup((const char *)d + nl, len - nl);
        check(symlink(target, path) == 0 || errno == EEXIST);
        g_free(target);
        g_free(dir);
        g_free(path);
        return;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    check(fd >= 0);
    while (len > 0) {
        ssize_t w = write(fd, d, len);
        if (w < 0 && errno == EINTR)
            continue;
        check(w > 0);
        d += w;
        len -= (size_t)w;
    }
    close(fd);
    g_free(dir);
    g_free(path);
}

/* Whether PATH (a resolved source) is strictly inside the bundle folder. */
static int inside(const char *path)
{
    char *r = realpath(path, NULL);
    size_t n = strlen(root_real);
    int ok = r && strncmp(r, root_real, n) == 0 && r[n] == '/';
    free(r);
    return ok;
}

static void walk(tk_bundle *b)
{
    tk_loctab *tab = tk_bundle_loctab(b);
    touch(tk_bundle_path(b));
    touch(tk_bundle_tool_version(b));
    touch(tk_bundle_compiler(b));
    touch(tk_bundle_command(b));
    int complete = tk_bundle_complete(b);
    check(complete >= -1 && complete <= 1);
    for (size_t i = 0; i < tk_bundle_kernel_count(b); i++) {
        const tk_kernel *k = tk_bundle_kernel(b, i);
        touch(tk_kernel_name(k));
        touch(tk_kernel_hash(k));
        const tk_kernel_meta *m = tk_kernel_metadata(k);
        check(m != NULL);
        for (int s = 0; s < TK_STAGE_COUNT; s++) {
            const tk_stage *st = tk_kernel_stage(k, (tk_stage_kind)s);
            if (!st)
                continue;
            for (uint32_t l = 1; l <= tk_stage_line_count(st); l++) {
                size_t len;
                check(tk_stage_line(st, l, &len) != NULL);
                const tk_stack_id *ids;
                size_t n = tk_stage_line_stacks(st, l, &ids);
                for (size_t j = 0; j < n; j++) {
                    size_t nf;
                    const tk_frame *f = tk_loctab_stack_frames(tab, ids[j], &nf);
                    for (size_t q = 0; q < nf; q++)
                        check(f[q].file < tk_loctab_file_count(tab));
                }
            }
        }
        /* A kernel's own name finds one kernel, or says how many tie. */
        size_t n_match = 0;
        const tk_kernel *found = tk_bundle_find_kernel(b, tk_kernel_name(k), &n_match);
        check(found ? n_match == 1 : n_match != 1);
    }
    for (size_t f = 0; f < tk_loctab_file_count(tab); f++) {
        const char *p = tk_bundle_resolve_source(b, (tk_file_id)f, NULL);
        if (p)
            check(inside(p)); /* the trust rule */
    }
    size_t n_pass = tk_bundle_pass_file_count(b, NULL);
    for (size_t i = 0; i < n_pass; i++) {
        check(tk_bundle_pass_file(b, i) != NULL);
        for (size_t k = 0; k < tk_bundle_kernel_count(b); k++)
            (void)tk_bundle_kernel_pass_seq(b, tk_bundle_kernel(b, k), i);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!root) {
        setup();
        atexit(cleanup); /* the folder goes when libFuzzer exits */
    }
    /* Each file is written anew, or removed when the input has no part
     * for it: nothing of the last run is left (the loader writes nothing
     * in the folder). */
    const uint8_t *p = data, *end = data + size;
    size_t sep = strlen(FUZZ_SEPARATOR);
    for (size_t i = 0; i < N_FILES; i++) {
        if (!p) {
            char *path = g_build_filename(root, FILES[i], NULL);
            unlink(path);
            g_free(path);
            continue;
        }
        const uint8_t *q = memmem(p, (size_t)(end - p), FUZZ_SEPARATOR, sep);
        const uint8_t *part_end = q ? q : end;
        put(FILES[i], p, (size_t)(part_end - p));
        p = q ? q + sep : NULL;
    }

    /* A budget of its own per input: the process's would run out after
     * enough runs and refuse everything. */
    tk_input_budget *budget = tk_input_budget_new();
    tk_input_budget *before = tk_input_budget_use(budget);
    tk_diags *diags = tk_diags_new();
    tk_bundle *b = tk_bundle_load(root, NULL, diags);
    if (!b) {
        check(tk_diags_count_at_least(diags, TK_DIAG_ERROR) > 0);
    } else {
        check(tk_bundle_kernel_count(b) > 0 ||
              tk_bundle_input_kind(b) == TK_INPUT_BUNDLE);
        walk(b);
        tk_bundle_free(b);
    }
    for (size_t i = 0; i < tk_diags_count(diags); i++)
        touch(tk_diags_get(diags, i)->message);
    tk_diags_free(diags);
    tk_input_budget_use(before);
    tk_input_budget_free(budget);
    return 0;
}
