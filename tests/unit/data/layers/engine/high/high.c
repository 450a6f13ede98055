/* high/ may use low/ and the shared files. */
#include "high/high.h"

int high_fn(void)
{
	return low_fn();
}

int high_other(int x)
{
	return x;
}
