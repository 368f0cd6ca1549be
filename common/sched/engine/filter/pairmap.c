/* Topology-pair counters; see pairmap.h. */
#include "sched/engine/filter/pairmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/hash.h"

void pk_pair_map_init(pk_pair_map *m)
{
	memset(m, 0, sizeof *m);
}

void pk_pair_map_free(pk_pair_map *m)
{
	free(m->keys);
	free(m->vals);
	free(m->counts);
	pk_pair_map_init(m);
}

static void grow(pk_pair_map *m)
{
	pk_pair_map n = { .cap = m->cap ? m->cap * 2 : 64 };
	n.keys = pk_xcalloc(n.cap, sizeof *n.keys);
	n.vals = pk_xcalloc(n.cap, sizeof *n.vals);
	n.counts = pk_xcalloc(n.cap, sizeof *n.counts);
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		size_t j = (size_t)pk_hash_ptr2(m->keys[i], m->vals[i]) & (n.cap - 1);
		while (n.keys[j])
			j = (j + 1) & (n.cap - 1);
		n.keys[j] = m->keys[i];
		n.vals[j] = m->vals[i];
		n.counts[j] = m->counts[i];
	}
	n.used = m->used;
	n.nonzero = m->nonzero;
	pk_pair_map_free(m);
	*m = n;
}

static long *slot(const pk_pair_map *m, const char *k, const char *v, size_t *free_at)
{
	if (!m->cap)
		return NULL;
	size_t j = (size_t)pk_hash_ptr2(k, v) & (m->cap - 1);
	while (m->keys[j]) {
		if (m->keys[j] == k && m->vals[j] == v)
			return &m->counts[j];
		j = (j + 1) & (m->cap - 1);
	}
	if (free_at)
		*free_at = j;
	return NULL;
}

long pk_pair_map_add(pk_pair_map *m, const char *k, const char *v, long d)
{
	if ((m->used + 1) * 2 > m->cap)
		grow(m);
	size_t j = 0;
	long *c = slot(m, k, v, &j);
	if (!c) {
		m->keys[j] = k;
		m->vals[j] = v;
		m->counts[j] = 0;
		m->used++;
		c = &m->counts[j];
	}
	long before = *c;
	*c += d;
	m->nonzero += (before == 0 && *c != 0) - (before != 0 && *c == 0);
	return *c;
}

long pk_pair_map_get(const pk_pair_map *m, const char *k, const char *v)
{
	long *c = slot(m, k, v, NULL);
	return c ? *c : 0;
}

int pk_pair_map_has(const pk_pair_map *m, const char *k, const char *v)
{
	return slot(m, k, v, NULL) != NULL;
}
