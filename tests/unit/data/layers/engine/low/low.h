/* low/'s header declares a function of high/'s. */
#include "internal.h"
int low_fn(void);
int high_fn(void);
