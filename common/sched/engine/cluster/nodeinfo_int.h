/* A node's view changed by one pod: private to the snapshot (committed
 * changes: bind, delete, nominate) and the cycle (supposed ones). Nothing
 * else includes this header (test/surface.bats checks). */
#ifndef PK_SCHED_NODEINFO_INT_H
#define PK_SCHED_NODEINFO_INT_H

#include "sched/engine/cluster/snapshot.h"

/* Keep the node's importance order, its sums and its generation. */
void pk_nodeinfo_remove_pod(pk_nodeinfo *ni, const pk_pod *p);
void pk_nodeinfo_add_pod(pk_nodeinfo *ni, pk_pod *p);
void pk_nodeinfo_add_nominated(pk_nodeinfo *ni, pk_pod *p);
void pk_nodeinfo_remove_nominated(pk_nodeinfo *ni, const pk_pod *p);

#endif
