/* scan.h - small bounded scanners shared by the readers (internal).
 *
 * Every function takes the end of the buffer and never reads at or past it;
 * none allocates.  They keep the readers free of sscanf/strtol, which need
 * NUL-terminated input and accept things no dump contains (signs, spaces).
 */
#ifndef TKDUMP_SCAN_H
#define TKDUMP_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef enum {
    SCAN_OK = 0,
    SCAN_NONE = -1,    /* no digit at *P */
    SCAN_OVERFLOW = -2 /* digits, but the number does not fit */
} scan_status;

/* Reads decimal digits at *P into *OUT and advances *P past all of them (also
 * on overflow, so the caller can go on after the number). */
static inline scan_status scan_u32(const char **p, const char *end,
                                   uint32_t *out)
{
    const char *s = *p;
    uint64_t v = 0;
    int overflow = 0;
    if (s >= end || *s < '0' || *s > '9')
        return SCAN_NONE;
    while (s < end && *s >= '0' && *s <= '9') {
        v = v * 10 + (uint64_t)(*s - '0');
        if (v > UINT32_MAX) {
            overflow = 1;
            v = UINT32_MAX; /* keep v bounded while skipping the rest */
        }
        s++;
    }
    *p = s;
    *out = (uint32_t)v;
    return overflow ? SCAN_OVERFLOW : SCAN_OK;
}

/* Whether the LEN bytes at P..END start with the literal LIT. */
static inline int scan_starts(const char *p, const char *end,
                              const char *lit)
{
    size_t n = strlen(lit);
    return (size_t)(end - p) >= n && memcmp(p, lit, n) == 0;
}

static inline const char *scan_skip_spaces(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* Finds the byte C in [P, END), or returns NULL. */
static inline const char *scan_find(const char *p, const char *end, char c)
{
    return p < end ? (const char *)memchr(p, c, (size_t)(end - p)) : NULL;
}

/* Finds the literal LIT in [P, END), or returns NULL. */
const char *scan_find_str(const char *p, const char *end, const char *lit);

#endif
