/* (key, value) -> count over interned string pointers: the topology-pair
 * counters of InterPodAffinity and PodTopologySpread. Internal to sched/. */
#ifndef PK_SCHED_PAIRMAP_H
#define PK_SCHED_PAIRMAP_H

#include <stddef.h>

typedef struct pk_pair_map {
	const char **keys, **vals;
	long *counts;
	size_t cap, used;
	long nonzero;            /* entries with count != 0 */
} pk_pair_map;

void pk_pair_map_init(pk_pair_map *m);
void pk_pair_map_free(pk_pair_map *m);
/* Add d to (k, v), creating the entry; returns the new count. */
long pk_pair_map_add(pk_pair_map *m, const char *k, const char *v, long d);
long pk_pair_map_get(const pk_pair_map *m, const char *k, const char *v);
/* Is (k, v) present (even with count 0)? */
int pk_pair_map_has(const pk_pair_map *m, const char *k, const char *v);

#endif
