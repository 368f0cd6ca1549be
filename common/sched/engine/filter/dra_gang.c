/* DynamicResources' Reserve and Unreserve for the members of a pod group
 * within one scheduling cycle, and the devices each member then gets
 * (dra.h). An assumption allocates the member's claims in the set itself
 * (the held-device index with them) and is taken back last in, first out,
 * as the group's cycle removes its members; the cycle is single-threaded. */
#include "sched/engine/filter/dra_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "k8s/dra.h"

/* One member's assumption: the claims its Reserve allocated. */
typedef struct assumption {
	const pk_pod *pod;
	pk_dra_claim **claims;
	int nclaims;
} assumption;

struct pk_dra_assumed {
	assumption *v;
	int n, cap;
};

pk_dra_assumed *pk_dra_assumed_new(void)
{
	return pk_xcalloc(1, sizeof(pk_dra_assumed));
}

void pk_dra_assume(pk_snapshot *s, pk_dra_assumed *a, const pk_pod *pod, const pk_node *n)
{
	if (!a || !s->dra || !pod->con->dra)
		return;
	pk_dra_claim **claims;
	bool *fresh;
	int nc = pk_dra_allocate_on(s, pod, n, &claims, &fresh);
	int k = 0;
	for (int i = 0; i < nc; i++)
		if (fresh[i])
			claims[k++] = claims[i];
	free(fresh);
	if (k == 0) { /* nothing allocated: nothing to take back */
		free(claims);
		return;
	}
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 8;
		a->v = pk_xrealloc(a->v, (size_t)a->cap, sizeof *a->v);
	}
	a->v[a->n++] = (assumption){ pod, claims, k };
}

void pk_dra_forget(pk_snapshot *s, pk_dra_assumed *a, const pk_pod *pod)
{
	for (int i = a ? a->n - 1 : -1; i >= 0; i--) {
		if (a->v[i].pod != pod)
			continue;
		for (int j = a->v[i].nclaims - 1; j >= 0; j--)
			pk_dra_claim_deallocate(s->dra, a->v[i].claims[j]);
		free(a->v[i].claims);
		memmove(&a->v[i], &a->v[i + 1], sizeof *a->v * (size_t)(a->n - i - 1));
		a->n--;
		return;
	}
}

void pk_dra_assumed_free(pk_snapshot *s, pk_dra_assumed *a)
{
	if (!a)
		return;
	while (a->n > 0)
		pk_dra_forget(s, a, a->v[a->n - 1].pod);
	free(a->v);
	free(a);
}

static bool same_claim(const pk_dra_pick *x, const pk_dra_claim *c)
{
	return strcmp(x->claim_name, c->name) == 0 && strcmp(x->claim_namespace, c->namespace_) == 0;
}

static bool same_claims(const pk_dra_pick *x, const pk_dra_pick *y)
{
	return strcmp(x->claim_name, y->claim_name) == 0 && strcmp(x->claim_namespace, y->claim_namespace) == 0;
}

/* Was the claim of pick allocated by one of a's assumptions (in this cycle)? */
static bool allocated_here(const pk_dra_assumed *a, const pk_dra_pick *pick)
{
	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < a->v[i].nclaims; j++)
			if (same_claim(pick, a->v[i].claims[j]))
				return true;
	return false;
}

/* Does a pod other than i use the claim of pick? */
static bool used_by_another(pk_dra_pick **out, const int *nout, int n, int i, const pk_dra_pick *pick)
{
	for (int j = 0; j < n; j++)
		for (int k = 0; j != i && k < nout[j]; k++)
			if (same_claims(pick, &out[j][k]))
				return true;
	return false;
}

void pk_dra_devices_in_order(pk_snapshot *s, pk_pod *const *pods, const pk_node *const *nodes, int n,
                             pk_dra_pick **out, int *nout)
{
	pk_dra_assumed *a = pk_dra_assumed_new();
	for (int i = 0; i < n; i++) {
		out[i] = NULL;
		nout[i] = 0;
		if (!nodes[i] || !s->dra || !pods[i]->con->dra)
			continue;
		nout[i] = pk_dra_devices_on(s, pods[i], nodes[i], &out[i]);
		pk_dra_assume(s, a, pods[i], nodes[i]);
	}
	for (int i = 0; i < n; i++)
		for (int k = 0; k < nout[i]; k++) {
			pk_dra_pick *d = &out[i][k];
			if (d->allocated_before && allocated_here(a, d))
				d->allocated_before = false; /* by an earlier member, in this cycle */
			d->group_shared = used_by_another(out, nout, n, i, d);
		}
	pk_dra_assumed_free(s, a);
}
