/* module.c - what the program checks before it calls the report module
 * (html.h): that the module is of its own version. */
#include "html.h"

#include "tkview-config.h"

const char *html_module_version(void)
{
    return TKVIEW_VERSION;
}
