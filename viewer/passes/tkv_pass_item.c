/* tkv_pass_item.c - a pass list row's data. */
#include "passes/tkv_pass_item.h"

#include <string.h>

struct _TkvPassItem {
    GObject parent_instance;
    size_t pass, substep;
    char *spec, *title, *subtitle, *effect_text;
    tk_effect effect;
};

G_DEFINE_FINAL_TYPE(TkvPassItem, tkv_pass_item, G_TYPE_OBJECT)

enum { PROP_0, PROP_CHANGED, N_PROPS };
static GParamSpec *props[N_PROPS];

static void tkv_pass_item_get_property(GObject *object, guint id, GValue *value,
                                       GParamSpec *pspec)
{
    TkvPassItem *self = TKV_PASS_ITEM(object);
    if (id == PROP_CHANGED)
        g_value_set_boolean(value, self->effect != TK_EFFECT_UNCHANGED);
    else
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

static void tkv_pass_item_finalize(GObject *object)
{
    TkvPassItem *self = TKV_PASS_ITEM(object);
    g_free(self->spec);
    g_free(self->title);
    g_free(self->subtitle);
    g_free(self->effect_text);
    G_OBJECT_CLASS(tkv_pass_item_parent_class)->finalize(object);
}

static void tkv_pass_item_class_init(TkvPassItemClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    oc->get_property = tkv_pass_item_get_property;
    oc->finalize = tkv_pass_item_finalize;
    /* "Changed" for the filter: what changed, and what cannot be known to
     * be unchanged. */
    props[PROP_CHANGED] = g_param_spec_boolean("changed", NULL, NULL, FALSE,
                                               G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
    g_object_class_install_properties(oc, N_PROPS, props);
}

static void tkv_pass_item_init(TkvPassItem *self) {}

TkvPassItem *tkv_pass_item_new(const tk_timeline *tl, size_t pass, size_t substep)
{
    TkvPassItem *self = g_object_new(TKV_TYPE_PASS_ITEM, NULL);
    const tk_timeline_entry *e = substep == TK_TL_NONE ? tk_timeline_get(tl, pass)
                                                       : tk_timeline_substep(tl, pass, substep);
    self->pass = pass;
    self->substep = substep;
    self->spec = substep == TK_TL_NONE ? g_strdup_printf("%zu", pass)
                                       : g_strdup_printf("%zu.%zu", pass, substep);
    GString *t = g_string_new(e->pass);
    if (e->arg[0] && strcmp(e->arg, e->pass) != 0)
        g_string_append_printf(t, " (%s)", e->arg);
    if (e->scope_name[0] && e->scope_kind != TK_PASS_SCOPE_MODULE && substep == TK_TL_NONE)
        g_string_append_printf(t, " on %s", e->scope_name);
    char *title = g_string_free(t, FALSE);
    self->title = g_utf8_make_valid(title, -1);
    g_free(title);
    GString *sub = g_string_new(tk_pass_level_name(e->level));
    /* A converting pass: the level it leaves (tk_timeline_level_after()). */
    tk_pass_level after = substep == TK_TL_NONE ? tk_timeline_level_after(tl, pass) : e->level;
    if (after != e->level)
        g_string_append_printf(sub, " \u2192 %s", tk_pass_level_name(after));
    if (e->part != TK_TL_NONE) {
        const tk_timeline_part *p = tk_timeline_get_part(tl, e->part);
        char *base = g_path_get_basename(tk_passes_path(p->passes));
        g_string_append_printf(sub, " · %s:%llu", base, (unsigned long long)e->header_line);
        g_free(base);
    }
    if (e->effect == TK_EFFECT_UNKNOWN && e->why)
        g_string_append_printf(sub, " · %s", tk_unknown_why_name(e->why));
    if (e->flags & TK_TL_TO_FINAL)
        g_string_append(sub, " · against the final stage");
    if (tk_timeline_entry_note(e)) /* the library's words, as the CLI's */
        g_string_append_printf(sub, " · %s", tk_timeline_entry_note(e));
    char *subtitle = g_string_free(sub, FALSE);
    self->subtitle = g_utf8_make_valid(subtitle, -1);
    g_free(subtitle);
    self->effect = e->effect;
    self->effect_text = e->effect == TK_EFFECT_CHANGED
                            ? g_strdup_printf("+%u \u2212%u", e->added, e->removed)
                            : g_strdup(tk_effect_name(e->effect));
    return self;
}

size_t tkv_pass_item_get_pass(TkvPassItem *item) { return item->pass; }
size_t tkv_pass_item_get_substep(TkvPassItem *item) { return item->substep; }
const char *tkv_pass_item_get_spec(TkvPassItem *item) { return item->spec; }
const char *tkv_pass_item_get_title(TkvPassItem *item) { return item->title; }
const char *tkv_pass_item_get_subtitle(TkvPassItem *item) { return item->subtitle; }
const char *tkv_pass_item_get_effect_text(TkvPassItem *item) { return item->effect_text; }
tk_effect tkv_pass_item_get_effect(TkvPassItem *item) { return item->effect; }
gboolean tkv_pass_item_get_changed(TkvPassItem *item) { return item->effect != TK_EFFECT_UNCHANGED; }
