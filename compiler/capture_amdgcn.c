/* capture_amdgcn.c - AMDGCN with line info for AMD code objects that lack
 * their assembly text.
 *
 * Triton's AMD backend writes NAME.amdgcn (the assembly, with .loc
 * directives and inline chains) beside NAME.hsaco, and that is what binds
 * AMDGCN to source lines.  When the text is missing but the code object is
 * there (a Triton that stops writing it, a cache copied without it),
 * "llvm-objdump -d --line-numbers NAME.hsaco" prints the disassembly with
 * "; /path/file.py:LINE" comments, innermost frames only; it is written
 * beside the code object as NAME.amdgcn_dis, which the loader takes when
 * there is no NAME.amdgcn.  The tool is Debian's llvm-19 (llvm-objdump-19),
 * any llvm-objdump in PATH, or ROCm's.  --mcpu comes from NAME.json's "arch"
 * when a NAME.json lies beside the code object (the cache); otherwise
 * llvm-objdump reads the processor from the code object's ELF flags.
 */
#include "capture.h"
#include "tkdump/tk_input_file.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OBJDUMP_TIMEOUT_S 120.0

static const char objdump_places[] =
    "llvm-objdump was not found (looked for llvm-objdump-19 and llvm-objdump "
    "in PATH, /usr/lib/llvm-19/bin and /opt/rocm/llvm/bin; Debian: apt-get "
    "install llvm-19)";

static gboolean is_file(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* NAME.json's "arch" beside the code object ("gfx942"), or NULL.  Caller
 * frees. */
static char *arch_of(const char *base)
{
    char *json = g_strconcat(base, ".json", NULL);
    char *arch = NULL;
    struct stat st;
    size_t len = 0;
    char *text = lstat(json, &st) == 0 && S_ISREG(st.st_mode)
                     ? tk_input_file_read(json, TK_INPUT_FILE_METADATA, &len, NULL)
                     : NULL;
    if (text) {
        JsonParser *p = json_parser_new();
        if (json_parser_load_from_data(p, text, (gssize)len, NULL)) {
            JsonNode *root = json_parser_get_root(p);
            JsonObject *o = root && JSON_NODE_HOLDS_OBJECT(root)
                                ? json_node_get_object(root)
                                : NULL;
            JsonNode *a = o ? json_object_get_member(o, "arch") : NULL;
            const char *v = a && JSON_NODE_HOLDS_VALUE(a) &&
                                    json_node_get_value_type(a) == G_TYPE_STRING
                                ? json_node_get_string(a)
                                : NULL;
            /* Only what a processor name holds: it becomes an argument. */
            if (v && *v && strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789_-:+") ==
                                 strlen(v))
                arch = g_strdup(v);
        }
        g_object_unref(p);
    }
    g_free(text);
    g_free(json);
    return arch;
}

/* Calls FN on every NAME.hsaco (as its path without ".hsaco") under the
 * kernel folders of DIRS whose NAME.amdgcn is missing.  Returns how many. */
static unsigned each_bare_hsaco(const char *const *dirs,
                                void (*fn)(const char *base, const char *name,
                                           void *user),
                                void *user)
{
    unsigned n = 0;
    for (size_t i = 0; dirs && dirs[i]; i++) {
        GDir *d = g_dir_open(dirs[i], 0, NULL);
        for (const char *e; d && (e = g_dir_read_name(d));) {
            char *sub = g_build_filename(dirs[i], e, NULL);
            GDir *k = g_dir_open(sub, 0, NULL);
            for (const char *f; k && (f = g_dir_read_name(k));) {
                if (f[0] == '.' || !g_str_has_suffix(f, ".hsaco"))
                    continue;
                char *name = g_strndup(f, strlen(f) - strlen(".hsaco"));
                char *base = g_build_filename(sub, name, NULL);
                char *hsaco = g_strconcat(base, ".hsaco", NULL);
                char *text = g_strconcat(base, ".amdgcn", NULL);
                if (is_file(hsaco) && !is_file(text)) {
                    n++;
                    if (fn)
                        fn(base, name, user);
                }
                g_free(text);
                g_free(hsaco);
                g_free(base);
                g_free(name);
            }
            if (k)
                g_dir_close(k);
            g_free(sub);
        }
        if (d)
            g_dir_close(d);
    }
    return n;
}

typedef struct {
    cap_capture *c;
    const char *objdump;
    unsigned made, failed;
} disassembler;

static void disassemble(const char *base, const char *name, void *user)
{
    disassembler *x = user;
    char *hsaco = g_strconcat(base, ".hsaco", NULL);
    char *out = g_strconcat(base, ".amdgcn_dis", NULL);
    char *tmp = g_strconcat(base, ".amdgcn_dis.tmp", NULL);
    char *arch = arch_of(base);
    char *mcpu = arch ? g_strconcat("--mcpu=", arch, NULL) : NULL;
    char *argv[] = {(char *)x->objdump, "-d", "--line-numbers", hsaco, mcpu, NULL};
    char *err = NULL;
    if (cap_tool_run(argv, tmp, OBJDUMP_TIMEOUT_S, &err) == 0 &&
        rename(tmp, out) == 0) {
        x->made++;
    } else {
        unlink(tmp);
        x->failed++;
        char *why = g_strdup_printf("%s failed on %s.hsaco: %s", x->objdump,
                                    name, err && *err ? err : "no reason given");
        g_hash_table_replace(x->c->amdgcn_missing, g_strdup(name), why);
    }
    g_free(err);
    g_free(mcpu);
    g_free(arch);
    g_free(tmp);
    g_free(out);
    g_free(hsaco);
}

void cap_make_amdgcn(cap_capture *c, const char *const *dirs)
{
    if (each_bare_hsaco(dirs, NULL, NULL) == 0)
        return; /* every code object has its assembly text */
    const char *names[] = {"llvm-objdump-19", "llvm-objdump", NULL};
    const char *places[] = {"/usr/lib/llvm-19/bin", "/opt/rocm/llvm/bin", NULL};
    char *objdump = cap_tool_find(names, places);
    if (!objdump) {
        g_free(c->amdgcn_missing_all);
        c->amdgcn_missing_all = g_strdup_printf("no .amdgcn beside the code "
                                                "object, and %s", objdump_places);
        cap_info_set_string(c, "amdgcn_tool", NULL);
        cap_info_set_string(c, "amdgcn_missing", c->amdgcn_missing_all);
        return;
    }
    disassembler x = {c, objdump, 0, 0};
    each_bare_hsaco(dirs, disassemble, &x);
    cap_info_set_string(c, "amdgcn_tool", objdump);
    cap_info_set_string(c, "amdgcn_flags", "-d --line-numbers");
    cap_info_set_int(c, "amdgcn_made", x.made);
    cap_info_set_int(c, "amdgcn_failed", x.failed);
    g_free(objdump);
}
