/* InterPodAffinity filter state for one incoming pod (required terms), and
 * the plugin's score. */
#ifndef PK_SCHED_INTERPOD_H
#define PK_SCHED_INTERPOD_H

#include "sched/engine/filter/filter.h"
#include "sched/engine/filter/pairmap.h"

/* PreFilter: counts over every bound pod of the snapshot. NULL when neither
 * the pod nor any bound pod has required (anti-)affinity: nothing to check. */
pk_interpod *pk_interpod_new(const pk_snapshot *s, const pk_pod *p);
void pk_interpod_free(pk_interpod *st);
/* AddPod (mult 1) / RemovePod (mult -1) of pod q on node n. */
void pk_interpod_update(pk_interpod *st, const pk_pod *q, const pk_node *n, int mult);
/* Filter on node n for pod (true when st was built for another pod); false
 * with *out set when it fails. */
bool pk_interpod_check(const pk_interpod *st, const pk_pod *pod, const pk_node *n, pk_status *out);

/* The weight of an existing pod's required affinity term that selects the
 * incoming pod (InterPodAffinityArgs.hardPodAffinityWeight, default 1). */
#define PK_HARD_POD_AFFINITY_WEIGHT 1

/* Does pod q's spec carry terms that score another pod (required pod
 * affinity, preferred pod affinity or anti-affinity): upstream's
 * PodsWithAffinity, less required anti-affinity, which does not score. */
bool pk_interpod_scores_others(const pk_pod *q);
/* PreScore: what existing pod q on node n adds to pairs (topology key,
 * value) -> weight for incoming pod p: p's preferred terms that select q
 * (+weight, anti-affinity -weight), q's required affinity terms that select
 * p (+PK_HARD_POD_AFFINITY_WEIGHT) and q's preferred terms that select p
 * (+/-weight). mine: also p's own terms (upstream processes every pod when
 * p has preferred terms, only PodsWithAffinity otherwise). */
void pk_interpod_score_pod(pk_pair_map *pairs, const pk_pod *p, const pk_pod *q, const pk_node *n, bool mine);
/* Score: the sum of pairs over the node's labels. */
int64_t pk_interpod_score_node(const pk_pair_map *pairs, const pk_node *n);

#endif
