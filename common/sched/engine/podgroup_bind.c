/* Playing a PodGroup decision forward in the snapshot: victims leave their
 * nodes, members are bound or nominated. */
#include "sched/engine/podgroup.h"

static void clear_nomination(pk_snapshot *s, pk_pod *p)
{
	pk_nodeinfo *old = pk_snapshot_node(s, p->nominated_node);
	if (old)
		pk_nodeinfo_remove_nominated(old, p);
	p->nominated_node = pk_intern(s->strs, "");
}

void pk_pg_apply(pk_snapshot *s, const pk_pg_evaluation *e)
{
	if (e->result == PK_PG_PREEMPT)
		for (int i = 0; i < e->nvictims; i++) {
			pk_nodeinfo *ni = pk_snapshot_node(s, e->victims[i]->node_name);
			if (ni)
				pk_nodeinfo_remove_pod(ni, e->victims[i]);
		}
	if (e->result != PK_PG_PREEMPT && e->result != PK_PG_NO_PREEMPTION_NEEDED)
		return;
	for (int k = 0; k < e->nmembers; k++) {
		const pk_pg_placement *pl = &e->placements[k];
		if (!pl->node)
			continue;
		pk_pod *p = pl->pod;
		pk_nodeinfo *ni = pk_snapshot_node(s, pl->node->node->name);
		clear_nomination(s, p);
		if (e->result == PK_PG_NO_PREEMPTION_NEEDED) {
			p->node_name = ni->node->name;
			pk_nodeinfo_add_pod(ni, p);
		} else {
			/* Delayed preemption: the members wait for their victims to go;
			 * their intended nodes are held for them like nominations. */
			p->nominated_node = ni->node->name;
			pk_nodeinfo_add_nominated(ni, p);
		}
	}
}
