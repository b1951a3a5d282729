/* capture_tools.c - the tools capture runs besides the program (nvdisasm,
 * ptxas, mlir-translate, python3 asked where Triton is): each through
 * cap_child_run() with stdin from /dev/null, stdout to a file and stderr
 * kept for the reason of a failure; and where they are found.
 */
#include "capture.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cap_tool_run(char **argv, const char *stdout_path, double timeout_s,
                char **err_text)
{
    return cap_tool_run_beside(argv, stdout_path, timeout_s, FALSE, err_text);
}

int cap_tool_run_beside(char **argv, const char *stdout_path, double timeout_s,
                        gboolean beside, char **err_text)
{
    if (err_text)
        *err_text = NULL;
    int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
    int out = stdout_path
                  ? open(stdout_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                         0644)
                  : open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (in < 0 || out < 0) {
        if (err_text)
            *err_text = g_strdup_printf("cannot open %s: %s",
                                        stdout_path ? stdout_path : "/dev/null",
                                        g_strerror(errno));
        if (in >= 0)
            close(in);
        if (out >= 0)
            close(out);
        return -1;
    }
    GString *text = g_string_new(NULL);
    cap_child_spec spec = {
        .argv = argv, .stdin_fd = in, .stdout_fd = out, .stderr_fd = -1,
        .stderr_text = text, .messages_fd = -1, .timeout_s = timeout_s,
        .grace_s = 5, .beside = beside};
    cap_child_result res;
    int rc = cap_child_run(&spec, &res);
    close(in);
    if (close(out) != 0 && rc == 0 && stdout_path) {
        g_string_append_printf(text, "cannot write %s: %s\n", stdout_path,
                               g_strerror(errno));
        rc = -1;
    }
    if (rc == 0 && !cap_child_ok(&res)) {
        char *why = cap_child_describe(&res);
        g_string_append_printf(text, "%s%s %s", text->len ? "\n" : "",
                               argv[0], why);
        g_free(why);
        rc = -1;
    } else if (rc != 0 && res.error) {
        g_string_append(text, res.error);
    }
    g_free(res.error);
    if (rc != 0 && stdout_path)
        unlink(stdout_path);
    if (err_text)
        *err_text = g_strstrip(g_string_free(text, FALSE));
    else
        g_string_free(text, TRUE);
    return rc;
}

static char *executable_in(const char *dir, const char *name)
{
    char *p = g_build_filename(dir, name, NULL);
    struct stat st;
    if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0)
        return p;
    g_free(p);
    return NULL;
}

char *cap_tool_find(const char *const *names, const char *const *extra_dirs)
{
    for (size_t i = 0; names[i]; i++) {
        if (strchr(names[i], '/')) {
            if (access(names[i], X_OK) == 0)
                return g_strdup(names[i]);
            continue;
        }
        char *p = g_find_program_in_path(names[i]);
        if (p)
            return p;
        for (size_t d = 0; extra_dirs && extra_dirs[d]; d++) {
            if (!*extra_dirs[d])
                continue;
            if ((p = executable_in(extra_dirs[d], names[i])))
                return p;
        }
    }
    return NULL;
}
