// OpenSSL's libcrypto (Debian's libssl-dev): the EVP message-digest API for MD5 and SHA-256.
// One-shot helpers for the common case; the streaming EVP_MD_CTX calls are used from Swift directly.
#ifndef RAWCAP_CCRYPTO_SHIM_H
#define RAWCAP_CCRYPTO_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <openssl/evp.h>

/// MD5 of `count` bytes into `digest` (16 bytes): EVP_Digest with EVP_md5(). Returns 1 on success, 0 on failure.
static inline int rc_md5(const void *data, size_t count, uint8_t digest[16]) {
    unsigned int length = 0;
    return EVP_Digest(data, count, digest, &length, EVP_md5(), NULL) == 1 && length == 16;
}

/// SHA-256 of `count` bytes into `digest` (32 bytes): EVP_Digest with EVP_sha256(). Returns 1 on success, 0 on failure.
static inline int rc_sha256(const void *data, size_t count, uint8_t digest[32]) {
    unsigned int length = 0;
    return EVP_Digest(data, count, digest, &length, EVP_sha256(), NULL) == 1 && length == 32;
}
#endif
