#include "multi_md5.h"

#include <string.h>

#define RC_CAT2(a, b) a##b
#define RC_CAT(a, b) RC_CAT2(a, b)


/// Four 32-bit words: one 16-byte load of one lane's block.
typedef uint32_t rc_md5_quad __attribute__((vector_size(16), aligned(4)));

/// Copies `length` bytes of a message made of rows, starting at (`row`, `offset`).
static void rc_md5_gather(
    uint8_t *destination, const uint8_t *origin, size_t length, size_t row, size_t offset, size_t rowBytes,
    size_t stride) {
    while (length > 0) {
        size_t piece = rowBytes - offset < length ? rowBytes - offset : length;
        memcpy(destination, origin + row * stride + offset, piece);
        destination += piece;
        length -= piece;
        offset += piece;
        if (offset == rowBytes) {
            offset = 0;
            row += 1;
        }
    }
}

/// Moves (`row`, `offset`) on by `length` bytes of the row-wise message.
static void rc_md5_advance(size_t length, size_t *row, size_t *offset, size_t rowBytes) {
    size_t position = *offset + length;
    *row += position / rowBytes;
    *offset = position % rowBytes;
}

#define KERNEL rc_md5_portable
#define LANES 8
#define TARGET
#include "md5_lanes_kernel.h"
#undef KERNEL
#undef LANES
#undef TARGET

#if defined(__x86_64__)
#define KERNEL rc_md5_avx2
#define LANES 16
#define TARGET __attribute__((target("avx2")))
#include "md5_lanes_kernel.h"
#undef KERNEL
#undef LANES
#undef TARGET

#define KERNEL rc_md5_avx512
#define LANES 32
#define TARGET __attribute__((target("avx512f")))
#include "md5_lanes_kernel.h"
#undef KERNEL
#undef LANES
#undef TARGET
#endif

int rc_md5_lanes_supported(rc_md5_lanes_kernel kernel) {
    switch (kernel) {
    case RC_MD5_LANES_BEST:
    case RC_MD5_LANES_PORTABLE:
        return 1;
#if defined(__x86_64__)
    case RC_MD5_LANES_AVX2:
        return __builtin_cpu_supports("avx2");
    case RC_MD5_LANES_AVX512:
        return __builtin_cpu_supports("avx512f");
#endif
    default:
        return 0;
    }
}

/// The kernel that `kernel` resolves to on this processor.
static rc_md5_lanes_kernel rc_md5_resolve(rc_md5_lanes_kernel kernel) {
    if (kernel != RC_MD5_LANES_BEST && rc_md5_lanes_supported(kernel)) return kernel;
    if (rc_md5_lanes_supported(RC_MD5_LANES_AVX512)) return RC_MD5_LANES_AVX512;
    if (rc_md5_lanes_supported(RC_MD5_LANES_AVX2)) return RC_MD5_LANES_AVX2;
    return RC_MD5_LANES_PORTABLE;
}

size_t rc_md5_lanes_width(rc_md5_lanes_kernel kernel) {
    switch (rc_md5_resolve(kernel)) {
    case RC_MD5_LANES_AVX512: return 32;
    case RC_MD5_LANES_AVX2: return 16;
    default: return 8;
    }
}

void rc_md5_lanes(
    rc_md5_lanes_kernel kernel, const uint8_t *const *starts, size_t count, size_t rowBytes, size_t rows,
    size_t stride, uint8_t *digests) {
    if (count == 0) return;
    switch (rc_md5_resolve(kernel)) {
#if defined(__x86_64__)
    case RC_MD5_LANES_AVX512:
        rc_md5_avx512_hash(starts, count, rowBytes, rows, stride, digests);
        return;
    case RC_MD5_LANES_AVX2:
        rc_md5_avx2_hash(starts, count, rowBytes, rows, stride, digests);
        return;
#endif
    default:
        rc_md5_portable_hash(starts, count, rowBytes, rows, stride, digests);
        return;
    }
}
