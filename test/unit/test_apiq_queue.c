/* apiq-sim's call queue and call types, as pure logic: FIFO by object,
 * merge/overwrite/skip, gauge accounting, finalize re-queue, and the map
 * under growth and deletion. The tool's sources are compiled in directly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "queue.h"
#include "calltypes.h"

typedef struct tcall { apiq_xcall x; int finished; apiq_fin last; } tcall;
typedef struct ctx { apiq_types types; int released; } ctx;

static int rel(void *c, int type) { return ((ctx *)c)->types.t[type].relevance; }
static int merge(void *c, apiq_call *n, apiq_call *o, char *e, size_t sz)
{
	return apiq_xcall_merge((apiq_xcall *)n, (apiq_xcall *)o, e, sz);
}
static bool noop(void *c, apiq_call *x) { return apiq_xcall_is_noop((apiq_xcall *)x); }
static void fin(void *c, apiq_call *x, apiq_fin f, const char *m)
{
	((tcall *)x)->finished++;
	((tcall *)x)->last = f;
}
static void release(void *c, apiq_call *x) { ((ctx *)c)->released++; free(x); }

static tcall *mk(ctx *c, uint64_t obj, const char *type)
{
	tcall *t = calloc(1, sizeof(*t));
	t->x.base.obj = obj;
	t->x.base.type = apiq_types_find(&c->types, type);
	t->x.kind = c->types.t[t->x.base.type].kind;
	t->x.snap.nnn = t->x.target_nnn = "";
	return t;
}

static apiq_add_result add(apiq_queue *q, tcall *t)
{
	char msg[256];
	return apiq_queue_add(q, &t->x.base, msg, sizeof(msg));
}

int main(void)
{
	ctx c = {0};
	apiq_types_init(&c.types);
	int low = apiq_types_declare(&c.types, "low", 1), high = apiq_types_declare(&c.types, "high", 2);
	apiq_hooks h = {&c, rel, merge, noop, fin, release};
	apiq_queue q;
	apiq_queue_init(&q, &h);

	/* FIFO by first arrival; a merge keeps the slot */
	tcall *a = mk(&c, 1, "low"), *b = mk(&c, 2, "low"), *a2 = mk(&c, 1, "low");
	add(&q, a);
	apiq_call_ref(&a->x.base);  /* keep it to look at after it is replaced */
	add(&q, b);
	CHECK(add(&q, a2) == APIQ_ADD_OK, "merge accepted");
	CHECK(a->finished == 1 && a->last == APIQ_FIN_OVERWRITTEN, "old call told it was overwritten");
	CHECK(apiq_queue_fifo_len(&q) == 2 && apiq_queue_fifo_at(&q, 0) == 1, "merged object keeps its FIFO slot");
	CHECK(q.pending[low] == 2, "gauge counts objects, not calls");
	apiq_call_unref(&q, &a->x.base);

	/* overwrite by a more relevant type moves the gauge */
	tcall *bh = mk(&c, 2, "high");
	add(&q, bh);
	CHECK(q.pending[low] == 1 && q.pending[high] == 1, "overwrite: low -1, high +1");
	/* a less relevant call is skipped */
	tcall *bl = mk(&c, 2, "low");
	CHECK(add(&q, bl) == APIQ_ADD_SKIPPED && bl->last == APIQ_FIN_SKIPPED, "less relevant is skipped");
	CHECK(bl->x.base.refs == 0, "skipped call holds no reference");
	free(bl);

	/* pop, a newer call while in flight, finalize re-queues at the tail */
	apiq_call *p = apiq_queue_pop(&q);
	CHECK(p == &a2->x.base && apiq_queue_in_flight(&q, 1), "pop returns the head's current call");
	tcall *a3 = mk(&c, 1, "low");
	add(&q, a3);
	CHECK(apiq_queue_fifo_len(&q) == 1, "in-flight object is not queued twice");
	apiq_queue_finalize(&q, p);
	CHECK(apiq_queue_fifo_len(&q) == 2 && apiq_queue_fifo_at(&q, 1) == 1, "re-queued at the tail");
	apiq_call_unref(&q, p);

	/* status patch semantics */
	tcall *sp = mk(&c, 9, "pod_status_patch");
	sp->x.snap.nnn = "node-a";
	sp->x.mode = APIQ_MODE_OVERRIDE;
	sp->x.target_nnn = "node-a";
	CHECK(apiq_xcall_is_noop(&sp->x), "same nomination, no conditions: no-op");
	sp->x.nnew = 1;
	sp->x.newc[0] = (apiq_cond){"PodScheduled", "False", "", "", "", ""};
	CHECK(!apiq_xcall_is_noop(&sp->x), "missing condition: needs a patch");
	tcall *older = mk(&c, 9, "pod_status_patch");
	older->x.mode = APIQ_MODE_OVERRIDE;
	older->x.target_nnn = "node-z";
	older->x.nnew = 1;
	older->x.newc[0] = (apiq_cond){"Initialized", "True", "", "", "", ""};
	sp->x.mode = APIQ_MODE_NOOP;
	char err[64];
	CHECK(apiq_xcall_merge(&sp->x, &older->x, err, sizeof(err)) == 0, "merge");
	CHECK(sp->x.mode == APIQ_MODE_OVERRIDE && strcmp(sp->x.target_nnn, "node-z") == 0,
	      "Noop takes the old Override nomination");
	CHECK(sp->x.nnew == 2 && strcmp(sp->x.newc[1].type, "Initialized") == 0, "old condition types appended");
	free(sp);
	free(older);

	/* the map under growth and backward-shift deletion */
	apiq_queue q2;
	apiq_queue_init(&q2, &h);
	enum { N = 20000 };
	for (uint64_t i = 0; i < N; i++)
		add(&q2, mk(&c, i * 7919, "pod_binding"));
	int ok = 1;
	for (int i = 0; i < N / 2; i++) {
		apiq_call *x = apiq_queue_pop(&q2);
		apiq_queue_finalize(&q2, x);
		apiq_call_unref(&q2, x);
	}
	for (uint64_t i = 0; i < N; i++)
		ok &= (apiq_queue_lookup(&q2, i * 7919) != NULL) == (i >= N / 2);
	CHECK(ok, "lookups exact after %d inserts and %d deletes", N, N / 2);
	CHECK(q2.len == N / 2 && q2.pending[APIQ_TYPE_BINDING] == N / 2, "sizes and gauge agree");
	apiq_queue_free(&q2);

	int before = c.released;
	apiq_queue_free(&q);
	CHECK(c.released > before, "free releases the calls still queued");
	return T_DONE();
}
