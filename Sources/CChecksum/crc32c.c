// CRC-32C with the SSE4.2 CRC32 instruction: about 8 bytes per cycle, so checking every event on
// replay costs little next to decoding it. The portable table version lives in Swift (CRC32C.swift).
#include "crc32c.h"
#include <string.h>

#if defined(__x86_64__)
#include <nmmintrin.h>

int muster_crc32c_hardware_available(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2");
}

__attribute__((target("sse4.2")))
uint32_t muster_crc32c_hardware(uint32_t crc, const void *bytes, size_t length) {
    const unsigned char *p = bytes;
    uint64_t c = crc;
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        c = _mm_crc32_u64(c, word);
        p += 8;
        length -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (length > 0) {
        c32 = _mm_crc32_u8(c32, *p++);
        length--;
    }
    return c32;
}
#else
int muster_crc32c_hardware_available(void) { return 0; }
uint32_t muster_crc32c_hardware(uint32_t crc, const void *bytes, size_t length) {
    (void)bytes;
    (void)length;
    return crc;
}
#endif
