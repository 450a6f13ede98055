#include "low/low.h"
int high_other(int x);
