/* bundle.c - the bundle's accessors and finding a kernel by what a user
 * types.  Loading is load/ (load.c), source resolution sources.c, pass
 * files passfiles/, writing write/; the kernel model is kernel/. */
#include "tkdump/tk_bundle.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bundle/internal.h"

tk_input_kind tk_bundle_input_kind(const tk_bundle *b)
{
    return b->kind;
}

const char *tk_bundle_path(const tk_bundle *b)
{
    return b->path;
}

tk_loctab *tk_bundle_loctab(const tk_bundle *b)
{
    return b->tab;
}

const char *tk_bundle_tool_version(const tk_bundle *b)
{
    return b->tool_version;
}

const char *tk_bundle_compiler(const tk_bundle *b)
{
    return b->compiler;
}

const char *tk_bundle_command(const tk_bundle *b)
{
    return b->command;
}

int tk_bundle_complete(const tk_bundle *b)
{
    return b->complete;
}

const char *tk_bundle_passes_asked(const tk_bundle *b)
{
    return b->passes_asked;
}

const char *tk_bundle_passes_not_asked(const tk_bundle *b)
{
    if (!b->passes_asked)
        return NULL;
    if (!strcmp(b->passes_asked, "none"))
        return "pass dumps were not captured (`tkview capture --passes none`)";
    if (!strcmp(b->passes_asked, "mlir"))
        return "LLVM IR pass dumps were not captured (`tkview capture --passes mlir`)";
    return NULL;
}

size_t tk_bundle_kernel_count(const tk_bundle *b)
{
    return b->kernels->len;
}

const tk_kernel *tk_bundle_kernel(const tk_bundle *b, size_t i)
{
    return i < b->kernels->len ? g_ptr_array_index(b->kernels, i) : NULL;
}

const char *tk_bundle_resolve_source(tk_bundle *b, tk_file_id file,
                                     tk_diags *diags)
{
    return bundle_sources_resolve(b, file, diags);
}

int tk_bundle_source_refused(const tk_bundle *b, tk_file_id file)
{
    return bundle_sources_outside(b, file) ? 1 : 0;
}

/* ---- finding a kernel ------------------------------------------------- */

static gboolean all_digits(const char *s)
{
    if (!*s)
        return FALSE;
    for (; *s; s++)
        if (!g_ascii_isdigit(*s))
            return FALSE;
    return TRUE;
}

/* Whether HASH starts with PREFIX, ignoring case: Triton's hashes are hex
 * in lower case, folder names base32 in upper case. */
static gboolean hash_starts(const char *hash, const char *prefix)
{
    size_t n = strlen(prefix);
    return n > 0 && strlen(hash) >= n &&
           g_ascii_strncasecmp(hash, prefix, n) == 0;
}

/* The kernels SPEC names under the first rule that names any: an index, a
 * full name (with ":hashprefix"), then a unique prefix of a name or of a
 * hash.  Adds their indices to OUT. */
static void match_kernels(const tk_bundle *b, const char *spec, GArray *out)
{
    size_t count = b->kernels->len;
    if (!spec || !*spec)
        return;
    /* An index, as tk_bundle_kernel() counts (from 0).  Digits past the
     * count may still be a hash prefix, tried below. */
    if (all_digits(spec) && strlen(spec) < 10) {
        size_t i = (size_t)strtoul(spec, NULL, 10);
        if (i < count) {
            g_array_append_val(out, i);
            return;
        }
    }
    const char *colon = strchr(spec, ':');
    for (int pass = 0; pass < 2 && out->len == 0; pass++) {
        for (size_t i = 0; i < count; i++) {
            const tk_kernel *k = g_ptr_array_index(b->kernels, i);
            gboolean hit;
            if (colon) /* name:hashprefix */
                hit = strlen(k->name) == (size_t)(colon - spec) &&
                      strncmp(k->name, spec, (size_t)(colon - spec)) == 0 &&
                      (colon[1] == '\0' || hash_starts(k->hash, colon + 1));
            else if (pass == 0) /* a full name first ... */
                hit = strcmp(k->name, spec) == 0;
            else /* ... then a prefix of a name or of a hash */
                hit = g_str_has_prefix(k->name, spec) || hash_starts(k->hash, spec);
            if (hit)
                g_array_append_val(out, i);
        }
        if (colon)
            break;
    }
}

ptrdiff_t tk_bundle_find_kernel_index(const tk_bundle *b, const char *spec,
                                      size_t *n_matches)
{
    GArray *out = g_array_new(FALSE, FALSE, sizeof(size_t));
    match_kernels(b, spec, out);
    ptrdiff_t i = out->len == 1 ? (ptrdiff_t)g_array_index(out, size_t, 0) : -1;
    if (n_matches)
        *n_matches = out->len;
    g_array_free(out, TRUE);
    return i;
}

const tk_kernel *tk_bundle_find_kernel(const tk_bundle *b, const char *spec,
                                       size_t *n_matches)
{
    ptrdiff_t i = tk_bundle_find_kernel_index(b, spec, n_matches);
    return i >= 0 ? g_ptr_array_index(b->kernels, (guint)i) : NULL;
}

size_t tk_bundle_find_kernels(const tk_bundle *b, const char *spec, size_t **indices)
{
    GArray *out = g_array_new(FALSE, FALSE, sizeof(size_t));
    match_kernels(b, spec, out);
    size_t n = out->len;
    *indices = n ? (size_t *)g_array_free(out, FALSE) : NULL;
    if (!n)
        g_array_free(out, TRUE);
    return n;
}

char *tk_bundle_autotune_timings(const tk_bundle *b)
{
    if (!b)
        return NULL;
    const char *dirs[] = {b->root, b->confine};
    for (size_t i = 0; i < G_N_ELEMENTS(dirs); i++) {
        if (!dirs[i])
            continue;
        char *path = g_build_filename(dirs[i], "autotune_timings.json", NULL);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
            bundle_may_read(b->confine, path))
            return path;
        g_free(path);
    }
    return NULL;
}
