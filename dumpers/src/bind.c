/* bind.c - placeholder until the binding index lands. */
#include "tkdump/tk_bind.h"
