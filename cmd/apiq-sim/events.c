/* The event heap; see events.h. */
#include "events.h"

#include <stdbool.h>
#include <stdlib.h>

#include "base/alloc.h"

static bool ev_less(const apiq_event *a, const apiq_event *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

void apiq_events_push(apiq_events *q, double t, int type, void *p)
{
	q->heap = pk_grow(q->heap, &q->cap, q->n + 1, sizeof *q->heap);
	size_t i = q->n++;
	apiq_event e = {t, q->seq++, type, p};
	while (i > 0 && ev_less(&e, &q->heap[(i - 1) / 2])) {
		q->heap[i] = q->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	q->heap[i] = e;
}

apiq_event apiq_events_pop(apiq_events *q)
{
	apiq_event top = q->heap[0], last = q->heap[--q->n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= q->n)
			break;
		if (c + 1 < q->n && ev_less(&q->heap[c + 1], &q->heap[c]))
			c++;
		if (!ev_less(&q->heap[c], &last))
			break;
		q->heap[i] = q->heap[c];
		i = c;
	}
	if (q->n)
		q->heap[i] = last;
	return top;
}

void apiq_events_free(apiq_events *q)
{
	free(q->heap);
	q->heap = NULL;
	q->n = q->cap = 0;
}
