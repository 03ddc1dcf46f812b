// Byte-class scans sixteen bytes at a time: the vector kernels under the tokenizer's runs of
// string bytes and of spaces (UTF8Kernels.swift). Each takes a range [p, end), loads only
// whole 16-byte blocks inside it and finishes the last few bytes one at a time, so no load
// reaches past `end`. It returns the first byte that stops the scan, or `end`.
//
// The blocks are compared with SSE2 on x86-64 (part of the architecture, so there is nothing
// to detect) and with NEON on 64-bit ARM. Elsewhere `jsonstream_simd_has_blocks` is 0 and the
// Swift callers use their word loops instead. The functions are `static inline` so that the
// Swift compiler inlines them into its loops: a call per string would cost more than the
// block it scans.

#ifndef JSONSTREAM_SIMD_H
#define JSONSTREAM_SIMD_H

#include <stdint.h>

// Pointers the Swift side may take as non-optional; the annotation is Clang's (the compiler
// Swift imports C with), so other compilers read nothing.
#if defined(__clang__)
#define JSONSTREAM_NONNULL _Nonnull
#else
#define JSONSTREAM_NONNULL
#endif

#if defined(__SSE2__)
#include <emmintrin.h>
#define JSONSTREAM_SIMD_BLOCKS 1
#elif defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#define JSONSTREAM_SIMD_BLOCKS 1
#else
#define JSONSTREAM_SIMD_BLOCKS 0
#endif

/// Whether the scans below look at blocks on this architecture. Where they do not, they are
/// byte loops, and the Swift callers use their word loops instead.
static inline int jsonstream_simd_has_blocks(void) { return JSONSTREAM_SIMD_BLOCKS; }

#if defined(__aarch64__) && defined(__ARM_NEON) && !defined(__SSE2__)
/// NEON has no byte mask move: narrowing each 16-bit lane by 4 keeps four bits per byte, so
/// a block's flags become a 64-bit word where byte i owns bits 4i..4i+3.
static inline uint64_t jsonstream_neon_nibbles(uint8x16_t flags) {
  uint8x8_t narrowed = vshrn_n_u16(vreinterpretq_u16_u8(flags), 4);
  return vget_lane_u64(vreinterpret_u64_u8(narrowed), 0);
}
#endif

/// Past the bytes a JSON string may hold that need no attention: ASCII from 0x20 except `"`
/// and `\`. Stops at a byte below 0x20, `"`, `\` or from 0x80, or at `end`.
static inline const uint8_t *JSONSTREAM_NONNULL jsonstream_skip_plain_string_blocks(
    const uint8_t *JSONSTREAM_NONNULL p, const uint8_t *JSONSTREAM_NONNULL end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20);
  while (end - p >= 16) {
    __m128i block = _mm_loadu_si128((const __m128i *)p);
    // Signed, bytes from 0x80 are negative: one compare finds them and the control bytes.
    __m128i flags = _mm_or_si128(
        _mm_cmplt_epi8(block, space),
        _mm_or_si128(_mm_cmpeq_epi8(block, quote), _mm_cmpeq_epi8(block, backslash)));
    unsigned mask = (unsigned)_mm_movemask_epi8(flags);
    if (mask != 0) return p + __builtin_ctz(mask);
    p += 16;
  }
#elif defined(__aarch64__) && defined(__ARM_NEON)
  const uint8x16_t quote = vdupq_n_u8('"');
  const uint8x16_t backslash = vdupq_n_u8('\\');
  const uint8x16_t space = vdupq_n_u8(0x20);
  const uint8x16_t high = vdupq_n_u8(0x80);
  while (end - p >= 16) {
    uint8x16_t block = vld1q_u8(p);
    uint8x16_t flags = vorrq_u8(
        vorrq_u8(vcltq_u8(block, space), vcgeq_u8(block, high)),
        vorrq_u8(vceqq_u8(block, quote), vceqq_u8(block, backslash)));
    uint64_t nibbles = jsonstream_neon_nibbles(flags);
    if (nibbles != 0) return p + (__builtin_ctzll(nibbles) >> 2);
    p += 16;
  }
#endif
  while (p < end && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\') p++;
  return p;
}

/// Past the spaces (0x20 only): indentation. Stops at any other byte, or at `end`.
static inline const uint8_t *JSONSTREAM_NONNULL jsonstream_skip_spaces_blocks(
    const uint8_t *JSONSTREAM_NONNULL p, const uint8_t *JSONSTREAM_NONNULL end) {
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(0x20);
  while (end - p >= 16) {
    __m128i block = _mm_loadu_si128((const __m128i *)p);
    unsigned others = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(block, space)) ^ 0xFFFFu;
    if (others != 0) return p + __builtin_ctz(others);
    p += 16;
  }
#elif defined(__aarch64__) && defined(__ARM_NEON)
  const uint8x16_t space = vdupq_n_u8(0x20);
  while (end - p >= 16) {
    uint8x16_t block = vld1q_u8(p);
    uint64_t nibbles = jsonstream_neon_nibbles(vmvnq_u8(vceqq_u8(block, space)));
    if (nibbles != 0) return p + (__builtin_ctzll(nibbles) >> 2);
    p += 16;
  }
#endif
  while (p < end && *p == 0x20) p++;
  return p;
}

#endif
