/* A PodGroup decision's nodeResources (its plan: plan.c). */
#include "sched/engine/podgroup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/report/records.h"
#include "base/alloc.h"

cJSON *pk_pg_plan_nodes_json(const pk_snapshot *s, const pk_pg_evaluation *e)
{
	bool preempt = e->result == PK_PG_PREEMPT;
	if (!preempt && e->result != PK_PG_NO_PREEMPTION_NEEDED)
		return NULL;
	int n = e->nmembers ? e->nmembers : 1;
	const pk_pod **added = pk_xmalloc(sizeof *added * (size_t)n);
	const char **nodes = pk_xmalloc(sizeof *nodes * (size_t)n);
	int nadded = 0;
	for (int k = 0; k < e->nmembers; k++)
		if (e->placements[k].node) {
			added[nadded] = e->placements[k].pod;
			nodes[nadded++] = e->placements[k].node->node->name;
		}
	cJSON *o = pk_plan_nodes_json(s, (const pk_pod *const *)e->victims, preempt ? e->nvictims : 0, added, nodes,
	                              nadded);
	free(added);
	free(nodes);
	return o;
}
