/* Playing a PodGroup decision forward in the snapshot: victims leave their
 * nodes, members are bound or nominated, all through the snapshot's one
 * bind path (pk_snapshot_delete, _bind, _nominate). */
#include "sched/engine/podgroup.h"

void pk_pg_apply(pk_snapshot *s, const pk_pg_evaluation *e)
{
	if (e->result == PK_PG_PREEMPT)
		for (int i = 0; i < e->nvictims; i++)
			pk_snapshot_delete(s, e->victims[i]);
	if (e->result != PK_PG_PREEMPT && e->result != PK_PG_NO_PREEMPTION_NEEDED)
		return;
	for (int k = 0; k < e->nmembers; k++) {
		const pk_pg_placement *pl = &e->placements[k];
		if (!pl->node)
			continue;
		if (e->result == PK_PG_NO_PREEMPTION_NEEDED)
			pk_snapshot_bind(s, pl->pod, pl->node->node->name);
		else /* delayed preemption: the members wait for their victims to
		      * go, their intended nodes held for them like nominations */
			pk_snapshot_nominate(s, pl->pod, pl->node->node->name);
	}
}
