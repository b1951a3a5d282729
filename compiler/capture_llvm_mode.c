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

#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

/* What the hook says when it found no per-stage option setters
 * (compiler/python/sitecustomize.py, _llvm_options()). */
#define CAP_LLVM_CODEGEN_CHANGED "print-changed"

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
 * process gave for print-after-all.  *CODEGEN_CHANGED: how many said
 * "print-changed" alone: their code generator ran under -print-changed too,
 * which prints none of its IR passes. */
static const char *mode_of(const char *dir, char **mode, char **why, unsigned *codegen_changed)
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
            if (strcmp(text, CAP_LLVM_CODEGEN_CHANGED) == 0)
                ++*codegen_changed;
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

/* Said once on stderr: a capture whose code generator's IR passes are
 * missing looks complete otherwise (its machine passes are there). */
static void say_codegen_left_out(unsigned processes)
{
    fprintf(stderr,
            "tkview: LLVM's code generator ran under -print-changed in %u Python "
            "process%s (its libtriton.so lacks the symbols to give it print-after-all): "
            "its IR passes (CodeGen Prepare and the others before instruction selection) "
            "are not in this "
            "capture, only its machine passes; TKVIEW_LLVM_DUMPS=all captures them "
            "(LLVM's print-after-all everywhere, slower)\n",
            processes, processes == 1 ? "" : "es");
}

void cap_llvm_mode_record(cap_capture *c, const char *dir, gboolean llvm_dumps)
{
    if (!llvm_dumps)
        return;
    char *why = NULL, *first = NULL;
    unsigned codegen_changed = 0;
    const char *mode = dir ? mode_of(dir, &first, &why, &codegen_changed) : NULL;
    cap_info_set_string(c, "llvm_dump_mode", mode ? mode : "print-after-all");
    if (why)
        cap_info_set_string(c, "llvm_dump_mode_why", why);
    if (codegen_changed)
        say_codegen_left_out(codegen_changed);
    g_free(why);
    g_free(first);
}
