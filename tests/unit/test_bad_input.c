/* test_bad_input.c - placeholder; the real tests land with the module. */
#include "tk_test.h"

static void test_placeholder(void)
{
    g_test_skip("not written yet");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/bad_input/placeholder", test_placeholder);
    return g_test_run();
}
