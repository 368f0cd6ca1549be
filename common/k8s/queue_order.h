/* The scheduling queue's order, written once: kube-scheduler's activeQ pops
 * by the QueueSort plugin's Less (PrioritySort: the higher priority first,
 * then the earlier queue timestamp). The what-if simulator (sched/sim) and
 * apiq-sim's timed mode both order their queues with it. */
#ifndef PK_QUEUE_ORDER_H
#define PK_QUEUE_ORDER_H

#include <stdint.h>

typedef struct pk_queue_key {
	int64_t priority;
	int64_t timestamp_ns;     /* when it entered the queue */
	/* Ties broken by namespace, then name, so that the order is total;
	 * NULL where the queue has no names (a tie then compares equal). */
	const char *namespace_, *name;
} pk_queue_key;

/* < 0 when a is popped before b, > 0 when after, 0 for a tie. */
int pk_queue_order_cmp(const pk_queue_key *a, const pk_queue_key *b);

#endif
