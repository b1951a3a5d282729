/* ptx_files.c - the ".file" table of a PTX or AMDGCN text. */
#include "read/ptx_files.h"

#include <glib.h>
#include <string.h>

#include "util/scan.h"

/* Value in BY_BASE for a base name that several files share. */
#define AMBIGUOUS G_MAXUINT

struct read_ptx_files {
    tk_loctab *tab;
    GHashTable *by_index; /* index + 1 -> file id + 1 */
    GHashTable *by_base;  /* base name (in the table's path) -> id + 1 */
    GString *scratch;
};

read_ptx_files *read_ptx_files_new(tk_loctab *tab)
{
    read_ptx_files *f = g_new0(read_ptx_files, 1);
    f->tab = tab;
    f->by_index = g_hash_table_new(g_direct_hash, g_direct_equal);
    /* Keys point into paths the loctab owns: they outlive this table. */
    f->by_base = g_hash_table_new(g_str_hash, g_str_equal);
    f->scratch = g_string_new(NULL);
    return f;
}

void read_ptx_files_free(read_ptx_files *f)
{
    if (!f)
        return;
    g_hash_table_destroy(f->by_index);
    g_hash_table_destroy(f->by_base);
    g_string_free(f->scratch, TRUE);
    g_free(f);
}

static int is_octal(char c)
{
    return c >= '0' && c <= '7';
}

/* Appends the value of the quoted string at P to S as LLVM's assembly
 * printer escapes it (\" \\ \b \f \n \r \t \ooo).  Returns the position after
 * the closing quote, or NULL when the string is not closed on this line. */
static const char *unquote(const char *p, const char *end, GString *s)
{
    p++; /* the opening quote */
    while (p < end) {
        char c = *p;
        if (c == '"')
            return p + 1;
        if (c != '\\') {
            g_string_append_c(s, c);
            p++;
            continue;
        }
        if (end - p < 2)
            return NULL;
        char e = p[1];
        if (is_octal(e) && end - p >= 4 && is_octal(p[2]) && is_octal(p[3])) {
            char v = (char)(((e - '0') << 6) | ((p[2] - '0') << 3) | (p[3] - '0'));
            if (v != '\0') /* a path cannot hold NUL; the table refuses it */
                g_string_append_c(s, v);
            p += 4;
            continue;
        }
        switch (e) {
        case 'b': g_string_append_c(s, '\b'); break;
        case 'f': g_string_append_c(s, '\f'); break;
        case 'n': g_string_append_c(s, '\n'); break;
        case 'r': g_string_append_c(s, '\r'); break;
        case 't': g_string_append_c(s, '\t'); break;
        default: g_string_append_c(s, e); break; /* \" \\ and the unknown */
        }
        p += 2;
    }
    return NULL;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

const char *read_ptx_files_add(read_ptx_files *f, const char *p, const char *end)
{
    uint32_t index;
    p = scan_skip_spaces(p, end);
    scan_status st = scan_u32(&p, end, &index);
    if (st == SCAN_OVERFLOW || (st == SCAN_OK && index == UINT32_MAX))
        return "file index does not fit in 32 bits";
    if (st != SCAN_OK)
        return "no file index";
    p = scan_skip_spaces(p, end);
    if (p >= end || *p != '"')
        return "no quoted path";
    g_string_truncate(f->scratch, 0);
    p = unquote(p, end, f->scratch);
    if (!p)
        return "the path's closing quote is missing";
    /* AMDGCN (and DWARF 5 assemblers) write the folder and the file name
     * as two strings: ".file 2 "/site-packages/triton/language"
     * "standard.py"".  The name alone is the path when it is absolute or
     * the folder is empty. */
    p = scan_skip_spaces(p, end);
    if (p < end && *p == '"') {
        size_t dir_len = f->scratch->len;
        if (dir_len > 0)
            g_string_append_c(f->scratch, '/');
        size_t name_at = f->scratch->len;
        if (!unquote(p, end, f->scratch))
            return "the file name's closing quote is missing";
        if (f->scratch->len == name_at)
            return "empty file name";
        if (f->scratch->str[name_at] == '/' || dir_len == 0)
            g_string_erase(f->scratch, 0, (gssize)name_at);
    }
    if (f->scratch->len == 0)
        return "empty path";
    /* Anything after the path (", timestamp, size", "md5 0x...") says
     * nothing about where the file is. */
    tk_file_id id = tk_loctab_file(f->tab, f->scratch->str, f->scratch->len);
    gpointer key = GUINT_TO_POINTER(index + 1);
    gpointer old = g_hash_table_lookup(f->by_index, key);
    if (old)
        return GPOINTER_TO_UINT(old) - 1 == id
                   ? NULL
                   : "file index declared twice with different paths; the "
                     "first is used";
    g_hash_table_insert(f->by_index, key, GUINT_TO_POINTER(id + 1));

    const char *base = base_name(tk_loctab_file_path(f->tab, id));
    gpointer prev = g_hash_table_lookup(f->by_base, base);
    if (!prev)
        g_hash_table_insert(f->by_base, (gpointer)base, GUINT_TO_POINTER(id + 1));
    else if (GPOINTER_TO_UINT(prev) != id + 1)
        g_hash_table_insert(f->by_base, (gpointer)base,
                            GUINT_TO_POINTER(AMBIGUOUS));
    return NULL;
}

tk_file_id read_ptx_files_get(const read_ptx_files *f, uint32_t index)
{
    if (index == UINT32_MAX)
        return READ_PTX_NO_FILE;
    gpointer v = g_hash_table_lookup(f->by_index, GUINT_TO_POINTER(index + 1));
    return v ? (tk_file_id)(GPOINTER_TO_UINT(v) - 1) : READ_PTX_NO_FILE;
}

int read_ptx_path_has_name(const char *path, const char *name, size_t len)
{
    size_t n = strlen(path);
    if (len == 0 || len > n || memcmp(path + n - len, name, len) != 0)
        return 0;
    return n == len || path[n - len - 1] == '/' || name[0] == '/';
}

tk_file_id read_ptx_files_by_name(read_ptx_files *f, const char *name, size_t len)
{
    const char *base = name;
    for (const char *q = name; q < name + len; q++)
        if (*q == '/')
            base = q + 1;
    if (base == name + len || memchr(name, '\0', len))
        return READ_PTX_NO_FILE;
    g_string_truncate(f->scratch, 0);
    g_string_append_len(f->scratch, base, (gssize)(name + len - base));
    gpointer v = g_hash_table_lookup(f->by_base, f->scratch->str);
    if (!v || GPOINTER_TO_UINT(v) == AMBIGUOUS)
        return READ_PTX_NO_FILE;
    tk_file_id id = GPOINTER_TO_UINT(v) - 1;
    return read_ptx_path_has_name(tk_loctab_file_path(f->tab, id), name, len)
               ? id
               : READ_PTX_NO_FILE;
}
