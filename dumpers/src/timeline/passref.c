/* passref.c - the one grammar that names a pass (tk_passref.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timeline/internal.h"
#include "tkdump/tk_passref.h"

/* Reads decimal digits at *P into *V; 0 when there are none or the number
 * does not fit. */
static int read_number(const char **p, size_t *v)
{
    const char *s = *p;
    size_t x = 0;
    if (*s < '0' || *s > '9')
        return 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        size_t d = (size_t)(*s - '0');
        if (x > (SIZE_MAX - d) / 10)
            return 0;
        x = x * 10 + d;
    }
    *v = x;
    *p = s;
    return 1;
}

static tk_passref_error by_name(const tk_timeline *tl, const char *spec, tk_passref *ref)
{
    size_t found = 0, n = tk_timeline_count(tl);
    for (size_t i = 0; i < n; i++) {
        const tk_timeline_entry *e = tk_timeline_get(tl, i);
        if (strcmp(e->pass, spec) == 0 || strcmp(e->arg, spec) == 0)
            if (found++ == 0)
                ref->from = ref->to = i;
    }
    return found == 1 ? TK_PASSREF_OK : found ? TK_PASSREF_AMBIGUOUS : TK_PASSREF_NO_NAME;
}

tk_passref_error tk_passref_parse(const tk_timeline *tl, const char *spec, tk_passref *ref)
{
    *ref = (tk_passref){0, TK_TL_NONE, 0};
    if (!spec || !*spec)
        return TK_PASSREF_SYNTAX;
    if (*spec < '0' || *spec > '9')
        return by_name(tl, spec, ref);
    const char *p = spec;
    size_t n = tk_timeline_count(tl), a, b;
    if (!read_number(&p, &a))
        return TK_PASSREF_SYNTAX;
    ref->from = ref->to = a;
    if (*p == '.') {
        p++;
        if (!read_number(&p, &b) || *p)
            return TK_PASSREF_SYNTAX;
        if (a >= n)
            return TK_PASSREF_NO_PASS;
        ref->sub = b;
        return b < tk_timeline_get(tl, a)->n_substeps ? TK_PASSREF_OK : TK_PASSREF_NO_SUBSTEP;
    }
    if (*p == '-') {
        p++;
        if (!read_number(&p, &b) || *p)
            return TK_PASSREF_SYNTAX;
        ref->to = b;
        if (a >= n || b >= n)
            return TK_PASSREF_NO_PASS;
        return b < a ? TK_PASSREF_BACKWARDS : TK_PASSREF_OK;
    }
    if (*p)
        return TK_PASSREF_SYNTAX;
    return a < n ? TK_PASSREF_OK : TK_PASSREF_NO_PASS;
}

tk_passref_error tk_passref_extend(const tk_timeline *tl, tk_passref *ref, const char *to)
{
    if (ref->sub != TK_TL_NONE || ref->to != ref->from)
        return TK_PASSREF_NOT_A_PASS;
    tk_passref t;
    tk_passref_error e = tk_passref_parse(tl, to, &t);
    if (e != TK_PASSREF_OK)
        return e;
    if (t.sub != TK_TL_NONE || t.to != t.from)
        return TK_PASSREF_NOT_A_PASS;
    ref->to = t.from;
    return t.from < ref->from ? TK_PASSREF_BACKWARDS : TK_PASSREF_OK;
}

char *tk_passref_format(const tk_passref *ref)
{
    char buf[64];
    if (ref->sub != TK_TL_NONE)
        snprintf(buf, sizeof buf, "%zu.%zu", ref->from, ref->sub);
    else if (ref->to != ref->from)
        snprintf(buf, sizeof buf, "%zu-%zu", ref->from, ref->to);
    else
        snprintf(buf, sizeof buf, "%zu", ref->from);
    return strdup(buf);
}

const char *tk_passref_error_name(tk_passref_error e)
{
    switch (e) {
    case TK_PASSREF_OK: return "ok";
    case TK_PASSREF_SYNTAX: return "syntax";
    case TK_PASSREF_NO_PASS: return "no-pass";
    case TK_PASSREF_NO_SUBSTEP: return "no-substep";
    case TK_PASSREF_BACKWARDS: return "backwards";
    case TK_PASSREF_NO_NAME: return "no-name";
    case TK_PASSREF_AMBIGUOUS: return "ambiguous";
    case TK_PASSREF_NOT_A_PASS: return "not-a-pass";
    }
    return "?";
}
