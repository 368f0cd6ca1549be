/* The scheduling queue's order; see queue_order.h. */
#include "k8s/queue_order.h"

#include <string.h>

static int cmp_names(const char *a, const char *b)
{
	if (!a || !b)
		return 0;
	return strcmp(a, b);
}

int pk_queue_order_cmp(const pk_queue_key *a, const pk_queue_key *b)
{
	if (a->priority != b->priority)
		return a->priority > b->priority ? -1 : 1;
	if (a->timestamp_ns != b->timestamp_ns)
		return a->timestamp_ns < b->timestamp_ns ? -1 : 1;
	int c = cmp_names(a->namespace_, b->namespace_);
	return c ? c : cmp_names(a->name, b->name);
}
