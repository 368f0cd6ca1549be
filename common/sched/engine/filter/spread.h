/* PodTopologySpread filter state for one incoming pod (DoNotSchedule
 * constraints). */
#ifndef PK_SCHED_SPREAD_H
#define PK_SCHED_SPREAD_H

#include "sched/engine/filter/filter.h"

/* PreFilter: matching pods per topology domain over the eligible nodes
 * (all constraint keys present; node affinity honoured, taints when asked).
 * NULL when the pod has no DoNotSchedule constraint. */
pk_spread_state *pk_spread_new(const pk_snapshot *s, const pk_pod *p);
void pk_spread_free(pk_spread_state *st);
/* AddPod (mult 1) / RemovePod (mult -1) of pod q on node n. */
void pk_spread_update(pk_spread_state *st, const pk_pod *q, const pk_node *n, int mult);
/* Filter on node n for pod (true when st was built for another pod); false
 * with *out set when it fails. */
bool pk_spread_check(const pk_spread_state *st, const pk_pod *pod, const pk_node *n, pk_status *out);

#endif
