/* The dispatcher's call queue; see queue.h. Rules follow upstream's
 * callQueue: skip a less relevant call, overwrite a call of another type,
 * merge a call of the same type, drop no-ops unless the object is in flight,
 * keep the object's FIFO slot on merge/overwrite, re-queue at the tail when
 * a newer call arrived while one was in flight. */
#include "queue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/hash.h"

void apiq_queue_init(apiq_queue *q, const apiq_hooks *h)
{
	memset(q, 0, sizeof(*q));
	q->h = *h;
	q->cap = 64;
	q->slots = pk_xcalloc(q->cap, sizeof(*q->slots));
	q->rcap = 64;
	q->ring = pk_xcalloc(q->rcap, sizeof(*q->ring));
}

void apiq_call_ref(apiq_call *c)
{
	c->refs++;
}

void apiq_call_unref(apiq_queue *q, apiq_call *c)
{
	if (--c->refs == 0 && q->h.release)
		q->h.release(q->h.ctx, c);
}

void apiq_queue_free(apiq_queue *q)
{
	for (size_t i = 0; i < q->cap; i++)
		if (q->slots[i].used)
			apiq_call_unref(q, q->slots[i].call);
	free(q->slots);
	free(q->ring);
	q->slots = NULL;
	q->ring = NULL;
}

/* ---- map ---- */

static size_t slot_index(const apiq_queue *q, uint64_t obj, bool *found)
{
	size_t mask = q->cap - 1, i = pk_hash_u64(obj) & mask;
	while (q->slots[i].used) {
		if (q->slots[i].obj == obj) {
			*found = true;
			return i;
		}
		i = (i + 1) & mask;
	}
	*found = false;
	return i;
}

static void map_grow(apiq_queue *q)
{
	size_t oldcap = q->cap;
	apiq_slot *old = q->slots;
	apiq_slot *n = pk_xcalloc(oldcap * 2, sizeof(*n));
	q->slots = n;
	q->cap = oldcap * 2;
	for (size_t i = 0; i < oldcap; i++) {
		if (!old[i].used)
			continue;
		bool found;
		size_t j = slot_index(q, old[i].obj, &found);
		q->slots[j] = old[i];
	}
	free(old);
}

static apiq_slot *map_find(const apiq_queue *q, uint64_t obj)
{
	bool found;
	size_t i = slot_index(q, obj, &found);
	return found ? &q->slots[i] : NULL;
}

/* Insert or replace. */
static void map_put(apiq_queue *q, uint64_t obj, apiq_call *c)
{
	if ((q->len + 1) * 4 > q->cap * 3)
		map_grow(q);
	bool found;
	size_t i = slot_index(q, obj, &found);
	apiq_slot *s = &q->slots[i];
	if (!found) {
		s->used = true;
		s->obj = obj;
		s->in_flight = false;
		q->len++;
	}
	s->call = c;
}

/* Backward-shift deletion keeps probe chains intact without tombstones. */
static void map_delete(apiq_queue *q, apiq_slot *s)
{
	size_t mask = q->cap - 1, i = (size_t)(s - q->slots), j = i;
	if (s->in_flight)
		q->nflight--;
	q->slots[i].used = false;
	q->len--;
	for (;;) {
		j = (j + 1) & mask;
		if (!q->slots[j].used)
			return;
		size_t home = pk_hash_u64(q->slots[j].obj) & mask;
		/* can the entry at j move to the hole at i? */
		bool movable = (j > i) ? (home <= i || home > j) : (home <= i && home > j);
		if (movable) {
			q->slots[i] = q->slots[j];
			q->slots[j].used = false;
			i = j;
		}
	}
}

/* ---- fifo ---- */

static void fifo_push(apiq_queue *q, uint64_t obj)
{
	if (q->rlen == q->rcap) {  /* unrolled into a ring twice the size */
		uint64_t *n = pk_xcalloc(q->rcap * 2, sizeof(*n));
		for (size_t i = 0; i < q->rlen; i++)
			n[i] = q->ring[(q->rhead + i) % q->rcap];
		free(q->ring);
		q->ring = n;
		q->rhead = 0;
		q->rcap *= 2;
	}
	q->ring[(q->rhead + q->rlen) % q->rcap] = obj;
	q->rlen++;
}

static uint64_t fifo_pop(apiq_queue *q)
{
	uint64_t obj = q->ring[q->rhead];
	q->rhead = (q->rhead + 1) % q->rcap;
	q->rlen--;
	return obj;
}

/* Remove one object, keeping the order of the others (upstream rebuilds the
 * ring the same way). */
static void fifo_remove(apiq_queue *q, uint64_t obj)
{
	size_t w = 0;
	for (size_t r = 0; r < q->rlen; r++) {
		uint64_t v = q->ring[(q->rhead + r) % q->rcap];
		if (v != obj)
			q->ring[(q->rhead + w++) % q->rcap] = v;
	}
	q->rlen = w;
}

size_t apiq_queue_fifo_len(const apiq_queue *q)
{
	return q->rlen;
}

uint64_t apiq_queue_fifo_at(const apiq_queue *q, size_t i)
{
	return q->ring[(q->rhead + i) % q->rcap];
}

const apiq_slot *apiq_queue_next_slot(const apiq_queue *q, size_t *pos)
{
	for (; *pos < q->cap; (*pos)++)
		if (q->slots[*pos].used)
			return &q->slots[(*pos)++];
	return NULL;
}

/* ---- operations ---- */

static void finish(apiq_queue *q, apiq_call *c, apiq_fin fin, const char *msg)
{
	if (q->h.finish)
		q->h.finish(q->h.ctx, c, fin, msg);
}

/* Pending call removed because it became a no-op (removePending). The gauge
 * is decremented for the type of the call still in the map, as upstream. */
static void remove_pending(apiq_queue *q, apiq_slot *s)
{
	apiq_call *old = s->call;
	bool in_flight = s->in_flight;
	uint64_t obj = s->obj;
	map_delete(q, s);
	if (!in_flight) {
		fifo_remove(q, obj);
		q->pending[old->type]--;
	}
	apiq_call_unref(q, old);
}

/* Reconcile with the existing call; 0 = go on to enqueue. */
static int reconcile(apiq_queue *q, apiq_slot *s, apiq_call *c, apiq_add_result *res,
                     char *msg, size_t msgsize)
{
	apiq_call *old = s->call;
	if (q->h.relevance(q->h.ctx, c->type) < q->h.relevance(q->h.ctx, old->type)) {
		snprintf(msg, msgsize, "a more relevant call is already enqueued for this object: %s",
		         "call skipped");
		finish(q, c, APIQ_FIN_SKIPPED, msg);
		*res = APIQ_ADD_SKIPPED;
		return -1;
	}
	if (old->type != c->type) {
		if (!s->in_flight) {
			q->pending[old->type]--;
			q->pending[c->type]++;
		}
		finish(q, old, APIQ_FIN_OVERWRITTEN,
		       "a more relevant call was enqueued for this object: call overwritten");
		return 0;
	}
	char err[256] = "";
	if (q->h.merge && q->h.merge(q->h.ctx, c, old, err, sizeof(err)) < 0) {
		snprintf(msg, msgsize, "failed to merge API calls: %s", err);
		finish(q, c, APIQ_FIN_ERROR, msg);
		*res = APIQ_ADD_MERGE_FAILED;
		return -1;
	}
	finish(q, old, APIQ_FIN_OVERWRITTEN,
	       "a call of the same type was enqueued for this object: call overwritten");
	return 0;
}

apiq_add_result apiq_queue_add(apiq_queue *q, apiq_call *c, char *msg, size_t msgsize)
{
	apiq_add_result res = APIQ_ADD_OK;
	if (msgsize)
		msg[0] = '\0';
	c->id = q->next_id++;
	apiq_slot *s = map_find(q, c->obj);
	if (s && reconcile(q, s, c, &res, msg, msgsize) < 0)
		return res;
	bool noop = q->h.is_noop ? q->h.is_noop(q->h.ctx, c) : false;
	if (noop && !(s && s->in_flight)) {
		if (s)
			remove_pending(q, s);
		snprintf(msg, msgsize, "call does not need to be executed because it has no effect: %s",
		         "call skipped");
		finish(q, c, APIQ_FIN_SKIPPED, msg);
		return APIQ_ADD_SKIPPED;
	}
	apiq_call *old = s ? s->call : NULL;
	apiq_call_ref(c);
	map_put(q, c->obj, c);
	if (old) {
		apiq_call_unref(q, old);
		return APIQ_ADD_OK;
	}
	fifo_push(q, c->obj);
	q->pending[c->type]++;
	return APIQ_ADD_OK;
}

apiq_call *apiq_queue_pop(apiq_queue *q)
{
	if (q->rlen == 0)
		return NULL;
	uint64_t obj = fifo_pop(q);
	apiq_slot *s = map_find(q, obj);
	if (!s)  /* upstream logs "not present in a map" and goes on */
		return NULL;
	s->in_flight = true;
	q->nflight++;
	q->pending[s->call->type]--;
	apiq_call_ref(s->call);
	return s->call;
}

void apiq_queue_finalize(apiq_queue *q, apiq_call *c)
{
	apiq_slot *s = map_find(q, c->obj);
	if (!s)
		return;
	if (s->call->id == c->id) {
		map_delete(q, s);
		apiq_call_unref(q, c);
		return;
	}
	s->in_flight = false;
	q->nflight--;
	fifo_push(q, c->obj);
	q->pending[s->call->type]++;
}

apiq_call *apiq_queue_lookup(const apiq_queue *q, uint64_t obj)
{
	apiq_slot *s = map_find(q, obj);
	return s ? s->call : NULL;
}

bool apiq_queue_in_flight(const apiq_queue *q, uint64_t obj)
{
	apiq_slot *s = map_find(q, obj);
	return s && s->in_flight;
}

bool apiq_queue_drop_if_noop(apiq_queue *q, uint64_t obj)
{
	apiq_slot *s = map_find(q, obj);
	if (!s || !q->h.is_noop)
		return false;
	/* IsNoOp is asked before the in-flight check, as upstream does */
	if (!q->h.is_noop(q->h.ctx, s->call) || s->in_flight)
		return false;
	apiq_call *c = s->call;
	apiq_call_ref(c);
	remove_pending(q, s);
	finish(q, c, APIQ_FIN_SKIPPED,
	       "call does not need to be executed because after sync it has no effect: call skipped");
	apiq_call_unref(q, c);
	return true;
}

void apiq_queue_close(apiq_queue *q)
{
	q->closed = true;
}
