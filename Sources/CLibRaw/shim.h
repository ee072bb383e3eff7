// LibRaw's C API (libraw.h is C-compatible when included from C).
#ifndef RAWCAP_CLIBRAW_SHIM_H
#define RAWCAP_CLIBRAW_SHIM_H
#include <libraw/libraw.h>
#endif
