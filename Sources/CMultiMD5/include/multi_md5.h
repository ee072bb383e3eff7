// MD5 of many equally shaped messages at once, one message per SIMD lane: the DNG raw digest hashes hundreds of
// 256×256 tiles, and OpenSSL's MD5, one message at a time, is a serial chain of about 5 cycles per byte. Hashing
// 8 or 16 tiles side by side in vector registers gives the same digests several times faster per core.
#ifndef RAWCAP_MULTI_MD5_H
#define RAWCAP_MULTI_MD5_H

#include <stddef.h>
#include <stdint.h>

/// The instruction sets a kernel can use. `RC_MD5_LANES_BEST` picks the widest one the processor supports.
typedef enum {
    RC_MD5_LANES_BEST = 0,
    /// 8 lanes in portable vector code (two SSE2 or NEON registers per vector): every processor.
    RC_MD5_LANES_PORTABLE = 1,
    /// 16 lanes in two AVX2 registers per vector (x86-64 only).
    RC_MD5_LANES_AVX2 = 2,
    /// 32 lanes in two AVX-512 registers, with its rotate and three-input logic instructions (x86-64 only).
    RC_MD5_LANES_AVX512 = 3,
} rc_md5_lanes_kernel;

/// Whether the processor can run `kernel` (always true for BEST and PORTABLE).
int rc_md5_lanes_supported(rc_md5_lanes_kernel kernel);

/// How many messages one call of `rc_md5_lanes` with `kernel` hashes at most.
size_t rc_md5_lanes_width(rc_md5_lanes_kernel kernel);

/// MD5 of `count` messages (1 … rc_md5_lanes_width(kernel)) of identical shape: `rows` rows of `rowBytes` bytes,
/// row r of message l starting at `starts[l] + r * stride`. Writes 16 bytes per message to `digests`, message l at
/// `digests + 16 * l`. `rowBytes * rows` must not overflow. An unsupported kernel falls back to the best one.
void rc_md5_lanes(
    rc_md5_lanes_kernel kernel, const uint8_t *const *starts, size_t count, size_t rowBytes, size_t rows,
    size_t stride, uint8_t *digests);

#endif
