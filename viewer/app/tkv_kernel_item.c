/* tkv_kernel_item.c - a kernel list row's data. */
#include "app/tkv_kernel_item.h"

struct _TkvKernelItem {
    GObject parent_instance;
    guint index;
    char *name;
    char *hash;
    char *subtitle;
    char *search_text;
};

G_DEFINE_FINAL_TYPE(TkvKernelItem, tkv_kernel_item, G_TYPE_OBJECT)

enum { PROP_0, PROP_INDEX, PROP_NAME, PROP_HASH, PROP_SUBTITLE, PROP_SEARCH_TEXT, N_PROPS };
static GParamSpec *props[N_PROPS];

static void tkv_kernel_item_get_property(GObject *object, guint id, GValue *value,
                                         GParamSpec *pspec)
{
    TkvKernelItem *self = TKV_KERNEL_ITEM(object);
    switch (id) {
    case PROP_INDEX: g_value_set_uint(value, self->index); break;
    case PROP_NAME: g_value_set_string(value, self->name); break;
    case PROP_HASH: g_value_set_string(value, self->hash); break;
    case PROP_SUBTITLE: g_value_set_string(value, self->subtitle); break;
    case PROP_SEARCH_TEXT: g_value_set_string(value, self->search_text); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void tkv_kernel_item_finalize(GObject *object)
{
    TkvKernelItem *self = TKV_KERNEL_ITEM(object);
    g_free(self->name);
    g_free(self->hash);
    g_free(self->subtitle);
    g_free(self->search_text);
    G_OBJECT_CLASS(tkv_kernel_item_parent_class)->finalize(object);
}

static void tkv_kernel_item_class_init(TkvKernelItemClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    oc->get_property = tkv_kernel_item_get_property;
    oc->finalize = tkv_kernel_item_finalize;
    GParamFlags f = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
    props[PROP_INDEX] = g_param_spec_uint("index", NULL, NULL, 0, G_MAXUINT, 0, f);
    props[PROP_NAME] = g_param_spec_string("name", NULL, NULL, NULL, f);
    props[PROP_HASH] = g_param_spec_string("hash", NULL, NULL, NULL, f);
    props[PROP_SUBTITLE] = g_param_spec_string("subtitle", NULL, NULL, NULL, f);
    props[PROP_SEARCH_TEXT] = g_param_spec_string("search-text", NULL, NULL, NULL, f);
    g_object_class_install_properties(oc, N_PROPS, props);
}

static void tkv_kernel_item_init(TkvKernelItem *self) {}

TkvKernelItem *tkv_kernel_item_new(guint index, const tk_kernel *kernel)
{
    TkvKernelItem *self = g_object_new(TKV_TYPE_KERNEL_ITEM, NULL);
    self->index = index;
    self->name = g_utf8_make_valid(tk_kernel_name(kernel), -1);
    self->hash = g_utf8_make_valid(tk_kernel_hash(kernel), -1);
    GString *sub = g_string_new(NULL);
    for (int k = 0; k < TK_STAGE_COUNT; k++)
        if (tk_kernel_stage(kernel, (tk_stage_kind)k))
            g_string_append_printf(sub, "%s%s", sub->len ? " " : "",
                                   tk_stage_kind_name((tk_stage_kind)k));
    const tk_kernel_meta *m = tk_kernel_metadata(kernel);
    if (m && m->num_warps >= 0)
        g_string_append_printf(sub, " · %lld warps", (long long)m->num_warps);
    if (m && m->num_stages >= 0)
        g_string_append_printf(sub, " · %lld stages", (long long)m->num_stages);
    self->subtitle = g_string_free(sub, FALSE);
    self->search_text = g_strdup_printf("%s %s", self->name, self->hash);
    return self;
}

guint tkv_kernel_item_get_index(TkvKernelItem *item) { return item->index; }
const char *tkv_kernel_item_get_name(TkvKernelItem *item) { return item->name; }
const char *tkv_kernel_item_get_hash(TkvKernelItem *item) { return item->hash; }
const char *tkv_kernel_item_get_subtitle(TkvKernelItem *item) { return item->subtitle; }

void tkv_kernel_item_set_failed(TkvKernelItem *item)
{
    if (g_str_has_prefix(item->subtitle, "FAILED"))
        return;
    char *s = g_strdup_printf("FAILED to compile · %s", item->subtitle);
    g_free(item->subtitle);
    item->subtitle = s;
    g_object_notify_by_pspec(G_OBJECT(item), props[PROP_SUBTITLE]);
}
