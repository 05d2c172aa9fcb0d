// Stand-in (etmem tests).
#pragma once
#include <executorch/runtime/core/standin.h>
