#ifndef FACEWORKER_CXNNPACK_SHIM_H
#define FACEWORKER_CXNNPACK_SHIM_H
// XNNPACK as `make deps` builds it into the repository (scripts/build-xnnpack.sh), not Debian 12's
// older /usr/include/xnnpack.h: named by a path relative to this file so that no search path can
// pick the system's instead. xnnpack.h includes "pthreadpool.h" in quotes, so the prefix's copy
// beside it is the one found.
#include "../../.deps/xnnpack/include/xnnpack.h"
#include "../../.deps/xnnpack/include/pthreadpool.h"
#endif
