#ifndef FACEWORKER_CXNNPACK_SHIM_H
#define FACEWORKER_CXNNPACK_SHIM_H
// Debian's libxnnpack-dev; its header includes <pthreadpool.h> from libpthreadpool-dev.
#include <xnnpack.h>
#include <pthreadpool.h>
#endif
