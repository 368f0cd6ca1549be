/* PreFilter state of PodTopologySpread and InterPodAffinity, and its
 * AddPod/RemovePod updates (engine.h says who brackets what). */
#include "sched/engine/interpod.h"
#include "sched/engine/spread.h"
#include "sched/engine/preempt_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pk_prefilter_begin(pk_snapshot *s, const pk_pod *pod)
{
	pk_prefilter_end(s);
	s->interpod = pk_interpod_new(s, pod);
	s->spread = pk_spread_new(s, pod);
}

void pk_prefilter_end(pk_snapshot *s)
{
	pk_interpod_free(s->interpod);
	pk_spread_free(s->spread);
	s->interpod = NULL;
	s->spread = NULL;
}

void pk_prefilter_update(pk_snapshot *s, const pk_pod *q, const pk_node *n, int mult)
{
	pk_interpod_update(s->interpod, q, n, mult);
	pk_spread_update(s->spread, q, n, mult);
}
