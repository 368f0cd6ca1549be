/* Namespaces and their labels; see namespace.h. */
#include "namespace.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/hash.h"
#include "json.h"
#include "pod.h"

#define METADATA_NAME "kubernetes.io/metadata.name"

void pk_ns_set_init(pk_ns_set *s, pk_strtab *strs)
{
	memset(s, 0, sizeof *s);
	s->strs = strs;
}

void pk_ns_set_free(pk_ns_set *s)
{
	free(s->names);
	free(s->labels);
	memset(s, 0, sizeof *s);
}

/* The slot of ns (interned), free or holding it. */
static size_t slot_of(const pk_ns_set *s, const char *ns)
{
	size_t j = (size_t)pk_hash_ptr(ns) & (s->cap - 1);
	while (s->names[j] && s->names[j] != ns)
		j = (j + 1) & (s->cap - 1);
	return j;
}

static void grow(pk_ns_set *s)
{
	size_t old = s->cap;
	const char **names = s->names;
	const pk_labels **labels = s->labels;
	s->cap = old ? 2 * old : 16;
	s->names = pk_xcalloc(s->cap, sizeof *s->names);
	s->labels = pk_xcalloc(s->cap, sizeof *s->labels);
	for (size_t i = 0; i < old; i++)
		if (names[i]) {
			size_t j = slot_of(s, names[i]);
			s->names[j] = names[i];
			s->labels[j] = labels[i];
		}
	free(names);
	free(labels);
}

static void put(pk_ns_set *s, const char *ns, const pk_labels *labels)
{
	if (2 * (s->n + 1) > s->cap)
		grow(s);
	size_t j = slot_of(s, ns);
	if (!s->names[j])
		s->n++;
	s->names[j] = ns;
	s->labels[j] = labels;
}

void pk_ns_set_add(pk_ns_set *s, const cJSON *obj)
{
	const char *name = pk_str(pk_get(obj, "metadata"), "name");
	if (!name || !*name)
		return;
	if (s->objects++ == 0 && s->cap) {
		/* the assumed labels give way to the objects read */
		memset(s->names, 0, sizeof *s->names * s->cap);
		s->n = 0;
	}
	put(s, pk_intern(s->strs, name), pk_intern_labels(s->strs, pk_getp(obj, "metadata.labels")));
}

void pk_ns_set_note(pk_ns_set *s, const char *ns)
{
	if (s->objects || (s->cap && s->names[slot_of(s, ns)]))
		return;
	cJSON *labels = cJSON_CreateObject();
	cJSON_AddStringToObject(labels, METADATA_NAME, ns);
	put(s, ns, pk_intern_labels(s->strs, labels));
	cJSON_Delete(labels);
}

bool pk_ns_matches(const pk_ns_set *s, const pk_selector *sel, const char *ns)
{
	const pk_labels *labels = NULL;
	if (s->cap) {
		size_t j = slot_of(s, ns);
		labels = s->names[j] ? s->labels[j] : NULL;
	}
	return pk_selector_matches_labels(sel, labels);
}

const char *pk_ns_assumption(const pk_ns_set *s)
{
	if (!s->selectors || s->objects)
		return NULL;
	return "pods have pod (anti-)affinity terms with a namespaceSelector and the input holds no Namespace "
	       "objects: each namespace is taken to carry only the label the apiserver gives every namespace, "
	       "kubernetes.io/metadata.name=<its name>, where upstream matches the selector against the namespaces' "
	       "labels in the cluster; take the snapshot with "
	       "`kubectl get nodes,pods,pdb,priorityclasses,pvc,pv,storageclass,csinodes,namespaces -A -o json`";
}
