/* low/ includes high/'s header and declares another of its functions. */
#include "internal.h"
#include "low/low.h"
#include "high/high.h"

int high_other(int x);

int low_fn(void)
{
	return shared_fn() + high_other(1);
}
