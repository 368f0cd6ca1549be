/* String interning: one stable copy per distinct string, with a dense id
 * (used as the queue's object key for UIDs). */
#ifndef APIQ_STRPOOL_H
#define APIQ_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

typedef struct apiq_strpool {
	char **strs;        /* id -> string */
	size_t n, cap;
	uint32_t *index;    /* open addressing: id + 1, 0 = empty */
	size_t icap;
} apiq_strpool;

void apiq_strpool_init(apiq_strpool *p);
void apiq_strpool_free(apiq_strpool *p);
/* Interned copy of s (NULL -> ""), or NULL on out of memory. */
const char *apiq_intern(apiq_strpool *p, const char *s);
/* Dense id of s, interning it; UINT64_MAX on out of memory. */
uint64_t apiq_intern_id(apiq_strpool *p, const char *s);
const char *apiq_strpool_get(const apiq_strpool *p, uint64_t id);

#endif
