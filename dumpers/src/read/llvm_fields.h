/* llvm_fields.h - the field lists of LLVM metadata nodes,
 * "(key: value, key: value, ...)", read without copying (llvm_fields.c;
 * used by llvm_meta.c). */
#ifndef TKDUMP_READ_LLVM_FIELDS_H
#define TKDUMP_READ_LLVM_FIELDS_H

#include <glib.h>
#include <stdint.h>

/* No node: what read_md_val_ref() gives for "null" or no value. */
#define READ_MD_NONE UINT32_MAX

/* One "key: value" field of a node's list. */
typedef struct {
    const char *key;
    size_t key_len;
    const char *val, *val_end;
} read_md_field;

/* Reads the field at P (inside the parentheses) into F and returns the
 * position after it, or NULL at the closing ')' or at anything that is not a
 * "key: value" field.  Values are skipped by bracket depth and quoted
 * strings, so a string containing ", line: 3" is not taken for a field. */
const char *read_md_next_field(const char *p, const char *end, read_md_field *f);

int read_md_key_is(const read_md_field *f, const char *key);

/* "!N" -> N.  READ_MD_NONE with *BAD = 0 for "null" or no value; *BAD = 1 for a
 * value that is neither. */
uint32_t read_md_val_ref(const read_md_field *f, int *bad);

/* Decimal value -> *OUT; -1 when not a plain number, -2 on overflow. */
int read_md_val_u32(const read_md_field *f, uint32_t *out);

/* Appends the LLVM string literal value of F ("...", with \XX hex escapes
 * and \\) to S; returns 0, or -1 when F is not a string. */
int read_md_val_string(const read_md_field *f, GString *s);

#endif
