// Typed wrappers around libtiff's variadic TIFFSetField/TIFFGetField, which Swift cannot call.
// Each wrapper names the C call it stands for; the tag's expected C type is in its name.
#ifndef RAWCAP_CLIBTIFF_SHIM_H
#define RAWCAP_CLIBTIFF_SHIM_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <tiffio.h>

/// TIFFSetField(tif, tag, (uint32_t)value) for SHORT and LONG scalar tags (libtiff promotes through int).
static inline int rc_tiff_set_u32(TIFF *tif, uint32_t tag, uint32_t value) { return TIFFSetField(tif, tag, value); }
/// TIFFSetField(tif, tag, (uint16_t)value) for tags whose set type is uint16 passed as int.
static inline int rc_tiff_set_u16(TIFF *tif, uint32_t tag, uint16_t value) { return TIFFSetField(tif, tag, (int)value); }
/// TIFFSetField(tif, tag, (double)value) for scalar RATIONAL/SRATIONAL/FLOAT/DOUBLE tags (varargs promote float).
static inline int rc_tiff_set_double(TIFF *tif, uint32_t tag, double value) { return TIFFSetField(tif, tag, value); }
/// TIFFSetField(tif, tag, const char *) for ASCII tags.
static inline int rc_tiff_set_string(TIFF *tif, uint32_t tag, const char *value) { return TIFFSetField(tif, tag, value); }
/// TIFFSetField(tif, tag, count, const void *array) for counted array tags (passcount = 1) whose count is uint16.
static inline int rc_tiff_set_array_c16(TIFF *tif, uint32_t tag, uint16_t count, const void *values) {
    return TIFFSetField(tif, tag, (int)count, values);
}
/// TIFFSetField(tif, tag, count, const void *array) for counted array tags (passcount = 1) whose count is uint32.
static inline int rc_tiff_set_array_c32(TIFF *tif, uint32_t tag, uint32_t count, const void *values) {
    return TIFFSetField(tif, tag, count, values);
}
/// TIFFSetField(tif, tag, const void *array) for fixed-count array tags (passcount = 0).
static inline int rc_tiff_set_array(TIFF *tif, uint32_t tag, const void *values) { return TIFFSetField(tif, tag, values); }
/// TIFFSetField(tif, tag, uint16 a, uint16 b) for two-value SHORT tags such as CFARepeatPatternDim's libtiff form
/// or TIFFTAG_PAGENUMBER.
static inline int rc_tiff_set_u16_pair(TIFF *tif, uint32_t tag, uint16_t a, uint16_t b) {
    return TIFFSetField(tif, tag, (int)a, (int)b);
}
/// TIFFSetField(tif, TIFFTAG_SUBIFD, count, uint64 *offsets): reserves `count` SubIFD slots.
static inline int rc_tiff_set_subifds(TIFF *tif, uint16_t count, const uint64_t *offsets) {
    return TIFFSetField(tif, TIFFTAG_SUBIFD, (int)count, offsets);
}

/// TIFFSetField(tif, tag, (uint64_t)value) for IFD8-typed scalar tags such as TIFFTAG_EXIFIFD.
static inline int rc_tiff_set_u64(TIFF *tif, uint32_t tag, uint64_t value) { return TIFFSetField(tif, tag, value); }

/// TIFFGetField(tif, tag, uint32_t *) for SHORT or LONG scalar tags read as uint32.
static inline int rc_tiff_get_u32(TIFF *tif, uint32_t tag, uint32_t *value) { return TIFFGetField(tif, tag, value); }
/// TIFFGetField(tif, tag, uint16_t *) for tags whose get type is uint16.
static inline int rc_tiff_get_u16(TIFF *tif, uint32_t tag, uint16_t *value) { return TIFFGetField(tif, tag, value); }
/// TIFFGetField(tif, tag, float *) for scalar float-typed tags (libtiff maps DNG rationals to float).
static inline int rc_tiff_get_float(TIFF *tif, uint32_t tag, float *value) { return TIFFGetField(tif, tag, value); }
/// TIFFGetField(tif, tag, double *) for scalar double-typed tags.
static inline int rc_tiff_get_double(TIFF *tif, uint32_t tag, double *value) { return TIFFGetField(tif, tag, value); }
/// TIFFGetField(tif, tag, char **) for ASCII tags.
static inline int rc_tiff_get_string(TIFF *tif, uint32_t tag, char **value) { return TIFFGetField(tif, tag, value); }
/// TIFFGetField(tif, tag, uint16 *count, void **array) for counted array tags with a uint16 count.
static inline int rc_tiff_get_array_c16(TIFF *tif, uint32_t tag, uint16_t *count, void **values) {
    return TIFFGetField(tif, tag, count, values);
}
/// TIFFGetField(tif, tag, uint32 *count, void **array) for counted array tags with a uint32 count.
static inline int rc_tiff_get_array_c32(TIFF *tif, uint32_t tag, uint32_t *count, void **values) {
    return TIFFGetField(tif, tag, count, values);
}
/// TIFFGetField(tif, tag, void **array) for fixed-count array tags.
static inline int rc_tiff_get_array(TIFF *tif, uint32_t tag, void **values) { return TIFFGetField(tif, tag, values); }
/// TIFFGetField(tif, tag, void *value) for a scalar custom field (count 1, no passcount): libtiff stores one value of
/// the field's C type through the pointer (uint8/16/32/64, int8/16/32/64, float or double: at most 8 bytes).
static inline int rc_tiff_get_scalar(TIFF *tif, uint32_t tag, void *value) { return TIFFGetField(tif, tag, value); }
/// TIFFGetField(tif, tag, uint16 *a, uint16 *b) for two-value SHORT tags.
static inline int rc_tiff_get_u16_pair(TIFF *tif, uint32_t tag, uint16_t *a, uint16_t *b) {
    return TIFFGetField(tif, tag, a, b);
}
/// TIFFGetField(tif, TIFFTAG_SUBIFD, uint16 *count, uint64 **offsets).
static inline int rc_tiff_get_subifds(TIFF *tif, uint16_t *count, uint64_t **offsets) {
    return TIFFGetField(tif, TIFFTAG_SUBIFD, count, offsets);
}

/// Formats a libtiff message (format + va_list from a TIFFErrorHandlerExtR) into `buffer`.
static inline int rc_tiff_format_message(char *buffer, size_t size, const char *format, va_list args) {
    return vsnprintf(buffer, size, format, args);
}
#endif
