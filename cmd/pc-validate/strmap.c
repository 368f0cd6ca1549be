#include "strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/pod.h"

void pcv_strmap_init(pcv_strmap *m)
{
	m->slots = NULL;
	m->cap = m->len = 0;
}

void pcv_strmap_free(pcv_strmap *m, void (*free_value)(void *))
{
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->slots[i].key)
			continue;
		free(m->slots[i].key);
		if (free_value && m->slots[i].value)
			free_value(m->slots[i].value);
	}
	free(m->slots);
	pcv_strmap_init(m);
}

static pcv_strmap_slot *find_slot(pcv_strmap_slot *slots, size_t cap, const char *key)
{
	size_t i = (size_t)(pk_hash_str(key) & (cap - 1));
	while (slots[i].key && strcmp(slots[i].key, key) != 0)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

void *pcv_strmap_get(const pcv_strmap *m, const char *key)
{
	if (!m->cap)
		return NULL;
	pcv_strmap_slot *s = find_slot(m->slots, m->cap, key);
	return s->key ? s->value : NULL;
}

static int grow(pcv_strmap *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 64;
	pcv_strmap_slot *ns = calloc(ncap, sizeof *ns);
	if (!ns)
		return -1;
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			*find_slot(ns, ncap, m->slots[i].key) = m->slots[i];
	free(m->slots);
	m->slots = ns;
	m->cap = ncap;
	return 0;
}

void *pcv_strmap_put(pcv_strmap *m, const char *key, void *value)
{
	/* keep the load factor under 1/2 */
	if ((m->len + 1) * 2 > m->cap && grow(m) != 0)
		return value;
	pcv_strmap_slot *s = find_slot(m->slots, m->cap, key);
	if (s->key) {
		void *old = s->value;
		s->value = value;
		return old;
	}
	s->key = strdup(key);
	if (!s->key)
		return value;
	s->value = value;
	m->len++;
	return NULL;
}

void pcv_names_init(pcv_names *s)
{
	s->v = NULL;
	s->n = s->cap = 0;
	pcv_strmap_init(&s->index);
}

void pcv_names_free(pcv_names *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	pcv_strmap_free(&s->index, NULL);
	pcv_names_init(s);
}

long pcv_names_intern(pcv_names *s, const char *name)
{
	if (s->n && strcmp(s->v[s->n - 1], name) == 0)
		return (long)s->n - 1;
	intptr_t known = (intptr_t)pcv_strmap_get(&s->index, name);
	if (known)
		return (long)known - 1;
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 16;
		char **nv = realloc(s->v, ncap * sizeof *nv);
		if (!nv)
			return -1;
		s->v = nv;
		s->cap = ncap;
	}
	s->v[s->n] = strdup(name);
	if (!s->v[s->n])
		return -1;
	if (pcv_strmap_put(&s->index, name, (void *)(intptr_t)(s->n + 1)) != NULL) {
		free(s->v[s->n]);  /* a new name: anything returned means no memory */
		return -1;
	}
	return (long)s->n++;
}
