// Anchor for the header-only base library.
#include "etmem/base/checked_math.h"
#include "etmem/base/result.h"
