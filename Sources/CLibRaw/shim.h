// LibRaw's C API (libraw.h is C-compatible when included from C), plus accessors for fields Swift cannot import.
#ifndef RAWCAP_CLIBRAW_SHIM_H
#define RAWCAP_CLIBRAW_SHIM_H
#include <libraw/libraw.h>

/// `imgdata.color.cblack`: LIBRAW_CBLACK_SIZE (4104) entries, more than Swift imports as a tuple.
/// [0…3] per colour, [4] and [5] the pattern's rows and columns, [6…] the pattern.
static inline const unsigned *rc_libraw_cblack(const libraw_data_t *data) { return data->color.cblack; }
/// The number of entries behind rc_libraw_cblack.
static inline int rc_libraw_cblack_count(void) { return LIBRAW_CBLACK_SIZE; }
#endif
