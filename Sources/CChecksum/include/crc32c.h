#pragma once
#include <stddef.h>
#include <stdint.h>

/// Whether this CPU has a CRC-32C instruction (x86-64 SSE4.2).
int muster_crc32c_hardware_available(void);

/// Continues a CRC-32C over `length` bytes with the CPU instruction. `crc` is the running value
/// before the final inversion (start with 0xFFFFFFFF); only call when hardware is available.
uint32_t muster_crc32c_hardware(uint32_t crc, const void *bytes, size_t length);
