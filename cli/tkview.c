/* tkview.c - placeholder main. */
#include <stdio.h>
int main(void) { puts("tkview"); return 0; }
