/* The hashes of the tables: FNV-1a for bytes and strings, and a mix for
 * pointers (interned strings are compared, and so hashed, by address). */
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

#endif
