// libjpeg-turbo's TurboJPEG API (Debian's libturbojpeg0-dev).
#ifndef RAWCAP_CTURBOJPEG_SHIM_H
#define RAWCAP_CTURBOJPEG_SHIM_H
#include <turbojpeg.h>
#endif
