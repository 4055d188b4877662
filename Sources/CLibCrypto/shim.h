#ifndef AUDITOR_CLIBCRYPTO_SHIM_H
#define AUDITOR_CLIBCRYPTO_SHIM_H
/*
 * OpenSSL's libcrypto (Debian's libssl-dev), for SHA-256 only, through its EVP interface:
 * the same assembly (SHA-NI, AVX2) as BoringSSL's, about 1.4 GB/s on this project's machine,
 * and nothing to compile. apple/swift-crypto did the same work but compiled BoringSSL in
 * every cold build: 124 s of a 217 s cold `swift build` here (issue 20).
 */
#include <openssl/evp.h>
#endif
