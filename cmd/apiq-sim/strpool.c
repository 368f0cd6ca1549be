#include "strpool.h"

#include <stdlib.h>
#include <string.h>

#include "k8s/pod.h"

void apiq_strpool_init(apiq_strpool *p)
{
	memset(p, 0, sizeof(*p));
}

void apiq_strpool_free(apiq_strpool *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->strs[i]);
	free(p->strs);
	free(p->index);
	memset(p, 0, sizeof(*p));
}

static int rehash(apiq_strpool *p, size_t icap)
{
	uint32_t *idx = calloc(icap, sizeof(*idx));
	if (!idx)
		return -1;
	for (size_t id = 0; id < p->n; id++) {
		size_t j = pk_hash_str(p->strs[id]) & (icap - 1);
		while (idx[j])
			j = (j + 1) & (icap - 1);
		idx[j] = (uint32_t)id + 1;
	}
	free(p->index);
	p->index = idx;
	p->icap = icap;
	return 0;
}

uint64_t apiq_intern_id(apiq_strpool *p, const char *s)
{
	if (!s)
		s = "";
	if ((p->n + 1) * 2 > p->icap && rehash(p, p->icap ? p->icap * 2 : 64) < 0)
		return UINT64_MAX;
	size_t j = pk_hash_str(s) & (p->icap - 1);
	while (p->index[j]) {
		uint32_t id = p->index[j] - 1;
		if (strcmp(p->strs[id], s) == 0)
			return id;
		j = (j + 1) & (p->icap - 1);
	}
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 64;
		char **n = realloc(p->strs, cap * sizeof(*n));
		if (!n)
			return UINT64_MAX;
		p->strs = n;
		p->cap = cap;
	}
	char *copy = strdup(s);
	if (!copy)
		return UINT64_MAX;
	p->strs[p->n] = copy;
	p->index[j] = (uint32_t)p->n + 1;
	return p->n++;
}

const char *apiq_intern(apiq_strpool *p, const char *s)
{
	uint64_t id = apiq_intern_id(p, s);
	return id == UINT64_MAX ? NULL : p->strs[id];
}

const char *apiq_strpool_get(const apiq_strpool *p, uint64_t id)
{
	return id < p->n ? p->strs[id] : "";
}
