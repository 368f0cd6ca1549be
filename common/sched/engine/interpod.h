/* InterPodAffinity filter state for one incoming pod (required terms). */
#ifndef PK_SCHED_INTERPOD_H
#define PK_SCHED_INTERPOD_H

#include "sched/engine/engine.h"

/* PreFilter: counts over every bound pod of the snapshot. NULL when neither
 * the pod nor any bound pod has required (anti-)affinity: nothing to check. */
pk_interpod *pk_interpod_new(const pk_snapshot *s, const pk_pod *p);
void pk_interpod_free(pk_interpod *st);
/* AddPod (mult 1) / RemovePod (mult -1) of pod q on node n. */
void pk_interpod_update(pk_interpod *st, const pk_pod *q, const pk_node *n, int mult);
/* Filter on node n for pod (true when st was built for another pod); false
 * with *out set when it fails. */
bool pk_interpod_check(const pk_interpod *st, const pk_pod *pod, const pk_node *n, pk_status *out);

#endif
