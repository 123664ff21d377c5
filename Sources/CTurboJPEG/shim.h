#ifndef FACEWORKER_CTURBOJPEG_SHIM_H
#define FACEWORKER_CTURBOJPEG_SHIM_H
// Debian's libturbojpeg0-dev.
#include <turbojpeg.h>
#endif
