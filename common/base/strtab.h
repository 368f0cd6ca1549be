/* The one string interner, used by every tool.
 *
 * A pk_strtab keeps one copy of each distinct string: equal strings are
 * equal pointers, and each has a dense id (0, 1, 2, ... in first-seen
 * order) for tables indexed by string. It also keeps, once each, runs of
 * bytes many objects repeat (pk_intern_blob) and pairs of interned strings
 * (pk_intern_pair: the label pairs of k8s/). Everything lives until
 * pk_strtab_free; out of memory ends the run (alloc.h).
 *
 * pk_strmap is a string-keyed map on the same interner: a value per id.
 */
#ifndef PK_BASE_STRTAB_H
#define PK_BASE_STRTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct pk_strtab pk_strtab;
pk_strtab *pk_strtab_new(void);
void pk_strtab_free(pk_strtab *t);

/* The unique copy of s (NULL stays NULL). Pointers are stable until free. */
const char *pk_intern(pk_strtab *t, const char *s);
/* The same for s[0..len), which holds no NUL. */
const char *pk_intern_n(pk_strtab *t, const char *s, size_t len);
/* The dense id of s, interning it (s not NULL). */
uint32_t pk_intern_id(pk_strtab *t, const char *s);
/* The string of an id pk_intern_id gave. */
const char *pk_strtab_str(const pk_strtab *t, uint32_t id);
/* The unique copy of s if the table has one, else NULL; the table is not
 * changed (threads may look up at once while nobody interns). */
const char *pk_strtab_find(const pk_strtab *t, const char *s);
/* The id of s if the table has it, else -1; the table is not changed. */
long pk_strtab_find_id(const pk_strtab *t, const char *s);
/* The number of distinct strings (ids are below it). */
size_t pk_strtab_count(const pk_strtab *t);
/* A copy of s[0..n) kept with the table's strings but not interned (equal
 * strings are not equal pointers): for what every object has its own of. */
const char *pk_strtab_keep(pk_strtab *t, const char *s, size_t n);
/* Zeroed, 16-byte aligned memory that lives as long as the table. */
void *pk_strtab_alloc(pk_strtab *t, size_t size);

/* The table's one copy (16-byte aligned) of size bytes equal to data: what
 * many objects repeat (toleration lists) is kept once. Compared bytewise:
 * zero the padding of what you pass. Read-only. */
const void *pk_intern_blob(pk_strtab *t, const void *data, size_t size);
size_t pk_strtab_blobs(const pk_strtab *t);

/* Pairs of interned strings, numbered densely: pair id is
 * chunks[id >> PK_PAIR_CHUNK_BITS][id & ((1 << PK_PAIR_CHUNK_BITS) - 1)]
 * of pk_strtab_pairs(t); chunks never move. */
typedef struct pk_str_pair {
	const char *key, *value;
} pk_str_pair;
enum { PK_PAIR_CHUNK_BITS = 16 };
/* The id of the pair (key, value), both interned in t. */
uint32_t pk_intern_pair(pk_strtab *t, const char *key, const char *value);
pk_str_pair *const *pk_strtab_pairs(pk_strtab *t);

/* A map from strings to pointers: keys are interned (copied), values the
 * caller's. */
typedef struct pk_strmap {
	pk_strtab *keys;          /* NULL until the first put */
	void **values;            /* by key id */
	size_t cap;
} pk_strmap;

void pk_strmap_init(pk_strmap *m);
/* Free the keys and the table; free_value (if not NULL) is called on each
 * non-NULL value. */
void pk_strmap_free(pk_strmap *m, void (*free_value)(void *));
/* The value of key, or NULL. */
void *pk_strmap_get(const pk_strmap *m, const char *key);
/* Set key's value; returns the previous one (NULL for a new key). */
void *pk_strmap_put(pk_strmap *m, const char *key, void *value);

#endif
