/* Victim units (a pod, or a PodGroup evicted whole): their importance
 * order, the split into those whose eviction would violate a PDB and the
 * rest, and the reprieve that gives back every unit the preemptor can do
 * without (SelectVictimsOnNode's second half). */
#include "sched/engine/cluster/podgroup.h"
#include "sched/engine/preempt/preempt_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

/* ---- victim units ---------------------------------------------------------- */

int pk_unit_importance_cmp(const pk_victim_unit *a, const pk_victim_unit *b, int64_t now)
{
	if (!a->is_group && !b->is_group && a->npods == 1 && b->npods == 1)
		return pk_pod_importance_cmp(a->pods[0], b->pods[0], now);
	if (a->priority != b->priority)
		return a->priority > b->priority ? -1 : 1;
	if (a->is_group != b->is_group)
		return a->is_group ? -1 : 1;
	if (a->is_composite != b->is_composite) /* victimRank: CompositePodGroup 3, PodGroup 2 */
		return a->is_composite ? -1 : 1;
	if (a->is_group && a->npods != b->npods)
		return a->npods > b->npods ? -1 : 1;
	if (a->earliest_start != b->earliest_start)
		return a->earliest_start < b->earliest_start ? -1 : 1;
	int c = strcmp(a->pods[0]->namespace_, b->pods[0]->namespace_);
	return c ? c : strcmp(a->pods[0]->name, b->pods[0]->name);
}

/* Insertion-free merge sort keeps this stable and context-carrying. */
static void units_merge_sort(pk_victim_unit *u, pk_victim_unit *tmp, int n, int64_t now)
{
	if (n < 2)
		return;
	int h = n / 2;
	units_merge_sort(u, tmp, h, now);
	units_merge_sort(u + h, tmp, n - h, now);
	int i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = pk_unit_importance_cmp(&u[j], &u[i], now) < 0 ? u[j++] : u[i++];
	while (i < h)
		tmp[k++] = u[i++];
	while (j < n)
		tmp[k++] = u[j++];
	memcpy(u, tmp, sizeof *u * (size_t)n);
}

void pk_units_sort(pk_victim_unit *u, int n, int64_t now)
{
	if (n < 2)
		return;
	/* a node keeps its pods in importance order, so the victims usually
	 * arrive sorted: one pass says so */
	int sorted = 1;
	for (int i = 1; i < n && sorted; i++)
		sorted = pk_unit_importance_cmp(&u[i - 1], &u[i], now) <= 0;
	if (sorted)
		return;
	pk_victim_unit small[64];
	pk_victim_unit *tmp = n <= 64 ? small : pk_xmalloc(sizeof *tmp * (size_t)n);
	units_merge_sort(u, tmp, n, now);
	if (tmp != small)
		free(tmp);
}

int32_t *pk_budget_spill(budget *b, const pk_snapshot *s, int i)
{
	b->all = pk_xmalloc(sizeof *b->all * (size_t)s->npdbs);
	for (int k = 0; k < s->npdbs; k++)
		b->all[k] = s->pdbs[k].disruptions_allowed;
	for (int k = 0; k < b->n; k++)
		b->all[b->idx[k]] = b->left[k];
	return &b->all[i];
}

void pk_units_pdb_split(const pk_snapshot *s, pk_victim_unit *u, int n)
{
	budget b;
	b.n = 0;
	b.all = NULL;
	for (int k = 0; k < n; k++) {
		u[k].violating_pods = 0;
		for (int m = 0; m < u[k].npods; m++) {
			pk_pod *p = u[k].pods[m];
			bool violates = false;
			if (p->npdbs < 0)
				pk_pod_match_pdbs(s, p);
			if (p->npdbs <= PK_POD_MAX_PDBS) {
				for (int j = 0; j < p->npdbs; j++) {
					const pk_pdb *pdb = &s->pdbs[p->pdbs[j]];
					if (!pk_pdb_skips_pod(pdb, p) && --*pk_budget_of(&b, s, p->pdbs[j]) < 0)
						violates = true;
				}
			} else {
				for (int i = 0; i < s->npdbs; i++) {
					const pk_pdb *pdb = &s->pdbs[i];
					if (pk_pdb_matches(pdb, p) && !pk_pdb_skips_pod(pdb, p) && --*pk_budget_of(&b, s, i) < 0)
						violates = true;
				}
			}
			u[k].violating_pods += violates;
		}
		u[k].violating = u[k].violating_pods > 0;
	}
	free(b.all);
}

static int reprieve_group(pk_victim_unit *u, int n, bool violating, pk_fit_fn fits,
                          pk_unit_apply_fn apply, void *ctx, int *victims_out, int nv, int *violations)
{
	for (int k = 0; k < n; k++) {
		if (u[k].violating != violating)
			continue;
		apply(ctx, &u[k], true);
		if (fits(ctx))
			continue;
		apply(ctx, &u[k], false);
		victims_out[nv++] = k;
		if (violating)
			(*violations)++;
	}
	return nv;
}

int pk_units_reprieve(pk_victim_unit *u, int n, pk_fit_fn fits, pk_unit_apply_fn apply, void *ctx,
                      int *victims_out, int *violations)
{
	*violations = 0;
	int nv = reprieve_group(u, n, true, fits, apply, ctx, victims_out, 0, violations);
	return reprieve_group(u, n, false, fits, apply, ctx, victims_out, nv, violations);
}

/* The group a victim unit disrupts: the one evicted whole, else the
 * PodGroup its pod names (found or not). */
static pk_group_disruption disruption_of(const pk_pg_set *g, const pk_victim_unit *u)
{
	const pk_pod *p = u->pods[0];
	const pk_podgroup *whole = pk_pg_whole_group(g, p);
	const pk_podgroup *pg = whole ? whole : pk_pg_of_pod(g, p);
	pk_group_disruption d = { .whole = whole != NULL, .units = 1, .pods = u->npods };
	d.namespace_ = pg ? pg->namespace_ : p->namespace_;
	d.name = pg ? pg->name : g->pod_group_name[p->index];
	d.composite = pg && pg->composite;
	return d;
}

int pk_pg_disruptions(const pk_pg_set *g, const pk_victim_unit *u, int n, pk_group_disruption *d, int *nout)
{
	int units = 0, nd = 0;
	for (int i = 0; i < n; i++) {
		if (!u[i].is_group)
			continue;
		units++;
		pk_group_disruption x = disruption_of(g, &u[i]);
		int k = 0; /* names are interned: their addresses compare */
		while (k < nd && !(d[k].name == x.name && d[k].namespace_ == x.namespace_ && d[k].whole == x.whole))
			k++;
		if (k == nd) {
			d[nd++] = x;
		} else {
			d[k].units++;
			d[k].pods += x.pods;
		}
	}
	*nout = nd;
	return units;
}
