/* capture_sass.c - SASS with line info for every captured cubin.
 *
 * Triton keeps the cubin of each kernel but its own SASS (kernel_dump's
 * NAME.sass) has no line info.  `nvdisasm -c -gi NAME.cubin` prints the code
 * with "//## File ..., line N" comments and the inline frames ("inlined at"),
 * which is what binds SASS to source lines; it is written beside the cubin
 * as NAME.sass_gi, which the loader prefers over any other SASS.  Registers,
 * shared memory and spills need no tool: the loader reads them from the
 * cubin's ELF (docs/bundle.md), so cuobjdump is not needed.
 */
#include "capture.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NVDISASM_TIMEOUT_S 120.0

static void sass_for_folder(cap_capture *c, const char *nvdisasm,
                            const char *dir, unsigned *made, unsigned *failed)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    for (const char *e; d && (e = g_dir_read_name(d));) {
        if (!g_str_has_suffix(e, ".cubin") || e[0] == '.')
            continue;
        char *cubin = g_build_filename(dir, e, NULL);
        char *name = g_strndup(e, strlen(e) - strlen(".cubin"));
        struct stat st;
        if (lstat(cubin, &st) != 0 || !S_ISREG(st.st_mode)) {
            g_free(cubin);
            g_free(name);
            continue;
        }
        char *base = g_strndup(cubin, strlen(cubin) - strlen(".cubin"));
        char *out = g_strconcat(base, ".sass_gi", NULL);
        char *tmp = g_strconcat(base, ".sass_gi.tmp", NULL);
        char *argv[] = {(char *)nvdisasm, "-c", "-gi", cubin, NULL};
        char *err = NULL;
        if (cap_tool_run(argv, tmp, NVDISASM_TIMEOUT_S, &err) == 0 &&
            rename(tmp, out) == 0) {
            (*made)++;
        } else {
            unlink(tmp);
            (*failed)++;
            char *why = g_strdup_printf("nvdisasm failed on %s: %s", e,
                                        err && *err ? err : "no reason given");
            g_hash_table_replace(c->sass_missing, g_strdup(name), why);
        }
        g_free(err);
        g_free(base);
        g_free(out);
        g_free(tmp);
        g_free(cubin);
        g_free(name);
    }
    if (d)
        g_dir_close(d);
}

void cap_make_sass(cap_capture *c, const char *nvdisasm,
                          const char *const *dirs, const char *why_missing)
{
    if (!nvdisasm) {
        g_free(c->sass_missing_all);
        c->sass_missing_all = g_strdup(why_missing);
        cap_info_set_string(c, "sass_tool", NULL);
        cap_info_set_string(c, "sass_missing", why_missing);
        return;
    }
    unsigned made = 0, failed = 0;
    for (size_t i = 0; dirs && dirs[i]; i++) {
        GDir *d = g_dir_open(dirs[i], 0, NULL);
        for (const char *e; d && (e = g_dir_read_name(d));) {
            char *sub = g_build_filename(dirs[i], e, NULL);
            struct stat st;
            if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
                sass_for_folder(c, nvdisasm, sub, &made, &failed);
            g_free(sub);
        }
        if (d)
            g_dir_close(d);
    }
    cap_info_set_string(c, "sass_tool", nvdisasm);
    cap_info_set_string(c, "sass_flags", "-c -gi");
    cap_info_set_int(c, "sass_made", made);
    cap_info_set_int(c, "sass_failed", failed);
}
