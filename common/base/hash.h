/* The hashes of the tables: FNV-1a for bytes and strings, and a mix for
 * integer keys and pointers (interned strings are compared, and so hashed,
 * by address). */
#ifndef PK_BASE_HASH_H
#define PK_BASE_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* FNV-1a of s[0..n). Inline: interning hashes every string it reads. */
static inline uint64_t pk_hash_bytes(const void *s, size_t n)
{
	const unsigned char *b = s;
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 1099511628211ull;
	}
	return h;
}

static inline uint64_t pk_hash_str(const char *s)
{
	return pk_hash_bytes(s, strlen(s));
}

/* An integer key's hash (the finalizer of MurmurHash3): every bit of the
 * key moves the low bits that pick a slot. */
static inline uint64_t pk_hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

/* A pointer's hash: its address as an integer key. */
static inline uint64_t pk_hash_ptr(const void *p)
{
	return pk_hash_u64((uint64_t)(uintptr_t)p);
}

/* The hash of a pair of pointers (two interned strings, say). */
static inline uint64_t pk_hash_ptr2(const void *a, const void *b)
{
	uint64_t x = (uint64_t)(uintptr_t)a * 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)b;
	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	return x ^ (x >> 32);
}

#endif
