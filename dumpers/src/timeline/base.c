/* base.c - what every part of the timeline shares: names of its enums, the
 * arena its pieces live in, which dialect and stage a pass works on, a
 * dump by its place and a side described in words.  The planner
 * (plan.c), the walk over the dumps (text.c), the diffs (diff.c) and the
 * builder (timeline.c) call down into it; it calls none of them. */
#include <string.h>

#include "timeline/internal.h"

tk_ir_dialect tk_pass_level_dialect(tk_pass_level level)
{
    switch (level) {
    case TK_PASS_LEVEL_TTIR:
    case TK_PASS_LEVEL_TTGIR:
    case TK_PASS_LEVEL_LLVM_MLIR:
        return TK_IR_MLIR;
    case TK_PASS_LEVEL_LLVM_IR:
    case TK_PASS_LEVEL_CODEGEN:
        return TK_IR_LLVM;
    case TK_PASS_LEVEL_MACHINE:
        return TK_IR_MIR;
    default:
        return TK_IR_PLAIN;
    }
}

const char *tk_effect_name(tk_effect effect)
{
    switch (effect) {
    case TK_EFFECT_CHANGED:
        return "changed";
    case TK_EFFECT_UNCHANGED:
        return "unchanged";
    default:
        return "unknown";
    }
}

/* Each reason's name and advice, and the sentence every front end shows
 * (tk_unknown_why_sentence()): one text each. */
#define NO_AFTER_NAME "no dump after it"
#define NO_AFTER_ADVICE                                                                  \
    "The dumps have this pass's IR before it ran but nothing after it, and no "          \
    "final stage of its IR level to compare with: the compile stopped here, or "          \
    "the dump was cut. Capture again (tkview capture) to see what it did."
#define NO_BEFORE_NAME "nothing comparable before it"
#define NO_BEFORE_ADVICE                                                                 \
    "The dumps have this pass's IR after it ran but no IR of the same level and "         \
    "scope before it to compare with (its level's first dump, or a function "            \
    "dumped on its own). Read its IR as it is; the pass before it shows what it "         \
    "started from."
#define NO_BODY_NAME "no IR printed"
#define NO_BODY_ADVICE                                                                   \
    "The dump has this pass's banner but no IR under it, so there is nothing to "         \
    "compare. Compilers print such banners for passes that ran on nothing "              \
    "(a declaration, an empty function)."
#define UNREADABLE_NAME "unreadable"
#define UNREADABLE_ADVICE                                                                \
    "A dump text could not be read (its file changed since it was indexed) or "           \
    "the diff was too large to make; the Problems list names the file. Open the "         \
    "bundle again, or diff the pass with tkview diff."
#define NOT_MEASURED_NAME "not measured"
#define NOT_MEASURED_ADVICE                                                              \
    "Its effect was not measured when the pass list was built; open the pass to "         \
    "see its diff."
#define SENTENCE(X) "Effect unknown: " X##_NAME ". " X##_ADVICE

const char *tk_unknown_why_advice(tk_unknown_why why)
{
    switch (why) {
    case TK_UNKNOWN_NO_AFTER:
        return NO_AFTER_ADVICE;
    case TK_UNKNOWN_NO_BEFORE:
        return NO_BEFORE_ADVICE;
    case TK_UNKNOWN_NO_BODY:
        return NO_BODY_ADVICE;
    case TK_UNKNOWN_UNREADABLE:
        return UNREADABLE_ADVICE;
    case TK_UNKNOWN_NOT_MEASURED:
        return NOT_MEASURED_ADVICE;
    default:
        return "";
    }
}

const char *tk_unknown_why_name(tk_unknown_why why)
{
    switch (why) {
    case TK_UNKNOWN_NO_AFTER:
        return NO_AFTER_NAME;
    case TK_UNKNOWN_NO_BEFORE:
        return NO_BEFORE_NAME;
    case TK_UNKNOWN_NO_BODY:
        return NO_BODY_NAME;
    case TK_UNKNOWN_UNREADABLE:
        return UNREADABLE_NAME;
    case TK_UNKNOWN_NOT_MEASURED:
        return NOT_MEASURED_NAME;
    default:
        return "";
    }
}

const char *tk_unknown_why_sentence(tk_unknown_why why)
{
    switch (why) {
    case TK_UNKNOWN_NO_AFTER:
        return SENTENCE(NO_AFTER);
    case TK_UNKNOWN_NO_BEFORE:
        return SENTENCE(NO_BEFORE);
    case TK_UNKNOWN_NO_BODY:
        return SENTENCE(NO_BODY);
    case TK_UNKNOWN_UNREADABLE:
        return SENTENCE(UNREADABLE);
    case TK_UNKNOWN_NOT_MEASURED:
        return SENTENCE(NOT_MEASURED);
    default:
        return "";
    }
}

tk_timeline_piece *tl_pieces_alloc(tk_timeline *tl, size_t n)
{
    if (n == 0)
        return NULL;
    if (tl->piece_blocks->len == 0 || tl->block_used + n > tl->block_cap) {
        size_t cap = n > 1024 ? n : 1024;
        g_ptr_array_add(tl->piece_blocks, g_new0(tk_timeline_piece, cap));
        tl->block_used = 0;
        tl->block_cap = cap;
    }
    tk_timeline_piece *p =
        (tk_timeline_piece *)g_ptr_array_index(tl->piece_blocks,
                                               tl->piece_blocks->len - 1) +
        tl->block_used;
    tl->block_used += n;
    return p;
}

tk_ir_dialect tl_entry_dialect(const tk_timeline_entry *e)
{
    switch (e->kind) {
    case TK_PASS_MLIR:
    case TK_PASS_MLIR_INTERNAL:
        return TK_IR_MLIR;
    case TK_PASS_LLVM_MACHINE:
        return TK_IR_MIR;
    default:
        return TK_IR_LLVM;
    }
}

gboolean tl_same_dialect(const tk_timeline *a, size_t i, const tk_timeline *b, size_t j,
                         tk_diags *diags)
{
    const tk_timeline_entry *ea = tk_timeline_get(a, i), *eb = tk_timeline_get(b, j);
    if (!ea || !eb || tl_entry_dialect(ea) == tl_entry_dialect(eb))
        return TRUE;
    tk_diags_add(diags, TK_DIAG_ERROR, a->kernel_name, 0,
                 "%s (%s) and %s (%s) are not the same kind of IR", ea->pass,
                 tk_pass_level_name(ea->level), eb->pass, tk_pass_level_name(eb->level));
    return FALSE;
}

tk_ir_dialect tl_side_dialect(const tk_timeline *tl,
                              const tk_timeline_entry *entry,
                              const tk_timeline_side *side)
{
    (void)tl;
    (void)side;
    return tl_entry_dialect(entry);
}

tk_stage_kind tl_bind_kind(const tk_timeline_entry *e)
{
    switch (tl_entry_dialect(e)) {
    case TK_IR_MLIR:
        return e->level == TK_PASS_LEVEL_TTIR ? TK_STAGE_TTIR : TK_STAGE_TTGIR;
    case TK_IR_LLVM:
        return TK_STAGE_LLIR;
    default:
        return TK_STAGE_UNKNOWN;
    }
}

const tk_pass_dump *tl_dump(const tk_timeline *tl, size_t part, size_t dump)
{
    if (part >= tl->n_parts)
        return NULL;
    return tk_passes_get(tl->parts[part].passes, dump);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void put_dump(GString *s, const tk_timeline *tl, size_t part, size_t dump)
{
    /* "file:line" without printf: the HTML report names two sides of
     * every pass of every kernel. */
    const tk_pass_dump *d = tl_dump(tl, part, dump);
    g_string_append(s, base_name(tk_passes_path(tl->parts[part].passes)));
    char buf[24], *p = buf + sizeof buf;
    uint64_t v = d ? d->header_line : 0;
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    *--p = ':';
    g_string_append_len(s, p, buf + sizeof buf - p);
}

char *tk_timeline_side_describe(const tk_timeline *tl,
                                const tk_timeline_side *side)
{
    GString *s = g_string_new(NULL);
    switch (side->kind) {
    case TK_SIDE_DUMP:
        put_dump(s, tl, side->part, side->dump);
        break;
    case TK_SIDE_FUNCTIONS: {
        int one_dump = 1;
        for (size_t i = 1; i < side->n_pieces; i++)
            one_dump &= side->pieces[i].part == side->pieces[0].part &&
                        side->pieces[i].dump == side->pieces[0].dump;
        if (one_dump && side->n_pieces) {
            put_dump(s, tl, side->pieces[0].part, side->pieces[0].dump);
            g_string_append(s, " (");
            for (size_t i = 0; i < side->n_pieces; i++)
                g_string_append_printf(s, "%s%s", i ? ", " : "", side->pieces[i].function);
            g_string_append(s, ")");
        } else {
            for (size_t i = 0; i < side->n_pieces; i++) {
                g_string_append_printf(s, "%s%s from ", i ? ", " : "",
                                       side->pieces[i].function);
                put_dump(s, tl, side->pieces[i].part, side->pieces[i].dump);
            }
        }
        break;
    }
    case TK_SIDE_STATE:
        put_dump(s, tl, side->part, side->dump);
        g_string_append(s, " with ");
        for (size_t i = 0; i < side->n_pieces; i++) {
            g_string_append_printf(s, "%s%s from ", i ? ", " : "",
                                   side->pieces[i].function);
            put_dump(s, tl, side->pieces[i].part, side->pieces[i].dump);
        }
        break;
    case TK_SIDE_FINAL: {
        const tk_stage *st = tl->kernel ? tk_kernel_stage(tl->kernel, side->final) : NULL;
        if (st)
            g_string_append_printf(s, "final %s", base_name(tk_stage_path(st)));
        else
            g_string_append_printf(s, "final .%s", tk_stage_kind_name(side->final));
        break;
    }
    default:
        g_string_append(s, "none");
        break;
    }
    return g_string_free(s, FALSE);
}

tk_timeline_side tl_side_none(void)
{
    tk_timeline_side s = {0};
    s.kind = TK_SIDE_NONE;
    s.part = s.dump = s.meta_part = s.meta_dump = TK_TL_NONE;
    s.final = TK_STAGE_UNKNOWN;
    return s;
}

tk_timeline_side tl_side_dump(size_t part, size_t dump)
{
    tk_timeline_side s = tl_side_none();
    s.kind = TK_SIDE_DUMP;
    s.part = part;
    s.dump = dump;
    return s;
}

tk_timeline_entry tl_entry_from_dump(const tk_timeline *tl, size_t part, size_t dump)
{
    const tk_pass_dump *d = tl_dump(tl, part, dump);
    tk_timeline_entry e = {0};
    e.part = part;
    e.dump = dump;
    e.header_line = d->header_line;
    e.kind = d->kind;
    e.when = d->when;
    e.status = d->status;
    e.scope_kind = d->scope_kind;
    e.level = d->level;
    e.pass = d->pass;
    e.arg = d->arg;
    e.scope = d->scope;
    e.scope_name = d->scope_name;
    e.effect = TK_EFFECT_UNKNOWN;
    e.why = TK_UNKNOWN_NONE;
    e.before = tl_side_none();
    e.after = tl_side_none();
    e.parent = TK_TL_NONE;
    return e;
}
