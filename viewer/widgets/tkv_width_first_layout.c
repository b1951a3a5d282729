/* tkv_width_first_layout.c - a box layout whose width does not depend on
 * its height (tkv_width_first_layout.h says why): a GtkBoxLayout (final, so
 * held, not derived) asked for widths at no height. */
#include "widgets/tkv_width_first_layout.h"

struct _TkvWidthFirstLayout {
    GtkLayoutManager parent_instance;
    GtkLayoutManager *box; /* not attached to the widget: only its rules are used */
};

G_DEFINE_FINAL_TYPE(TkvWidthFirstLayout, tkv_width_first_layout, GTK_TYPE_LAYOUT_MANAGER)

static GtkSizeRequestMode get_request_mode(GtkLayoutManager *lm, GtkWidget *widget)
{
    /* the width is asked first and never for a height */
    return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void measure(GtkLayoutManager *lm, GtkWidget *widget, GtkOrientation orientation,
                    int for_size, int *minimum, int *natural, int *minimum_baseline,
                    int *natural_baseline)
{
    TkvWidthFirstLayout *self = TKV_WIDTH_FIRST_LAYOUT(lm);
    if (orientation == GTK_ORIENTATION_HORIZONTAL)
        for_size = -1;
    GTK_LAYOUT_MANAGER_GET_CLASS(self->box)->measure(self->box, widget, orientation, for_size,
                                                     minimum, natural, minimum_baseline,
                                                     natural_baseline);
}

static void allocate(GtkLayoutManager *lm, GtkWidget *widget, int width, int height,
                     int baseline)
{
    TkvWidthFirstLayout *self = TKV_WIDTH_FIRST_LAYOUT(lm);
    /* the class's allocate, not gtk_layout_manager_allocate(): that one has
     * just been run for this widget (it also sizes native children) */
    GTK_LAYOUT_MANAGER_GET_CLASS(self->box)->allocate(self->box, widget, width, height,
                                                      baseline);
}

static void tkv_width_first_layout_dispose(GObject *object)
{
    g_clear_object(&TKV_WIDTH_FIRST_LAYOUT(object)->box);
    G_OBJECT_CLASS(tkv_width_first_layout_parent_class)->dispose(object);
}

static void tkv_width_first_layout_class_init(TkvWidthFirstLayoutClass *klass)
{
    GtkLayoutManagerClass *lc = GTK_LAYOUT_MANAGER_CLASS(klass);
    G_OBJECT_CLASS(klass)->dispose = tkv_width_first_layout_dispose;
    lc->get_request_mode = get_request_mode;
    lc->measure = measure;
    lc->allocate = allocate;
}

static void tkv_width_first_layout_init(TkvWidthFirstLayout *self)
{
    self->box = gtk_box_layout_new(GTK_ORIENTATION_VERTICAL);
}

GtkLayoutManager *tkv_width_first_layout_new(GtkOrientation orientation, int spacing)
{
    TkvWidthFirstLayout *self = g_object_new(TKV_TYPE_WIDTH_FIRST_LAYOUT, NULL);
    gtk_orientable_set_orientation(GTK_ORIENTABLE(self->box), orientation);
    gtk_box_layout_set_spacing(GTK_BOX_LAYOUT(self->box), (guint)spacing);
    return GTK_LAYOUT_MANAGER(self);
}
