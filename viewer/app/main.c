/* main.c - tkview-viewer, the installed desktop viewer (tkv_main.h). */
#include "app/tkv_main.h"

int main(int argc, char **argv)
{
    return tkv_main(argc, argv, NULL);
}
