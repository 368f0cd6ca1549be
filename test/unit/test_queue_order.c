/* The scheduling queue's order, written once (k8s/queue_order.h): cases
 * after kubernetes pkg/scheduler/framework/plugins/queuesort/
 * priority_sort_test.go (TestLess), then the namespace/name tie-break that
 * makes the simulator's order total. */
#include "t.h"
#include "k8s/queue_order.h"

#include <stdbool.h>

static bool less(pk_queue_key a, pk_queue_key b)
{
	return pk_queue_order_cmp(&a, &b) < 0;
}

int main(void)
{
	const int64_t t1 = 1000000000, t2 = 2000000000; /* t1 before t2 */
	/* TestLess */
	CHECK(!less((pk_queue_key){ .priority = 1, .timestamp_ns = t1 }, (pk_queue_key){ .priority = 2, .timestamp_ns = t2 }),
	      "p1.priority less than p2.priority: p2 first");
	CHECK(less((pk_queue_key){ .priority = 2, .timestamp_ns = t1 }, (pk_queue_key){ .priority = 1, .timestamp_ns = t2 }),
	      "p1.priority greater than p2.priority: p1 first");
	CHECK(less((pk_queue_key){ .priority = 2, .timestamp_ns = t1 }, (pk_queue_key){ .priority = 2, .timestamp_ns = t2 }),
	      "equal priority, p1 added to the queue earlier: p1 first");
	CHECK(!less((pk_queue_key){ .priority = 2, .timestamp_ns = t2 }, (pk_queue_key){ .priority = 2, .timestamp_ns = t1 }),
	      "equal priority, p2 added to the queue earlier: p2 first");
	/* a higher priority wins whatever the timestamps */
	CHECK(less((pk_queue_key){ .priority = 5, .timestamp_ns = t2 }, (pk_queue_key){ .priority = -5, .timestamp_ns = t1 }),
	      "priority before time, negative priorities too");
	/* ties: namespace, then name; none without names */
	pk_queue_key a = { 2, t1, "a", "z" }, b = { 2, t1, "b", "a" }, c = { 2, t1, "a", "y" };
	CHECK(pk_queue_order_cmp(&a, &b) < 0 && pk_queue_order_cmp(&b, &a) > 0, "a tie: the namespace first");
	CHECK(pk_queue_order_cmp(&c, &a) < 0, "same namespace: the name");
	CHECK(pk_queue_order_cmp(&a, &a) == 0, "the same key: equal");
	pk_queue_key n1 = { 2, t1, NULL, NULL }, n2 = { 2, t1, NULL, NULL };
	CHECK(pk_queue_order_cmp(&n1, &n2) == 0, "no names: a tie");
	return T_DONE();
}
