/* capture_llvm_mode.c - which LLVM dumps a capture asks for, and which it
 * got.
 *
 * Triton 3.6 sets LLVM's print-after-all on every compile under
 * LLVM_IR_ENABLE_DUMP, which prints the whole module after every pass.
 * Where the hook finds what it needs in libtriton.so's symbol table it
 * renames that option, so that Triton cannot set it, and asks LLVM for
 * -print-changed instead: only the passes that changed the IR are printed,
 * the others as a one-line "omitted because no change" (docs/capture.md,
 * "LLVM's own options").  Each Python process that imported Triton says
 * which it got in WORK/run/llvm_mode/PID ($TKVIEW_LLVM_CHANGED); the manifest's
 * capture.llvm_dump_mode says what produced the bundle's LLVM dumps, so
 * that a reader knows an absent pass means "printed nothing" (the code
 * generator's IR passes under -print-changed) and not "not run".
 * TKVIEW_LLVM_DUMPS=all asks for print-after-all, as before. */
#include "capture.h"

#include <string.h>

#include <glib/gstdio.h>

char *cap_llvm_mode_dir(const char *run, gboolean wanted)
{
    const char *v = g_getenv("TKVIEW_LLVM_DUMPS");
    if (!wanted || (v && strcmp(v, "all") == 0))
        return NULL;
    char *dir = g_build_filename(run, "llvm_mode", NULL);
    if (g_mkdir(dir, 0755) != 0) {
        g_free(dir); /* print-after-all, as without it */
        return NULL;
    }
    return dir;
}

/* What every process said ("print-changed", "print-changed, code generator
 * print-after-all", "print-after-all"), "mixed" when they differ; NULL when
 * no process said (none imported Triton's knobs).  *WHY: the first reason a
 * process gave for print-after-all. */
static const char *mode_of(const char *dir, char **mode, char **why)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    if (!d)
        return NULL;
    gboolean mixed = FALSE;
    const char *name;
    while ((name = g_dir_read_name(d))) {
        char *path = g_build_filename(dir, name, NULL), *text = NULL;
        if (g_file_get_contents(path, &text, NULL, NULL)) {
            g_strstrip(text);
            char *colon = strchr(text, ':');
            if (colon && !*why)
                *why = g_strdup(g_strstrip(colon + 1));
            if (colon)
                *colon = '\0';
            if (!*mode)
                *mode = g_strdup(text);
            else if (strcmp(*mode, text) != 0)
                mixed = TRUE;
        }
        g_free(text);
        g_free(path);
    }
    g_dir_close(d);
    return mixed ? "mixed" : *mode;
}

void cap_llvm_mode_record(cap_capture *c, const char *dir, gboolean llvm_dumps)
{
    if (!llvm_dumps)
        return;
    char *why = NULL, *first = NULL;
    const char *mode = dir ? mode_of(dir, &first, &why) : NULL;
    cap_info_set_string(c, "llvm_dump_mode", mode ? mode : "print-after-all");
    if (why)
        cap_info_set_string(c, "llvm_dump_mode_why", why);
    g_free(why);
    g_free(first);
}
