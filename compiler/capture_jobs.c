/* capture_jobs.c - the tools capture runs on every cubin, on the machine's
 * cores, each distinct cubin once.
 *
 * After the program, nvdisasm makes NAME.sass_gi (capture_sass.c) and
 * NAME.sass_lr (capture_lr.c) beside every cubin.  Those were most of
 * capture's own time on a torch.compile training step (issue 25: 36
 * kernels, 8.9 s of 16 cores after a 33 s program), for two reasons
 * handled here: every kernel's cubin is there twice, under kernel_dump/
 * and cache/, the same bytes; and the two kinds of job ran one pool after
 * the other, so the slowest life range waited for the slowest SASS.  So
 * the jobs of both kinds go to one pool, the longest kind first, and a job
 * whose cubin has the same bytes as an earlier job's of the same kind is
 * not run: it takes that job's outcome, its file linked (or copied) to its
 * own place.  Outcomes are then taken in the planned order, so the
 * manifest says what it said when every cubin was disassembled.  A cubin
 * already disassembled while the program ran (capture_early.c, on a copy
 * of its bytes) is not run again: the first job of its key adopts that
 * outcome, its texts retold as about its own cubin (the copy's path is the
 * one thing that differs), so the bundle is the same bytes either way.
 */
#include "capture.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "tkdump/tk_input_file.h"

void cap_job_init(cap_job *j, const char *kind, const char *cubin,
                  const char *out, void (*run)(cap_job *),
                  void (*adopt)(cap_job *, const cap_job *))
{
    j->kind = kind;
    j->cubin = g_strdup(cubin);
    j->out = g_strdup(out);
    j->run = run;
    j->adopt = adopt;
    j->rc = -1;
}

char *cap_job_retell(const cap_job *j, const cap_job *leader, const char *text)
{
    if (!text || !leader->beside || !strstr(text, leader->cubin))
        return g_strdup(text);
    char **parts = g_strsplit(text, leader->cubin, -1);
    char *s = g_strjoinv(j->cubin, parts);
    g_strfreev(parts);
    return s;
}

void cap_job_clear(cap_job *j)
{
    g_free(j->cubin);
    g_free(j->out);
    g_free(j->key);
}

/* The job's kind and its cubin's SHA-256, or NULL when it cannot be read
 * (then it runs on its own and fails as it would have). */
static char *job_key(const cap_job *j)
{
    size_t len = 0;
    char *data = tk_input_file_read(j->cubin, TK_INPUT_FILE_CUBIN, &len, NULL);
    if (!data)
        return NULL;
    char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
                                            (const guchar *)data, len);
    g_free(data);
    char *key = g_strconcat(j->kind, ":", sum, NULL);
    g_free(sum);
    return key;
}

/* DST made a copy of SRC: a hard link, else the bytes.  0 or -1. */
static int link_or_copy(const char *src, const char *dst)
{
    if (link(src, dst) == 0)
        return 0;
    char *data = NULL;
    gsize len = 0;
    int rc = g_file_get_contents(src, &data, &len, NULL) &&
                     g_file_set_contents(dst, data, (gssize)len, NULL)
                 ? 0
                 : -1;
    g_free(data);
    return rc;
}

/* J's file from LEADER's: retold when LEADER ran on a copy and its output
 * names it, else a link.  0 or -1. */
static int take_file(const cap_job *j, const cap_job *leader)
{
    if (!leader->beside)
        return link_or_copy(leader->out, j->out);
    char *data = NULL;
    gsize len = 0;
    if (!g_file_get_contents(leader->out, &data, &len, NULL))
        return -1;
    int rc;
    if (strlen(data) == len && strstr(data, leader->cubin)) {
        char *told = cap_job_retell(j, leader, data);
        rc = g_file_set_contents(j->out, told, -1, NULL) ? 0 : -1;
        g_free(told);
    } else {
        rc = link_or_copy(leader->out, j->out);
    }
    g_free(data);
    return rc;
}

static void pool_run(gpointer data, gpointer user)
{
    (void)user;
    cap_job *j = data;
    j->run(j);
}

void cap_jobs_run(GPtrArray *jobs, GHashTable *done)
{
    GHashTable *first = g_hash_table_new(g_str_hash, g_str_equal);
    GPtrArray *todo = g_ptr_array_new();
    for (guint i = 0; i < jobs->len; i++) {
        cap_job *j = g_ptr_array_index(jobs, i);
        j->key = job_key(j);
        j->leader = j->key ? g_hash_table_lookup(first, j->key) : NULL;
        if (!j->leader && j->key && done &&
            (j->leader = g_hash_table_lookup(done, j->key)))
            g_hash_table_insert(first, j->key, j); /* its twins adopt J */
        if (!j->leader) {
            if (j->key)
                g_hash_table_insert(first, j->key, j);
            g_ptr_array_add(todo, j);
        }
    }
    guint cores = g_get_num_processors();
    GThreadPool *pool = NULL;
    if (cores > 1 && todo->len > 1)
        pool = g_thread_pool_new(pool_run, NULL, (gint)MIN(cores, todo->len),
                                 FALSE, NULL);
    for (guint i = 0; i < todo->len; i++)
        if (!pool || !g_thread_pool_push(pool, g_ptr_array_index(todo, i), NULL))
            pool_run(g_ptr_array_index(todo, i), NULL);
    if (pool)
        g_thread_pool_free(pool, FALSE, TRUE); /* waits for every job */
    for (guint i = 0; i < jobs->len; i++) {
        cap_job *j = g_ptr_array_index(jobs, i);
        if (!j->leader)
            continue;
        j->rc = j->leader->rc;
        if (j->rc == 0 && take_file(j, j->leader) != 0)
            j->rc = -1;
        j->adopt(j, j->leader);
    }
    g_ptr_array_free(todo, TRUE);
    g_hash_table_destroy(first);
}
