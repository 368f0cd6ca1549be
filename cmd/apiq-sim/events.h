/* timed mode's events: a binary min-heap on (time, sequence), so that
 * events at the same simulated time run in the order they were scheduled.
 * (The engine's queue simulation keeps its queue as a sorted array, and
 * memo.c's heap orders node indices by candidate: neither is this one.)
 * Inline: a run pushes and pops a dozen events per pod. */
#ifndef APIQ_EVENTS_H
#define APIQ_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/alloc.h"

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

static inline bool apiq_event_before(const apiq_event *a, const apiq_event *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static inline void apiq_events_push(apiq_events *q, double t, int type, void *p)
{
	q->heap = pk_grow(q->heap, &q->cap, q->n + 1, sizeof *q->heap);
	size_t i = q->n++;
	apiq_event e = {t, q->seq++, type, p};
	while (i > 0 && apiq_event_before(&e, &q->heap[(i - 1) / 2])) {
		q->heap[i] = q->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	q->heap[i] = e;
}

/* The earliest event (q->n > 0). */
static inline apiq_event apiq_events_pop(apiq_events *q)
{
	apiq_event top = q->heap[0], last = q->heap[--q->n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= q->n)
			break;
		if (c + 1 < q->n && apiq_event_before(&q->heap[c + 1], &q->heap[c]))
			c++;
		if (!apiq_event_before(&q->heap[c], &last))
			break;
		q->heap[i] = q->heap[c];
		i = c;
	}
	if (q->n)
		q->heap[i] = last;
	return top;
}

static inline void apiq_events_free(apiq_events *q)
{
	free(q->heap);
	q->heap = NULL;
	q->n = q->cap = 0;
}

#endif
