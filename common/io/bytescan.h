/* Finding the next byte that matters in JSON text, 16 bytes at a time where
 * SSE2 is available (every x86-64), one at a time elsewhere. The List
 * scanner and the pruner see every byte of a 1 GB snapshot: this is where
 * their time goes. */
#ifndef PK_BYTESCAN_H
#define PK_BYTESCAN_H

#include <stddef.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Structural bytes outside strings: '"', '{', '}', '[', ']', and with
 * with_comma also ','. Newlines before the returned byte are counted into
 * *lines and the last one's address is kept in *last_nl (both may be NULL). */
static inline const char *pk_scan_structural(const char *p, const char *e, int with_comma, long *lines,
                                             const char **last_nl)
{
#if defined(__SSE2__)
	const __m128i quote = _mm_set1_epi8('"'), open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}');
	const __m128i comma = _mm_set1_epi8(with_comma ? ',' : '"'), nl = _mm_set1_epi8('\n');
	const __m128i bit20 = _mm_set1_epi8(0x20);   /* '[' | 0x20 == '{', ']' | 0x20 == '}' */
	while (e - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i f = _mm_or_si128(v, bit20);
		__m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, comma)),
		                           _mm_or_si128(_mm_cmpeq_epi8(f, open), _mm_cmpeq_epi8(f, close)));
		unsigned s = (unsigned)_mm_movemask_epi8(hit);
		unsigned n = lines ? (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl)) : 0;
		if (s)
			n &= (s & -s) - 1;          /* only the newlines before the hit */
		if (n) {
			*last_nl = p + (31 - __builtin_clz(n));
			for (; n; n &= n - 1)   /* one or two: no popcount call (not in baseline x86-64) */
				++*lines;
		}
		if (s)
			return p + __builtin_ctz(s);
		p += 16;
	}
#endif
	for (; p < e; p++) {
		char c = *p;
		if (c == '"' || c == '{' || c == '}' || c == '[' || c == ']' || (with_comma && c == ','))
			return p;
		if (c == '\n' && lines) {
			++*lines;
			*last_nl = p;
		}
	}
	return p;
}

/* Inside a string: the next '"', '\\' or newline (which JSON forbids there). */
static inline const char *pk_scan_string(const char *p, const char *e)
{
#if defined(__SSE2__)
	const __m128i quote = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'), nl = _mm_set1_epi8('\n');
	while (e - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i hit = _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_or_si128(_mm_cmpeq_epi8(v, bs), _mm_cmpeq_epi8(v, nl)));
		unsigned s = (unsigned)_mm_movemask_epi8(hit);
		if (s)
			return p + __builtin_ctz(s);
		p += 16;
	}
#endif
	while (p < e && *p != '"' && *p != '\\' && *p != '\n')
		p++;
	return p;
}

/* 64 bytes at p classified at once, for skipping whole values: bit i of
 * each mask stands for p[i]. Without SSE2 the caller does not use it. */
typedef struct pk_block64 {
	unsigned long long quote, backslash, newline, open, close; /* open: { [  close: } ] */
	unsigned long long comma;
} pk_block64;

#if defined(__SSE2__)
#define PK_HAVE_BLOCK64 1
static inline unsigned long long pk_mask16(__m128i v, __m128i c)
{
	return (unsigned long long)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, c));
}

/* Bit i of the result for byte i of the 64 bytes in v0..v3 equal to c. */
static inline unsigned long long pk_mask64(__m128i v0, __m128i v1, __m128i v2, __m128i v3, __m128i c)
{
	return pk_mask16(v0, c) | pk_mask16(v1, c) << 16 | pk_mask16(v2, c) << 32 | pk_mask16(v3, c) << 48;
}

/* Written out rather than looped over, so that the four vectors stay in
 * registers and every shift is a constant. */
static inline void pk_classify64(const char *p, pk_block64 *b)
{
	const __m128i bit20 = _mm_set1_epi8(0x20);   /* '[' | 0x20 == '{', ']' | 0x20 == '}' */
	const __m128i *q = (const __m128i *)(const void *)p;
	__m128i v0 = _mm_loadu_si128(q), v1 = _mm_loadu_si128(q + 1);
	__m128i v2 = _mm_loadu_si128(q + 2), v3 = _mm_loadu_si128(q + 3);
	__m128i f0 = _mm_or_si128(v0, bit20), f1 = _mm_or_si128(v1, bit20);
	__m128i f2 = _mm_or_si128(v2, bit20), f3 = _mm_or_si128(v3, bit20);
	b->quote = pk_mask64(v0, v1, v2, v3, _mm_set1_epi8('"'));
	b->backslash = pk_mask64(v0, v1, v2, v3, _mm_set1_epi8('\\'));
	b->newline = pk_mask64(v0, v1, v2, v3, _mm_set1_epi8('\n'));
	b->open = pk_mask64(f0, f1, f2, f3, _mm_set1_epi8('{'));
	b->close = pk_mask64(f0, f1, f2, f3, _mm_set1_epi8('}'));
	b->comma = pk_mask64(v0, v1, v2, v3, _mm_set1_epi8(','));
}
#endif

/* Bit i set when an odd number of bits at or below i are set in x. */
static inline unsigned long long pk_prefix_xor(unsigned long long x)
{
	x ^= x << 1;
	x ^= x << 2;
	x ^= x << 4;
	x ^= x << 8;
	x ^= x << 16;
	x ^= x << 32;
	return x;
}

/* Population count without the POPCNT instruction (not in baseline x86-64). */
static inline int pk_popcount64(unsigned long long x)
{
	x = x - ((x >> 1) & 0x5555555555555555ull);
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
	return (int)((x * 0x0101010101010101ull) >> 56);
}

#endif
