/* timed mode's events: a binary min-heap on (time, sequence), so that
 * events at the same simulated time run in the order they were scheduled.
 * (The engine's queue simulation keeps its queue as a sorted array, and
 * memo.c's heap orders node indices by candidate: neither is this one.) */
#ifndef APIQ_EVENTS_H
#define APIQ_EVENTS_H

#include <stddef.h>
#include <stdint.h>

typedef struct apiq_event {
	double t;
	uint64_t seq;
	int type;
	void *p;
} apiq_event;

typedef struct apiq_events {
	apiq_event *heap;
	size_t n, cap;
	uint64_t seq;     /* of the next event scheduled */
} apiq_events;

void apiq_events_push(apiq_events *q, double t, int type, void *p);
/* The earliest event (q->n > 0). */
apiq_event apiq_events_pop(apiq_events *q);
void apiq_events_free(apiq_events *q);

#endif
