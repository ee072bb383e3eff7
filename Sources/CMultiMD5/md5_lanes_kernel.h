// One multi-lane MD5 kernel, included once per vector width by md5_lanes.c with these macros defined:
//   KERNEL      the function's name
//   LANES       messages hashed at once (the vector has LANES 32-bit elements)
//   TARGET      a function attribute: the instruction set the kernel is compiled for, or nothing
//
// Each lane runs RFC 1321's MD5 on its own message; lane l of every vector belongs to message l. The 64 steps are
// written out so that every rotation count is a constant (an immediate shift, or one rotate instruction on AVX-512).

typedef uint32_t RC_CAT(KERNEL, _vector) __attribute__((vector_size(LANES * 4), aligned(4)));

#define F(b, c, d) ((d) ^ ((b) & ((c) ^ (d))))
#define G(b, c, d) ((c) ^ ((d) & ((b) ^ (c))))
#define H(b, c, d) ((b) ^ (c) ^ (d))
#define I(b, c, d) ((c) ^ ((b) | ~(d)))
#define STEP(f, a, b, c, d, word, constant, shift)                \
    do {                                                          \
        a += f(b, c, d) + (word) + (constant);                    \
        a = ((a << (shift)) | (a >> (32 - (shift)))) + (b);       \
    } while (0)

/// Runs the MD5 compression function on one 64-byte block per lane; `blocks[l]` is lane l's block.
TARGET static void RC_CAT(KERNEL, _compress)(RC_CAT(KERNEL, _vector) state[4], const uint8_t *const blocks[LANES]) {
    // The message words, transposed: m[w] holds word w of every lane's block.
    RC_CAT(KERNEL, _vector) m[16];
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (int word = 0; word < 16; word++) {
        for (int lane = 0; lane < LANES; lane++) {
            uint32_t value;
            memcpy(&value, blocks[lane] + 4 * word, 4);
            m[word][lane] = __builtin_bswap32(value);  // MD5 reads little-endian words
        }
    }
#else
    // Four words of four lanes at a time: four 16-byte loads and a 4×4 transpose, instead of 16 single-word
    // inserts.
    for (int quad = 0; quad < 4; quad++) {
        for (int group = 0; group < LANES; group += 4) {
            rc_md5_quad rows[4];
            for (int lane = 0; lane < 4; lane++) memcpy(&rows[lane], blocks[group + lane] + 16 * quad, 16);
            rc_md5_quad low01 = __builtin_shufflevector(rows[0], rows[1], 0, 4, 1, 5);
            rc_md5_quad high01 = __builtin_shufflevector(rows[0], rows[1], 2, 6, 3, 7);
            rc_md5_quad low23 = __builtin_shufflevector(rows[2], rows[3], 0, 4, 1, 5);
            rc_md5_quad high23 = __builtin_shufflevector(rows[2], rows[3], 2, 6, 3, 7);
            rc_md5_quad words[4] = {
                __builtin_shufflevector(low01, low23, 0, 1, 4, 5),
                __builtin_shufflevector(low01, low23, 2, 3, 6, 7),
                __builtin_shufflevector(high01, high23, 0, 1, 4, 5),
                __builtin_shufflevector(high01, high23, 2, 3, 6, 7),
            };
            for (int word = 0; word < 4; word++) memcpy((uint32_t *)&m[4 * quad + word] + group, &words[word], 16);
        }
    }
#endif
    RC_CAT(KERNEL, _vector) a = state[0], b = state[1], c = state[2], d = state[3];
        STEP(F, a, b, c, d, m[ 0], 0xd76aa478u,  7);
        STEP(F, d, a, b, c, m[ 1], 0xe8c7b756u, 12);
        STEP(F, c, d, a, b, m[ 2], 0x242070dbu, 17);
        STEP(F, b, c, d, a, m[ 3], 0xc1bdceeeu, 22);
        STEP(F, a, b, c, d, m[ 4], 0xf57c0fafu,  7);
        STEP(F, d, a, b, c, m[ 5], 0x4787c62au, 12);
        STEP(F, c, d, a, b, m[ 6], 0xa8304613u, 17);
        STEP(F, b, c, d, a, m[ 7], 0xfd469501u, 22);
        STEP(F, a, b, c, d, m[ 8], 0x698098d8u,  7);
        STEP(F, d, a, b, c, m[ 9], 0x8b44f7afu, 12);
        STEP(F, c, d, a, b, m[10], 0xffff5bb1u, 17);
        STEP(F, b, c, d, a, m[11], 0x895cd7beu, 22);
        STEP(F, a, b, c, d, m[12], 0x6b901122u,  7);
        STEP(F, d, a, b, c, m[13], 0xfd987193u, 12);
        STEP(F, c, d, a, b, m[14], 0xa679438eu, 17);
        STEP(F, b, c, d, a, m[15], 0x49b40821u, 22);
        STEP(G, a, b, c, d, m[ 1], 0xf61e2562u,  5);
        STEP(G, d, a, b, c, m[ 6], 0xc040b340u,  9);
        STEP(G, c, d, a, b, m[11], 0x265e5a51u, 14);
        STEP(G, b, c, d, a, m[ 0], 0xe9b6c7aau, 20);
        STEP(G, a, b, c, d, m[ 5], 0xd62f105du,  5);
        STEP(G, d, a, b, c, m[10], 0x02441453u,  9);
        STEP(G, c, d, a, b, m[15], 0xd8a1e681u, 14);
        STEP(G, b, c, d, a, m[ 4], 0xe7d3fbc8u, 20);
        STEP(G, a, b, c, d, m[ 9], 0x21e1cde6u,  5);
        STEP(G, d, a, b, c, m[14], 0xc33707d6u,  9);
        STEP(G, c, d, a, b, m[ 3], 0xf4d50d87u, 14);
        STEP(G, b, c, d, a, m[ 8], 0x455a14edu, 20);
        STEP(G, a, b, c, d, m[13], 0xa9e3e905u,  5);
        STEP(G, d, a, b, c, m[ 2], 0xfcefa3f8u,  9);
        STEP(G, c, d, a, b, m[ 7], 0x676f02d9u, 14);
        STEP(G, b, c, d, a, m[12], 0x8d2a4c8au, 20);
        STEP(H, a, b, c, d, m[ 5], 0xfffa3942u,  4);
        STEP(H, d, a, b, c, m[ 8], 0x8771f681u, 11);
        STEP(H, c, d, a, b, m[11], 0x6d9d6122u, 16);
        STEP(H, b, c, d, a, m[14], 0xfde5380cu, 23);
        STEP(H, a, b, c, d, m[ 1], 0xa4beea44u,  4);
        STEP(H, d, a, b, c, m[ 4], 0x4bdecfa9u, 11);
        STEP(H, c, d, a, b, m[ 7], 0xf6bb4b60u, 16);
        STEP(H, b, c, d, a, m[10], 0xbebfbc70u, 23);
        STEP(H, a, b, c, d, m[13], 0x289b7ec6u,  4);
        STEP(H, d, a, b, c, m[ 0], 0xeaa127fau, 11);
        STEP(H, c, d, a, b, m[ 3], 0xd4ef3085u, 16);
        STEP(H, b, c, d, a, m[ 6], 0x04881d05u, 23);
        STEP(H, a, b, c, d, m[ 9], 0xd9d4d039u,  4);
        STEP(H, d, a, b, c, m[12], 0xe6db99e5u, 11);
        STEP(H, c, d, a, b, m[15], 0x1fa27cf8u, 16);
        STEP(H, b, c, d, a, m[ 2], 0xc4ac5665u, 23);
        STEP(I, a, b, c, d, m[ 0], 0xf4292244u,  6);
        STEP(I, d, a, b, c, m[ 7], 0x432aff97u, 10);
        STEP(I, c, d, a, b, m[14], 0xab9423a7u, 15);
        STEP(I, b, c, d, a, m[ 5], 0xfc93a039u, 21);
        STEP(I, a, b, c, d, m[12], 0x655b59c3u,  6);
        STEP(I, d, a, b, c, m[ 3], 0x8f0ccc92u, 10);
        STEP(I, c, d, a, b, m[10], 0xffeff47du, 15);
        STEP(I, b, c, d, a, m[ 1], 0x85845dd1u, 21);
        STEP(I, a, b, c, d, m[ 8], 0x6fa87e4fu,  6);
        STEP(I, d, a, b, c, m[15], 0xfe2ce6e0u, 10);
        STEP(I, c, d, a, b, m[ 6], 0xa3014314u, 15);
        STEP(I, b, c, d, a, m[13], 0x4e0811a1u, 21);
        STEP(I, a, b, c, d, m[ 4], 0xf7537e82u,  6);
        STEP(I, d, a, b, c, m[11], 0xbd3af235u, 10);
        STEP(I, c, d, a, b, m[ 2], 0x2ad7d2bbu, 15);
        STEP(I, b, c, d, a, m[ 9], 0xeb86d391u, 21);
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
}

#undef F
#undef G
#undef H
#undef I
#undef STEP

/// Hashes `count` (1…LANES) messages of `rows` rows of `rowBytes` bytes each, row r of message l at
/// `starts[l] + r * stride`, into `digests` (16 bytes per message). Lanes past `count` hash message 0 again and are
/// thrown away.
TARGET static void RC_CAT(KERNEL, _hash)(
    const uint8_t *const *starts, size_t count, size_t rowBytes, size_t rows, size_t stride, uint8_t *digests) {
    const uint8_t *origin[LANES];
    for (int lane = 0; lane < LANES; lane++) origin[lane] = starts[(size_t)lane < count ? (size_t)lane : 0];
    RC_CAT(KERNEL, _vector) state[4];
    for (int lane = 0; lane < LANES; lane++) {
        state[0][lane] = 0x67452301u;
        state[1][lane] = 0xefcdab89u;
        state[2][lane] = 0x98badcfeu;
        state[3][lane] = 0x10325476u;
    }
    // Blocks that straddle rows, and the padded final block(s), are copied here first.
    uint8_t gathered[LANES][128];
    const uint8_t *blocks[LANES];
    const size_t total = rowBytes * rows;
    size_t done = 0, row = 0, offset = 0;
    while (total - done >= 64) {
        if (rowBytes - offset >= 64) {
            // The common case: the block lies inside one row and is hashed where it is.
            for (int lane = 0; lane < LANES; lane++) blocks[lane] = origin[lane] + row * stride + offset;
        } else {
            for (int lane = 0; lane < LANES; lane++) {
                rc_md5_gather(gathered[lane], origin[lane], 64, row, offset, rowBytes, stride);
                blocks[lane] = gathered[lane];
            }
        }
        rc_md5_advance(64, &row, &offset, rowBytes);
        RC_CAT(KERNEL, _compress)(state, blocks);
        done += 64;
    }
    // MD5 padding (RFC 1321 §3.1–3.2): 0x80, zeros to 56 mod 64, then the length in bits, little-endian.
    const size_t tail = total - done;
    const size_t paddedBlocks = tail < 56 ? 1 : 2;
    const uint64_t bitCount = (uint64_t)total * 8;
    for (int lane = 0; lane < LANES; lane++) {
        rc_md5_gather(gathered[lane], origin[lane], tail, row, offset, rowBytes, stride);
        memset(gathered[lane] + tail, 0, 128 - tail);
        gathered[lane][tail] = 0x80;
        for (int byte = 0; byte < 8; byte++) {
            gathered[lane][paddedBlocks * 64 - 8 + byte] = (uint8_t)(bitCount >> (8 * byte));
        }
        blocks[lane] = gathered[lane];
    }
    RC_CAT(KERNEL, _compress)(state, blocks);
    if (paddedBlocks == 2) {
        for (int lane = 0; lane < LANES; lane++) blocks[lane] = gathered[lane] + 64;
        RC_CAT(KERNEL, _compress)(state, blocks);
    }
    for (size_t lane = 0; lane < count; lane++) {
        for (int word = 0; word < 4; word++) {
            const uint32_t value = state[word][lane];
            for (int byte = 0; byte < 4; byte++) digests[lane * 16 + 4 * word + byte] = (uint8_t)(value >> (8 * byte));
        }
    }
}
