/* internal.h - what layout.c and cover.c share. */
#ifndef TKDUMP_LAYOUT_INTERNAL_H
#define TKDUMP_LAYOUT_INTERNAL_H

#include <stddef.h>

/* S[i] is an opening bracket ('<', '[', '{', '('); returns the index just
 * past its match (strings and "->" skipped), or LEN when the text ends
 * first. */
size_t layout_skip_balanced(const char *s, size_t i, size_t len);

#endif
