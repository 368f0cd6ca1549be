/* Namespaces and their labels, for the namespaceSelector of pod
 * (anti-)affinity terms: the Namespace objects of the input (`kubectl get
 * namespaces`), and, when the input holds none, the one label the
 * apiserver gives every namespace (kubernetes.io/metadata.name), assumed
 * and said (pk_ns_assumption).
 *
 * Upstream (interpodaffinity, framework/types.go AffinityTerm.Matches): a
 * term selects a pod in namespace N when N is among the term's namespaces
 * or N's labels match the term's namespaceSelector; the labels of a
 * namespace the scheduler's lister does not know are empty. */
#ifndef PK_K8S_NAMESPACE_H
#define PK_K8S_NAMESPACE_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>
#include "base/strtab.h"
#include "selector.h"

typedef struct pk_ns_set {
	pk_strtab *strs;
	const char **names;       /* interned; open addressing, cap a power of two */
	const pk_labels **labels;
	size_t cap, n;
	long objects;             /* Namespace objects read */
	bool selectors;           /* some pod term has a non-empty namespaceSelector */
} pk_ns_set;

void pk_ns_set_init(pk_ns_set *s, pk_strtab *strs);
void pk_ns_set_free(pk_ns_set *s);
/* A Namespace object: its name and labels (the last one read of a name wins). */
void pk_ns_set_add(pk_ns_set *s, const cJSON *obj);
/* Make namespace ns (interned) known: with no Namespace object in the input,
 * it is assumed to carry kubernetes.io/metadata.name=ns alone. Not while
 * another thread matches. */
void pk_ns_set_note(pk_ns_set *s, const char *ns);
/* Do the labels of namespace ns (interned) match sel? A namespace not
 * known has no labels, as upstream's lister miss gives. */
bool pk_ns_matches(const pk_ns_set *s, const pk_selector *sel, const char *ns);
/* The assumption an answer rests on when pods have namespaceSelector terms
 * and the input holds no Namespace objects (NULL otherwise): what was
 * assumed, what upstream does instead, the kubectl get that belongs in the
 * input. */
const char *pk_ns_assumption(const pk_ns_set *s);

#endif
