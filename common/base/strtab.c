/* The string interner; see strtab.h. */
#include "base/strtab.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "base/hash.h"

/* Strings are found through an open-addressing table that probes an
 * array of 32-bit hashes (16 to a cache line) and touches a string only
 * when its hash matches; the strings' pointers and ids are parallel
 * arrays. Filled up to 4/5: a 2-million-pod snapshot holds some 720,000
 * strings (pod names, uids and controller names are kept outside it). */

/* Pairs are found through a table of 64-bit slots: the top half of the
 * pair's hash above its id + 1 (0: empty). A probe reads the pair only
 * when the hash halves agree, and the table grows without reading any (a
 * 65,000-node snapshot has 784,000 label pairs, a cache miss each). */
typedef struct id_index {
	uint64_t *slots;
	size_t cap, count;
} id_index;

static uint64_t slot_tag(uint64_t hash) { return hash >> 32 << 32; }
static uint32_t slot_id(uint64_t slot) { return (uint32_t)slot - 1; }
static size_t slot_home(uint64_t slot, size_t cap) { return (size_t)(slot >> 32) & (cap - 1); }

/* Room for one more entry at load 3/4 (the slots move, the entries not). */
static void index_reserve(id_index *ix)
{
	if ((ix->count + 1) * 4 <= ix->cap * 3)
		return;
	size_t ncap = ix->cap ? ix->cap * 2 : 1024;
	uint64_t *ns = pk_xcalloc(ncap, sizeof *ns);
	for (size_t i = 0; i < ix->cap; i++) {
		if (!ix->slots[i])
			continue;
		size_t j = slot_home(ix->slots[i], ncap);
		while (ns[j])
			j = (j + 1) & (ncap - 1);
		ns[j] = ix->slots[i];
	}
	free(ix->slots);
	ix->slots = ns;
	ix->cap = ncap;
}

/* Ids are 32-bit: the last one is kept free. */
static uint32_t next_id(size_t count)
{
	if (count >= UINT32_MAX - 1)
		pk_out_of_memory();
	return (uint32_t)count;
}

/* A shared run of bytes (pk_intern_blob): its copy, size and hash. */
typedef struct setslot {
	const void *set;
	uint32_t size;
	uint32_t hash;
} setslot;

enum { PAIR_CHUNK = 1u << PK_PAIR_CHUNK_BITS, PAIR_MAX_CHUNKS = 1u << (32 - PK_PAIR_CHUNK_BITS) };

struct pk_strtab {
	pk_arena chars;           /* the strings, packed end to end */
	pk_arena maps;            /* blobs, pairs and pk_strtab_alloc (aligned) */
	uint32_t *hashes;         /* cap slots: the string's hash (never 0), or 0 */
	const char **strs;        /* parallel: the string */
	uint32_t *ids;            /* parallel: its id */
	size_t cap, count;
	const char **by_id;       /* id -> string */
	size_t idcap;
	setslot *sets;
	size_t setcap, nsets;
	id_index pairs;           /* pair hash -> id */
	pk_str_pair **pair_chunks; /* PAIR_MAX_CHUNKS entries, allocated on first use */
};

pk_strtab *pk_strtab_new(void)
{
	pk_strtab *t = pk_xcalloc(1, sizeof *t);
	pk_arena_init(&t->chars);
	pk_arena_init(&t->maps);
	t->cap = 1024;
	t->hashes = pk_xcalloc(t->cap, sizeof *t->hashes);
	t->strs = pk_xcalloc(t->cap, sizeof *t->strs);
	t->ids = pk_xcalloc(t->cap, sizeof *t->ids);
	t->setcap = 64;
	t->sets = pk_xcalloc(t->setcap, sizeof *t->sets);
	return t;
}

void pk_strtab_free(pk_strtab *t)
{
	if (!t)
		return;
	pk_arena_free(&t->chars);
	pk_arena_free(&t->maps);
	free(t->hashes);
	free(t->strs);
	free(t->ids);
	free(t->by_id);
	free(t->sets);
	free(t->pair_chunks);
	free(t->pairs.slots);
	free(t);
}

size_t pk_strtab_count(const pk_strtab *t) { return t->count; }
size_t pk_strtab_blobs(const pk_strtab *t) { return t->nsets; }

static void strtab_grow(pk_strtab *t)
{
	size_t ncap = t->cap * 2;
	uint32_t *nh = pk_xcalloc(ncap, sizeof *nh);
	const char **ns = pk_xcalloc(ncap, sizeof *ns);
	uint32_t *ni = pk_xcalloc(ncap, sizeof *ni);
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->hashes[i])
			continue;
		size_t j = t->hashes[i] & (ncap - 1);
		while (nh[j])
			j = (j + 1) & (ncap - 1);
		nh[j] = t->hashes[i];
		ns[j] = t->strs[i];
		ni[j] = t->ids[i];
	}
	free(t->hashes), t->hashes = nh;
	free(t->strs), t->strs = ns;
	free(t->ids), t->ids = ni;
	t->cap = ncap;
}

/* Is the stored string c equal to s[0..n)? (strnlen reads no further than
 * c's end or n + 1 bytes.) */
static bool same_string(const char *c, const char *s, size_t n)
{
	return strnlen(c, n + 1) == n && memcmp(c, s, n) == 0;
}

/* A string's hash as the table keeps it: never 0, which marks an empty
 * slot, so that a probe reads the hashes only. The bit it sets is above
 * any slot number's. */
static uint32_t string_hash(const char *s, size_t n)
{
	return (uint32_t)pk_hash_bytes(s, n) | 0x80000000u;
}

/* The slot of s[0..n) (hash h): where it is, or the empty slot where it
 * would go. */
static size_t string_slot(const pk_strtab *t, const char *s, size_t n, uint32_t h)
{
	size_t j = h & (t->cap - 1);
	for (; t->hashes[j]; j = (j + 1) & (t->cap - 1))
		if (t->hashes[j] == h && same_string(t->strs[j], s, n))
			break;
	return j;
}

/* The slot of s[0..n), interning it. */
static size_t intern_slot(pk_strtab *t, const char *s, size_t n)
{
	if ((t->count + 1) * 5 > t->cap * 4)
		strtab_grow(t);
	uint32_t h = string_hash(s, n);
	size_t j = string_slot(t, s, n, h);
	if (t->hashes[j])
		return j;
	uint32_t id = next_id(t->count);
	t->by_id = pk_grow(t->by_id, &t->idcap, (size_t)id + 1, sizeof *t->by_id);
	t->by_id[id] = t->strs[j] = pk_arena_strndup(&t->chars, s, n);
	t->hashes[j] = h;
	t->ids[j] = id;
	t->count++;
	return j;
}

const char *pk_intern_n(pk_strtab *t, const char *s, size_t n)
{
	if (!s)
		return NULL;
	size_t j = intern_slot(t, s, n); /* may move the slots */
	return t->strs[j];
}

const char *pk_intern(pk_strtab *t, const char *s)
{
	return s ? pk_intern_n(t, s, strlen(s)) : NULL;
}

uint32_t pk_intern_id(pk_strtab *t, const char *s)
{
	size_t j = intern_slot(t, s, strlen(s)); /* may move the slots */
	return t->ids[j];
}

const char *pk_strtab_str(const pk_strtab *t, uint32_t id)
{
	return t->by_id[id];
}

/* The slot of s if the table has it, else -1. */
static long find_slot(const pk_strtab *t, const char *s)
{
	if (!s)
		return -1;
	size_t n = strlen(s);
	size_t j = string_slot(t, s, n, string_hash(s, n));
	return t->hashes[j] ? (long)j : -1;
}

long pk_strtab_find_id(const pk_strtab *t, const char *s)
{
	long j = find_slot(t, s);
	return j < 0 ? -1 : (long)t->ids[j];
}

const char *pk_strtab_find(const pk_strtab *t, const char *s)
{
	long j = find_slot(t, s);
	return j < 0 ? NULL : t->strs[j];
}

const char *pk_strtab_keep(pk_strtab *t, const char *s, size_t n)
{
	return pk_arena_strndup(&t->chars, s, n);
}

void *pk_strtab_alloc(pk_strtab *t, size_t size)
{
	return pk_arena_alloc(&t->maps, size);
}

/* ---- blobs ------------------------------------------------------------- */

static void sets_grow(pk_strtab *t)
{
	size_t ncap = t->setcap * 2;
	setslot *ns = pk_xcalloc(ncap, sizeof *ns);
	for (size_t i = 0; i < t->setcap; i++) {
		if (!t->sets[i].set)
			continue;
		size_t j = t->sets[i].hash & (ncap - 1);
		while (ns[j].set)
			j = (j + 1) & (ncap - 1);
		ns[j] = t->sets[i];
	}
	free(t->sets);
	t->sets = ns;
	t->setcap = ncap;
}

const void *pk_intern_blob(pk_strtab *t, const void *data, size_t size)
{
	if ((t->nsets + 1) * 2 > t->setcap)
		sets_grow(t);
	if (size > UINT32_MAX) { /* beyond a slot's size field: kept unshared */
		void *own = pk_arena_alloc(&t->maps, size);
		return memcpy(own, data, size);
	}
	uint32_t h = (uint32_t)pk_hash_bytes(data, size);
	size_t j = h & (t->setcap - 1);
	for (; t->sets[j].set; j = (j + 1) & (t->setcap - 1))
		if (t->sets[j].hash == h && t->sets[j].size == size && memcmp(t->sets[j].set, data, size) == 0)
			return t->sets[j].set;
	void *copy = pk_arena_alloc(&t->maps, size);
	memcpy(copy, data, size);
	t->sets[j] = (setslot){ copy, (uint32_t)size, h };
	t->nsets++;
	return copy;
}

/* ---- pairs ------------------------------------------------------------- */

pk_str_pair *const *pk_strtab_pairs(pk_strtab *t)
{
	if (!t->pair_chunks)
		t->pair_chunks = pk_xcalloc(PAIR_MAX_CHUNKS, sizeof *t->pair_chunks);
	return t->pair_chunks;
}

static const pk_str_pair *pair_of(const pk_strtab *t, uint32_t id)
{
	return &t->pair_chunks[id >> PK_PAIR_CHUNK_BITS][id & (PAIR_CHUNK - 1)];
}

uint32_t pk_intern_pair(pk_strtab *t, const char *k, const char *v)
{
	id_index *ix = &t->pairs;
	index_reserve(ix);
	uint64_t tag = slot_tag(pk_hash_ptr2(k, v));
	size_t j = slot_home(tag, ix->cap);
	for (; ix->slots[j]; j = (j + 1) & (ix->cap - 1)) {
		if (slot_tag(ix->slots[j]) != tag)
			continue;
		const pk_str_pair *kv = pair_of(t, slot_id(ix->slots[j]));
		if (kv->key == k && kv->value == v)
			return slot_id(ix->slots[j]);
	}
	uint32_t id = next_id(ix->count);
	pk_strtab_pairs(t);
	pk_str_pair **chunk = &t->pair_chunks[id >> PK_PAIR_CHUNK_BITS];
	if (!*chunk)
		*chunk = pk_arena_alloc(&t->maps, sizeof **chunk * PAIR_CHUNK);
	(*chunk)[id & (PAIR_CHUNK - 1)] = (pk_str_pair){ k, v };
	ix->slots[j] = tag | ((uint64_t)id + 1);
	ix->count++;
	return id;
}

/* ---- string-keyed map -------------------------------------------------- */

void pk_strmap_init(pk_strmap *m)
{
	m->keys = NULL;
	m->values = NULL;
	m->cap = 0;
}

void pk_strmap_free(pk_strmap *m, void (*free_value)(void *))
{
	size_t n = m->keys ? pk_strtab_count(m->keys) : 0;
	for (size_t i = 0; free_value && i < n; i++)
		if (m->values[i])
			free_value(m->values[i]);
	pk_strtab_free(m->keys);
	free(m->values);
	pk_strmap_init(m);
}

void *pk_strmap_get(const pk_strmap *m, const char *key)
{
	long id = m->keys ? pk_strtab_find_id(m->keys, key) : -1;
	return id < 0 ? NULL : m->values[id];
}

void *pk_strmap_put(pk_strmap *m, const char *key, void *value)
{
	if (!m->keys)
		m->keys = pk_strtab_new();
	size_t old_count = pk_strtab_count(m->keys);
	uint32_t id = pk_intern_id(m->keys, key);
	if (id >= old_count) {
		size_t had = m->cap;
		m->values = pk_grow(m->values, &m->cap, (size_t)id + 1, sizeof *m->values);
		memset(m->values + had, 0, (m->cap - had) * sizeof *m->values);
	}
	void *old = m->values[id];
	m->values[id] = value;
	return old;
}
