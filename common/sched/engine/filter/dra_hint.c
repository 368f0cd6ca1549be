/* The `kubectl get` an input lacks for DynamicResources (dra.h). */
#include "sched/engine/filter/dra.h"

#include <stdio.h>

#include "k8s/dra.h"

bool pk_dra_input_has_objects(const pk_snapshot *s)
{
	return s->dra && (s->dra->nclaims || s->dra->nclasses || s->dra->nslices || s->dra->ntemplates);
}

bool pk_dra_input_hint(const pk_snapshot *s, pk_pod *const *pods, long n, char *buf, size_t size)
{
	long with = 0;
	const pk_pod *first = NULL;
	for (long i = 0; i < n; i++)
		if (pods[i]->con->dra) {
			with++;
			first = first ? first : pods[i];
		}
	if (pk_dra_input_has_objects(s))
		return pk_dra_taint_rules_hint(s, with > 0, buf, size); /* dra_slices.c */
	if (!with)
		return false;
	snprintf(buf, size,
	         "%ld pod(s) use resourceClaims (first: %s/%s) and the input holds no DRA object: DynamicResources is "
	         "not run for them, where upstream allocates their devices; take the snapshot with "
	         "`kubectl get resourceclaims,resourceclaimtemplates,deviceclasses,resourceslices -A -o json` beside "
	         "the usual kinds",
	         with, first->namespace_, first->name);
	return true;
}
