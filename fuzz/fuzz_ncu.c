/* fuzz_ncu.c - libFuzzer target for the Nsight Compute source page reader
 * (tk_ncu_export_read(): an export a user made on another machine, CSV,
 * plain or gzip).
 *
 * The reader takes a path, as the command line gives it one: the input is
 * written to a memory file (memfd_create) and read back through
 * /proc/self/fd/N, so nothing touches the disk.  Checks the promises of
 * tk_profile.h that hold for any input: NULL comes with an error, an
 * export has at least one section, every section a name, and everything
 * is freed (a leak is a finding). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tkdump/tk_profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
    if (!ok)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz-ncu", MFD_CLOEXEC);
    if (fd < 0)
        return 0;
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(fd, data + done, size - done);
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    tk_diags *d = tk_diags_new();
    tk_ncu_export *x = tk_ncu_export_read(path, d);
    if (!x) {
        check(tk_diags_count_at_least(d, TK_DIAG_ERROR) > 0);
    } else {
        check(tk_ncu_export_count(x) > 0);
        for (size_t i = 0; i < tk_ncu_export_count(x); i++) {
            check(tk_ncu_export_kernel(x, i) != NULL);
            (void)tk_ncu_export_rows(x, i);
        }
        check(tk_ncu_export_kernel(x, tk_ncu_export_count(x)) == NULL);
    }
    tk_ncu_export_free(x);
    tk_diags_free(d);
    close(fd);
    return 0;
}
