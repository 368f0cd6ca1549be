/* timed mode: a discrete-event simulation of kube-scheduler's loop, its
 * binding goroutines, the preemption goroutines (KEP-4832), the API
 * dispatcher (KEP-5229) and the apiserver behind client-go's token bucket.
 *
 * Memory is bounded by the objects with pending work: generated pods are
 * materialised when the scheduler pops them and freed when bound; events
 * live in a heap; distributions are log-bucketed, not recorded per call. */
#include "timed.h"
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/writer.h"
#include "k8s/json.h"
#include "k8s/queue_order.h"
#include "asyncpreempt.h"
#include "metrics.h"
#include "queue.h"
#include "base/alloc.h"

/* ---- deterministic PRNG (xoshiro256**, seeded by splitmix64) ---- */

typedef struct rng { uint64_t s[4]; } rng;

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void rng_seed(rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(rng *r)
{
	uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45);
	return out;
}

/* Uniform in (0, 1). */
static double rng_unit(rng *r)
{
	return ((double)(rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
}

/* ---- model objects ---- */

typedef enum { POD_NORMAL, POD_PREEMPTOR, POD_UNSCHED } pod_kind;

/* Messages of the PodScheduled=False condition; a retry that "changes the
 * status" moves to the next one (the text lists changing node counts). */
#define NMSG 8
static const char *const messages[NMSG] = {
	"0/5000 nodes are available: 5000 Insufficient cpu. (v0)",
	"0/5000 nodes are available: 5000 Insufficient cpu. (v1)",
	"0/5000 nodes are available: 5000 Insufficient cpu. (v2)",
	"0/5000 nodes are available: 5000 Insufficient cpu. (v3)",
	"0/5000 nodes are available: 5000 Insufficient cpu. (v4)",
	"0/5000 nodes are available: 5000 Insufficient cpu. (v5)",
	"0/5000 nodes are available: 5000 Insufficient cpu. (v6)",
	"0/5000 nodes are available: 5000 Insufficient cpu. (v7)",
};
static const char NODE[] = "node-0", NONE[] = "";

typedef struct tpod {
	uint64_t id;
	pod_kind kind;
	int refs;               /* queue entries, events, calls, jobs holding it */
	double created;
	double queued_at;       /* activeQ order within a priority */
	double backoff;
	int victims_left;       /* victims whose delete event has not arrived */
	int clears;             /* lower-priority nominations to clear (plans) */
	bool preempting;        /* a preemption for it is in progress */
	bool preempted;         /* its victims are (being) deleted */
	bool nominated;         /* the NNN patch has been applied */
	bool waiting;           /* in the unschedulable pool */
	bool bound;
	bool measured;
	int msg;                /* the message of its latest failure */
	/* what the apiserver holds */
	const char *srv_nnn;
	int srv_msg;            /* -1: no PodScheduled condition */
	struct tpod *next;      /* free list / FIFO link */
	/* A PodGroup preemptor (workload-aware preemption) is one unit in the
	 * queue and in the preempting set, keyed by the group; its member pods
	 * (a list through next_member) are nominated and bound each. */
	struct tpod *members, *next_member;
} tpod;

typedef struct tfifo { tpod *head, *tail; long len; } tfifo;

typedef enum { REQ_BIND, REQ_PATCH, REQ_CALL, REQ_VICTIM_PATCH, REQ_VICTIM_DELETE } req_what;

struct tjob;
struct tcall;

typedef struct treq {
	req_what what;
	tpod *pod;
	struct tcall *call;
	struct tjob *job;
	apiq_podstatus patch;     /* REQ_PATCH: the status to write */
	bool loop_waits;          /* the scheduling loop is blocked on it */
	bool error;
	double issued;
} treq;

typedef struct tcall {
	apiq_xcall x;             /* first: queue pointers convert */
	tpod *pod;
	double started;
	bool waited;              /* OnFinish already delivered (1-buffered) */
} tcall;

/* A preemption: the sync batch or an async goroutine. */
typedef struct tjob {
	tpod *pod;
	bool async;
	int phase;                /* async: 0 = first N-1 victims, 1 = last victim */
	int total, outstanding;
	int to_start;             /* victims of this phase not started yet */
	bool error;
	double started;
} tjob;

typedef enum { EV_LOOP, EV_ARRIVAL, EV_CYCLE_END, EV_REQ, EV_CHURN, EV_REQUEUE, EV_VICTIM_GONE } ev_type;

/* Fixed-size objects in chunks; freed objects go on a free list. */
typedef struct tpool {
	size_t size;
	void *free;
	char **chunks;
	size_t nchunks, capchunks;
} tpool;

typedef struct event {
	double t;
	uint64_t seq;
	ev_type type;
	void *p;
} event;

typedef struct sim {
	const apiq_run_opts *o;
	const apiq_types *types;
	rng r;
	double now;
	uint64_t seq;
	event *heap; size_t nheap, capheap;
	/* token bucket (x/time/rate: tokens may go negative = reservations) */
	double tokens, tb_last;
	/* the scheduling queue: high priority FIFO, generated pods, low FIFO */
	tfifo high, low, lowest;  /* preemptors; measured pods; churn pods */
	long gen_total, gen_index, gen_preemptors, next_id;
	bool loop_busy;
	bool loop_sleeping;       /* idle until the next generated pod arrives */
	bool done;
	/* dispatcher */
	apiq_queue q;
	long running, peak_running;
	long peak_pending;
	/* pools */
	tpool pods, reqs, calls, jobs;
	long live_pods, peak_live_pods;
	/* plans (PreemptionPlan input) */
	struct plan { pod_kind kind; int victims, clears, members; } *plans; size_t nplans, capplans;
	/* accounting */
	long measured_total, measured_bound, preemptors_total;
	double last_bind;
	apiq_pct ttb, ttb_preemptor, ttn;
	long calls_added, calls_merged, calls_skipped, calls_overwritten, calls_executed;
	long requests, request_errors, requests_throttled;
	double throttled_seconds;
	long attempts;
	/* upstream metrics */
	long exec_total[APIQ_MAX_TYPES][2];
	apiq_hist exec_dur[APIQ_MAX_TYPES][2];
	long preempt_attempts;
	long disruption_targets[2];  /* victims' DisruptionTarget: pod, podgroup preemptor */
	apiq_hist victims_hist;
	apiq_hist goroutine_dur[2];
	long goroutine_total[2];
	FILE *timeline;
	pk_out *tl_out;
	apiq_series *series;      /* -o html: the state sampled over time */
	long preempting;          /* preemptions in flight */
} sim;

/* ---- event heap ---- */

static bool ev_less(const event *a, const event *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void push_event(sim *s, double t, ev_type type, void *p)
{
	s->heap = pk_grow(s->heap, &s->capheap, s->nheap + 1, sizeof *s->heap);
	size_t i = s->nheap++;
	event e = {t, s->seq++, type, p};
	while (i > 0 && ev_less(&e, &s->heap[(i - 1) / 2])) {
		s->heap[i] = s->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->heap[i] = e;
}

static event pop_event(sim *s)
{
	event top = s->heap[0], last = s->heap[--s->nheap];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= s->nheap)
			break;
		if (c + 1 < s->nheap && ev_less(&s->heap[c + 1], &s->heap[c]))
			c++;
		if (!ev_less(&s->heap[c], &last))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (s->nheap)
		s->heap[i] = last;
	return top;
}

/* ---- pools: chunked, reused through free lists, freed wholesale ---- */

#define POOL_CHUNK 1024

static void *pool_get(tpool *pl)
{
	if (!pl->free) {
		char *chunk = pk_xcalloc(POOL_CHUNK, pl->size);
		pl->chunks = pk_grow(pl->chunks, &pl->capchunks, pl->nchunks + 1, sizeof *pl->chunks);
		pl->chunks[pl->nchunks++] = chunk;
		for (size_t i = 0; i < POOL_CHUNK; i++) {
			void **obj = (void **)(chunk + i * pl->size);
			*obj = pl->free;
			pl->free = obj;
		}
	}
	void **obj = pl->free;
	pl->free = *obj;
	memset(obj, 0, pl->size);
	return obj;
}

static void pool_put(tpool *pl, void *obj)
{
	*(void **)obj = pl->free;
	pl->free = obj;
}

static void pool_destroy(tpool *pl)
{
	for (size_t i = 0; i < pl->nchunks; i++)
		free(pl->chunks[i]);
	free(pl->chunks);
	memset(pl, 0, sizeof(*pl));
}

static tpod *pod_new(sim *s, pod_kind kind)
{
	tpod *p = pool_get(&s->pods);
	p->id = (uint64_t)s->next_id++;
	p->kind = kind;
	p->created = s->now;
	p->backoff = s->o->backoff_initial;
	p->srv_nnn = NONE;
	p->srv_msg = -1;
	p->msg = 0;
	p->refs = 1;  /* the scheduler's: queues, backoff, unschedulable pool */
	if (++s->live_pods > s->peak_live_pods)
		s->peak_live_pods = s->live_pods;
	return p;
}

static void pod_ref(tpod *p) { p->refs++; }

static void pod_unref(sim *s, tpod *p)
{
	if (--p->refs > 0)
		return;
	for (tpod *m = p->members, *next; m; m = next) {
		next = m->next_member;
		pod_unref(s, m);  /* the group's hold on its members */
	}
	pool_put(&s->pods, p);
	s->live_pods--;
}

static treq *req_new(sim *s, req_what what, tpod *p)
{
	treq *r = pool_get(&s->reqs);
	r->what = what;
	r->pod = p;
	if (p)
		pod_ref(p);
	return r;
}

static void req_free(sim *s, treq *r)
{
	if (r->pod)
		pod_unref(s, r->pod);
	pool_put(&s->reqs, r);
}

/* ---- timeline ---- */

static void timeline(sim *s, const char *event_name, const tpod *p, const char *k, const char *v)
{
	if (!s->tl_out)
		return;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "t", round(s->now * 1e9) / 1e9);
	cJSON_AddStringToObject(o, "event", event_name);
	if (p)
		cJSON_AddNumberToObject(o, "pod", (double)p->id);
	if (k)
		cJSON_AddStringToObject(o, k, v);
	pk_out_json(s->tl_out, o);
	cJSON_Delete(o);
}

/* ---- the apiserver behind the client's rate limiter ---- */

static double latency(sim *s)
{
	double m = s->o->latency;
	switch (s->o->latency_dist) {
	case APIQ_LAT_CONST: return m;
	case APIQ_LAT_LOGNORMAL: {
		/* sigma 1, mean m: mu = ln m - 1/2; Box-Muller */
		double u1 = rng_unit(&s->r), u2 = rng_unit(&s->r);
		double z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
		return m > 0 ? exp(log(m) - 0.5 + z) : 0;
	}
	case APIQ_LAT_EXP: break;
	}
	return -m * log(rng_unit(&s->r));
}

/* client-go's token bucket (golang.org/x/time/rate reservations: the
 * bucket may go negative, each caller waits its turn, in call order). */
static double reserve_token(sim *s)
{
	if (s->o->qps <= 0)
		return 0;
	s->tokens += (s->now - s->tb_last) * s->o->qps;
	if (s->tokens > s->o->burst)
		s->tokens = s->o->burst;
	s->tb_last = s->now;
	s->tokens -= 1;
	return s->tokens >= 0 ? 0 : -s->tokens / s->o->qps;
}

static void send_request(sim *s, treq *r)
{
	double wait = reserve_token(s);
	if (wait > 0) {
		s->requests_throttled++;
		s->throttled_seconds += wait;
	}
	if (s->series)
		apiq_series_request(s->series, wait);
	r->issued = s->now;
	r->error = s->o->error_rate > 0 && rng_unit(&s->r) < s->o->error_rate;
	s->requests++;
	if (r->error)
		s->request_errors++;
	push_event(s, s->now + wait + latency(s), EV_REQ, r);
}

/* ---- scheduling queue ---- */

static void fifo_push(tfifo *f, tpod *p)
{
	p->next = NULL;
	if (f->tail)
		f->tail->next = p;
	else
		f->head = p;
	f->tail = p;
	f->len++;
}

static tpod *fifo_pop(tfifo *f)
{
	tpod *p = f->head;
	if (p) {
		f->head = p->next;
		if (!f->head)
			f->tail = NULL;
		f->len--;
	}
	return p;
}

static void loop_continue(sim *s)
{
	push_event(s, s->now, EV_LOOP, NULL);
}

static void activate(sim *s, tpod *p)
{
	if (p->bound || s->done)
		return;
	p->waiting = false;
	p->queued_at = s->now;
	fifo_push(p->kind == POD_PREEMPTOR ? &s->high : p->kind == POD_NORMAL ? &s->low : &s->lowest, p);
	if (!s->loop_busy || s->loop_sleeping) {
		s->loop_busy = true;
		s->loop_sleeping = false;
		loop_continue(s);
	}
}

/* Into backoff: back to the active queue after the pod's backoff. */
static void requeue_backoff(sim *s, tpod *p)
{
	push_event(s, s->now + p->backoff, EV_REQUEUE, p);
	p->backoff = fmin(p->backoff * 2, s->o->backoff_max);
}

/* Generated pod i: arrival time and kind. All at t=0 (the default), the
 * preemptors come first as a priority queue would pop them; with
 * --arrival-rate they are spread evenly among the others. */
static double gen_time(const sim *s, long i)
{
	return s->o->arrival_rate > 0 ? (double)i / s->o->arrival_rate : 0;
}

static pod_kind gen_kind(const sim *s, long i)
{
	if (s->o->arrival_rate <= 0)
		return i < s->gen_preemptors ? POD_PREEMPTOR : POD_NORMAL;
	double f = s->o->preemptor_share;
	return floor((double)(i + 1) * f) > floor((double)i * f) ? POD_PREEMPTOR : POD_NORMAL;
}

static tpod *gen_pod(sim *s)
{
	long i = s->gen_index++;
	tpod *p = pod_new(s, gen_kind(s, i));
	p->created = p->queued_at = gen_time(s, i);
	p->measured = true;
	p->victims_left = p->kind == POD_PREEMPTOR ? s->o->victims : 0;
	return p;
}

/* The priority a kind of pod queues at: preemptors high, churn pods (never
 * schedulable) below the measured pods. */
static int64_t kind_priority(pod_kind k)
{
	return k == POD_PREEMPTOR ? 2 : k == POD_NORMAL ? 1 : 0;
}

static pk_queue_key queue_key(pod_kind k, double queued_at)
{
	return (pk_queue_key){ .priority = kind_priority(k), .timestamp_ns = llround(queued_at * 1e9) };
}

/* A pod that may be popped next: a FIFO's head, or (from NULL) the next
 * generated pod. */
typedef struct queue_head {
	tfifo *from;
	pk_queue_key key;
} queue_head;

static int add_fifo_head(queue_head *heads, int n, tfifo *f)
{
	if (f->head)
		heads[n++] = (queue_head){ f, queue_key(f->head->kind, f->head->queued_at) };
	return n;
}

/* activeQ order (k8s/queue_order.h). Each FIFO holds the pods of one
 * priority in queue-time order, so the next pod is the first in that order
 * of the FIFOs' heads and the next generated pod (on a tie, the earlier in
 * the list: generated, measured, churn). One simplification: a requeued
 * preemptor goes ahead of generated preemptors not yet popped, whatever
 * their timestamps (upstream would order them by timestamp), as the
 * generator creates a pod only when it is popped and so keeps memory to the
 * pods with pending work. */
static tpod *next_pod(sim *s)
{
	if (s->high.head)
		return fifo_pop(&s->high);
	queue_head heads[3];
	int n = 0;
	if (s->gen_index < s->gen_total && gen_time(s, s->gen_index) <= s->now)
		heads[n++] = (queue_head){ NULL, queue_key(gen_kind(s, s->gen_index), gen_time(s, s->gen_index)) };
	n = add_fifo_head(heads, n, &s->low);
	n = add_fifo_head(heads, n, &s->lowest);
	if (n == 0)
		return NULL;
	int best = 0;
	for (int i = 1; i < n; i++)
		if (pk_queue_order_cmp(&heads[i].key, &heads[best].key) < 0)
			best = i;
	return heads[best].from ? fifo_pop(heads[best].from) : gen_pod(s);
}

/* ---- pod status and the dispatcher ---- */

static void status_of(const tpod *p, apiq_podstatus *st)
{
	memset(st, 0, sizeof(*st));
	st->nnn = p->srv_nnn;
	if (p->srv_msg >= 0) {
		st->ncond = 1;
		st->cond[0] = (apiq_cond){"PodScheduled", "False", "Unschedulable", messages[p->srv_msg], "", ""};
	}
}

static void store_status(tpod *p, const apiq_podstatus *st)
{
	p->srv_nnn = st->nnn;
	for (int i = 0; i < st->ncond; i++)
		for (int m = 0; m < NMSG; m++)
			if (st->cond[i].message == messages[m])
				p->srv_msg = m;
}

static void nomination_recorded(sim *s, tpod *p)
{
	if (p->nominated || p->srv_nnn != NODE || !p->measured)
		return;
	p->nominated = true;
	apiq_pct_add(&s->ttn, s->now - p->created);
	timeline(s, "nominated", p, "node", NODE);
}

static void bind_result(sim *s, tpod *p, bool ok);
static void dispatch(sim *s);

static int hook_relevance(void *ctx, int type)
{
	const sim *s = ctx;
	return s->types->t[type].relevance;
}

static int hook_merge(void *ctx, apiq_call *n, apiq_call *o, char *err, size_t size)
{
	sim *s = ctx;
	s->calls_merged++;
	return apiq_xcall_merge((apiq_xcall *)n, (apiq_xcall *)o, err, size);
}

static bool hook_is_noop(void *ctx, apiq_call *c)
{
	return apiq_xcall_is_noop((apiq_xcall *)c);
}

static void hook_finish(void *ctx, apiq_call *c, apiq_fin fin, const char *msg)
{
	sim *s = ctx;
	tcall *tc = (tcall *)c;
	if (fin == APIQ_FIN_SKIPPED)
		s->calls_skipped++;
	else if (fin == APIQ_FIN_OVERWRITTEN)
		s->calls_overwritten++;
	if (tc->waited)
		return;  /* 1-buffered channel: the first value wins */
	tc->waited = true;
	/* DefaultBinder's WaitOnFinish: skipped and overwritten count as success */
	if (tc->x.kind == APIQ_KIND_BINDING)
		bind_result(s, tc->pod, fin != APIQ_FIN_ERROR);
}

static void hook_release(void *ctx, apiq_call *c)
{
	sim *s = ctx;
	tcall *tc = (tcall *)c;
	pod_unref(s, tc->pod);
	pool_put(&s->calls, tc);
}

static tcall *call_new(sim *s, tpod *p, int type)
{
	tcall *c = pool_get(&s->calls);
	c->pod = p;
	pod_ref(p);
	c->x.base.obj = p->id;
	c->x.base.type = type;
	c->x.kind = s->types->t[type].kind;
	return c;
}

static void dispatcher_add(sim *s, tcall *c)
{
	char msg[256];
	s->calls_added++;
	apiq_queue_add(&s->q, &c->x.base, msg, sizeof(msg));
	if (c->x.base.refs == 0)
		hook_release(s, &c->x.base);
	long pending = (long)apiq_queue_fifo_len(&s->q);
	if (pending > s->peak_pending)
		s->peak_pending = pending;
	dispatch(s);
}

static void call_done(sim *s, tcall *c, bool sent, bool error)
{
	int t = c->x.base.type;
	s->exec_total[t][error]++;
	apiq_hist_observe(&s->exec_dur[t][error], s->now - c->started);
	s->calls_executed++;
	if (sent && !error && c->x.kind == APIQ_KIND_STATUS_PATCH) {
		apiq_podstatus st;
		status_of(c->pod, &st);
		apiq_status_apply(&st, c->x.newc, c->x.nnew, c->x.mode, c->x.target_nnn);
		store_status(c->pod, &st);
		nomination_recorded(s, c->pod);
	}
	apiq_queue_finalize(&s->q, &c->x.base);
	if (sent && !error && c->x.kind == APIQ_KIND_STATUS_PATCH) {
		/* the informer's update: SyncObject(newPod) on a pending call */
		apiq_xcall *pending = (apiq_xcall *)apiq_queue_lookup(&s->q, c->pod->id);
		if (pending) {
			apiq_podstatus cur, out;
			status_of(c->pod, &cur);
			apiq_xcall_sync(pending, &cur, &out);
			apiq_queue_drop_if_noop(&s->q, c->pod->id);
		}
	}
	hook_finish(s, &c->x.base, error ? APIQ_FIN_ERROR : APIQ_FIN_NIL, NULL);
	s->running--;
	apiq_call_unref(&s->q, &c->x.base);
	dispatch(s);
}

/* The dispatcher's run loop: pop and start a goroutine per call. */
static void dispatch(sim *s)
{
	while (apiq_queue_fifo_len(&s->q) > 0 &&
	       (s->o->dispatcher_limit == 0 || s->running < s->o->dispatcher_limit)) {
		tcall *c = (tcall *)apiq_queue_pop(&s->q);
		if (!c)
			continue;
		if (++s->running > s->peak_running)
			s->peak_running = s->running;
		c->started = s->now;
		if (!apiq_xcall_execute(&c->x)) {
			call_done(s, c, false, false);  /* nothing to patch: success */
			continue;
		}
		treq *r = req_new(s, REQ_CALL, NULL);
		r->call = c;
		send_request(s, r);
	}
}

/* A pod status patch (failure handler, nomination clearing). With
 * loop_waits the scheduling loop goes on once the patch is done (sync) or
 * handed to the dispatcher (async). msg < 0: no condition. */
static void patch_status(sim *s, tpod *p, int msg, const char *nnn, bool override, bool loop_waits)
{
	apiq_cond cond = {"PodScheduled", "False", "Unschedulable", msg >= 0 ? messages[msg] : "", "", ""};
	int ncond = msg >= 0 ? 1 : 0;
	apiq_mode mode = override ? APIQ_MODE_OVERRIDE : APIQ_MODE_NOOP;
	if (s->o->gates.async_api_calls) {
		tcall *c = call_new(s, p, APIQ_TYPE_STATUS_PATCH);
		status_of(p, &c->x.snap);
		c->x.nnew = ncond;
		c->x.newc[0] = cond;
		c->x.mode = mode;
		c->x.target_nnn = nnn;
		dispatcher_add(s, c);
		if (loop_waits)
			loop_continue(s);
		return;
	}
	/* updatePod: no request when nothing would change */
	apiq_podstatus st;
	status_of(p, &st);
	if (!apiq_status_apply(&st, &cond, ncond, mode, nnn)) {
		if (loop_waits)
			loop_continue(s);
		return;
	}
	treq *r = req_new(s, REQ_PATCH, p);
	r->patch = st;
	r->loop_waits = loop_waits;
	send_request(s, r);
}

/* ---- binding ---- */

static void start_binding(sim *s, tpod *p)
{
	if (s->o->gates.async_api_calls) {
		tcall *c = call_new(s, p, APIQ_TYPE_BINDING);
		c->x.node = NODE;
		dispatcher_add(s, c);
	} else {
		send_request(s, req_new(s, REQ_BIND, p));
	}
}

static void bind_result(sim *s, tpod *p, bool ok)
{
	if (p->bound)
		return;
	if (!ok) {
		timeline(s, "bindFailed", p, NULL, NULL);
		requeue_backoff(s, p);  /* forget the assumed pod, back off */
		return;
	}
	p->bound = true;
	timeline(s, "bound", p, NULL, NULL);
	if (p->measured) {
		s->measured_bound++;
		s->last_bind = s->now;
		apiq_pct_add(&s->ttb, s->now - p->created);
		if (s->series)
			apiq_series_bound(s->series, s->now - p->created);
		if (p->kind == POD_PREEMPTOR)
			apiq_pct_add(&s->ttb_preemptor, s->now - p->created);
		if (s->measured_bound == s->measured_total)
			s->done = true;
	}
	pod_unref(s, p);  /* the scheduler is done with it */
}

/* ---- preemption ---- */

static void victim_start(sim *s, tjob *j)
{
	treq *r = req_new(s, REQ_VICTIM_PATCH, j->pod);
	r->job = j;
	send_request(s, r);
}

/* Victims are preempted through the Parallelizer: 16 at a time. */
#define PREEMPT_PARALLELISM 16

static void job_phase(sim *s, tjob *j, int n)
{
	j->outstanding = n;
	j->to_start = n;
	for (int i = 0; i < n && i < PREEMPT_PARALLELISM; i++, j->to_start--)
		victim_start(s, j);
}

/* The nominated node written: a pod's, or each member's of a pod group;
 * the loop goes on after the last patch. */
static void patch_nomination(sim *s, tpod *p)
{
	if (!p->members) {
		patch_status(s, p, p->msg, NODE, true, true);
		return;
	}
	for (tpod *m = p->members; m; m = m->next_member) {
		m->msg = p->msg;
		patch_status(s, m, m->msg, NODE, true, m->next_member == NULL);
	}
}

/* The failure handler after PostFilter nominated the preemptor. */
static void nominate(sim *s, tpod *p)
{
	p->waiting = true;
	patch_nomination(s, p);
	if (p->victims_left == 0 && !p->preempting)
		activate(s, p);
}

static void job_end(sim *s, tjob *j)
{
	tpod *p = j->pod;
	p->preempting = false;
	s->preempting--;
	if (j->async) {
		s->goroutine_total[j->error]++;
		apiq_hist_observe(&s->goroutine_dur[j->error], s->now - j->started);
		timeline(s, "goroutineDone", p, "result", j->error ? "error" : "success");
		if (j->error) {
			p->preempted = false;  /* Activate: it will preempt again */
			/* Activate(preemptor.Pods()): a pod group's every member */
			for (tpod *m = p->members; m; m = m->next_member)
				timeline(s, "memberActivated", m, NULL, NULL);
		}
		if ((j->error || p->victims_left == 0) && p->waiting)
			activate(s, p);
	} else if (j->error) {
		/* an error status: no nomination; back off */
		p->preempted = false;
		requeue_backoff(s, p);
		loop_continue(s);
	} else {
		nominate(s, p);
	}
	pod_unref(s, p);
	pool_put(&s->jobs, j);
}

static void victim_done(sim *s, tjob *j, bool error)
{
	if (error)
		j->error = true;
	if (j->to_start > 0) {
		j->to_start--;
		victim_start(s, j);
	}
	if (--j->outstanding > 0)
		return;
	if (j->async && j->phase == 0 && j->total > 1 && !j->error) {
		j->phase = 1;
		job_phase(s, j, 1);  /* the last victim, registered as pending */
		return;
	}
	job_end(s, j);
}

static void start_preemption(sim *s, tpod *p)
{
	tjob *j = pool_get(&s->jobs);
	j->pod = p;
	pod_ref(p);
	j->async = s->o->gates.async_preemption;
	j->total = p->victims_left;
	j->started = s->now;
	p->preempting = true;
	p->preempted = true;
	s->preempting++;
	apiq_hist_observe(&s->victims_hist, j->total);
	timeline(s, j->async ? "preemptionGoroutine" : "preemption", p, p->members ? "preemptor" : NULL, "podgroup");
	/* lower-priority nominations on the node are cleared first */
	for (int i = 0; i < p->clears; i++) {
		tpod *other = pod_new(s, POD_UNSCHED);  /* stands for the nominated pod */
		other->srv_nnn = NODE;
		patch_status(s, other, -1, NONE, true, false);
		pod_unref(s, other);
	}
	if (j->total == 0) {
		job_end(s, j);
		return;
	}
	job_phase(s, j, j->async && j->total > 1 ? j->total - 1 : j->total);
}

/* ---- scheduling cycle ---- */

static bool fits(const tpod *p)
{
	return p->kind == POD_NORMAL || (p->kind == POD_PREEMPTOR && p->preempted && p->victims_left == 0);
}

static void on_loop(sim *s)
{
	tpod *p = s->done ? NULL : next_pod(s);
	if (!p) {
		if (!s->done && s->gen_index < s->gen_total) {
			s->loop_sleeping = true;  /* until the next pod is created */
			push_event(s, gen_time(s, s->gen_index), EV_ARRIVAL, NULL);
		} else {
			s->loop_busy = false;
		}
		return;
	}
	s->attempts++;
	timeline(s, "attempt", p, NULL, NULL);
	/* Filter; PostFilter's dry run when nothing fits */
	double cost = s->o->cycle_cost + (fits(p) ? 0 : s->o->preempt_cost);
	push_event(s, s->now + cost, EV_CYCLE_END, p);
}

/* The end of a scheduling cycle: bind, or PostFilter + failure handler. */
static void on_cycle_end(sim *s, tpod *p)
{
	if (fits(p)) {
		if (!p->members) {
			start_binding(s, p);  /* the binding cycle runs on its own goroutine */
		} else {
			/* the group's cycle placed every member; each binds on its own */
			for (tpod *m = p->members; m; m = m->next_member) {
				pod_ref(m);  /* the scheduler's, released when it binds */
				start_binding(s, m);
			}
			pod_unref(s, p);  /* the scheduler is done with the group */
		}
		loop_continue(s);
		return;
	}
	if (p->kind == POD_UNSCHED) {
		s->preempt_attempts++;  /* PostFilter ran and found no candidate */
		if (p->srv_msg < 0 || rng_unit(&s->r) < s->o->patch_change)
			p->msg = (p->srv_msg + 1) % NMSG;
		else
			p->msg = p->srv_msg;
		patch_status(s, p, p->msg, NONE, false, true);
		requeue_backoff(s, p);
		return;
	}
	s->preempt_attempts++;
	if (p->preempted) {
		/* victims still terminating: not eligible; wait for their deletes */
		p->waiting = true;
		patch_nomination(s, p);
		if (p->victims_left == 0 && !p->preempting)
			activate(s, p);
		return;
	}
	start_preemption(s, p);
	if (s->o->gates.async_preemption)
		nominate(s, p);
}

/* ---- event handlers ---- */

static void on_request(sim *s, treq *r)
{
	tjob *j = r->job;
	switch (r->what) {
	case REQ_BIND:
		bind_result(s, r->pod, !r->error);
		break;
	case REQ_PATCH:
		if (!r->error) {
			store_status(r->pod, &r->patch);
			nomination_recorded(s, r->pod);
		}
		if (r->loop_waits)
			loop_continue(s);
		break;
	case REQ_CALL:
		call_done(s, r->call, true, r->error);
		break;
	case REQ_VICTIM_PATCH:
		if (!r->error)
			s->disruption_targets[r->pod->members != NULL]++;
		if (r->error) {
			victim_done(s, j, true);
		} else {
			treq *d = req_new(s, REQ_VICTIM_DELETE, r->pod);
			d->job = j;
			send_request(s, d);
		}
		break;
	case REQ_VICTIM_DELETE:
		if (!r->error) {
			pod_ref(r->pod);
			push_event(s, s->now + s->o->informer_delay, EV_VICTIM_GONE, r->pod);
		}
		victim_done(s, j, r->error);
		break;
	}
	req_free(s, r);
}

static void on_victim_gone(sim *s, tpod *p)
{
	if (p->victims_left > 0)
		p->victims_left--;
	timeline(s, "victimDeleted", p, NULL, NULL);
	/* the last victim's delete event requeues the preemptor; PreEnqueue
	 * lets it through once the last victim is gone (#134730) */
	if (p->victims_left == 0 && p->waiting && !p->bound)
		activate(s, p);
	pod_unref(s, p);
}

static void on_churn(sim *s)
{
	if (s->done)
		return;
	activate(s, pod_new(s, POD_UNSCHED));
	push_event(s, s->now + 1.0 / s->o->churn, EV_CHURN, NULL);
}

static void run_events(sim *s)
{
	while (s->nheap > 0) {
		event e = pop_event(s);
		if (s->o->until > 0 && e.t > s->o->until)
			break;
		s->now = e.t;
		if (s->series)
			apiq_series_at(s->series, s->now, s->q.pending, s->types->n, s->running, s->preempting);
		switch (e.type) {
		case EV_LOOP: s->loop_busy = true; on_loop(s); break;
		case EV_ARRIVAL:
			if (s->loop_sleeping) {
				s->loop_sleeping = false;
				on_loop(s);
			}
			break;
		case EV_CYCLE_END: on_cycle_end(s, e.p); break;
		case EV_REQ: on_request(s, e.p); break;
		case EV_CHURN: on_churn(s); break;
		case EV_REQUEUE: activate(s, e.p); break;
		case EV_VICTIM_GONE: on_victim_gone(s, e.p); break;
		}
		if (s->done && !(s->o->until > 0))
			break;
	}
}

/* ---- input: PreemptionPlan records ---- */

typedef struct plan_reader {
	sim *s;
	pk_cli *cli;
	pk_stats *stats;
	bool trouble;
} plan_reader;

static void add_plan(sim *s, pod_kind kind, int victims, int clears, int members)
{
	s->plans = pk_grow(s->plans, &s->capplans, s->nplans + 1, sizeof *s->plans);
	s->plans[s->nplans++] = (struct plan){kind, victims, clears, members};
}

/* Preempt -> a preemptor with its victims and nominations to clear;
 * NoPreemptionNeeded -> a pod that fits; anything else never fits. */
static int on_plan(void *ctx, pk_record *rec)
{
	plan_reader *pr = ctx;
	if (pk_cli_report_record_problem(pr->cli, rec)) {
		pr->stats->errors++;
		pr->trouble = true;
		return 0;
	}
	if (rec->type != PK_REC_OBJECT)
		return 0;
	pr->stats->read++;
	const cJSON *o = rec->obj;
	if (strcmp(pk_kind(o), "PreemptionPlan") != 0) {
		const char *kind = *pk_kind(o) ? pk_kind(o) : "(no kind)";
		char key[128];
		snprintf(key, sizeof key, "skipped kind %s", kind);
		pk_stats_skip(pr->stats, kind);
		pk_diag_warn_once(&pr->cli->diag, key, &rec->origin,
		                  "a %s record is not a PreemptionPlan; run simulates plans only, skipped", kind);
		return 0;
	}
	const char *result = pk_str_or(o, "result", "");
	if (strcmp(result, "Preempt") && strcmp(result, "NoPreemptionNeeded") && strcmp(result, "NotEligible") &&
	    strcmp(result, "Unschedulable")) {
		/* a malformed plan: guessing what it meant would change the answer */
		pk_diag_report(&pr->cli->diag, PK_SEV_ERROR, &rec->origin,
		               "PreemptionPlan: result \"%s\" is not Preempt, NoPreemptionNeeded, NotEligible or "
		               "Unschedulable", result);
		pk_stats_reject(pr->stats, "PreemptionPlan");
		pr->trouble = true;
		return 0;
	}
	int victims = cJSON_GetArraySize(pk_get(o, "victims"));
	int clears = cJSON_GetArraySize(pk_get(o, "clearedNominations"));
	pod_kind kind = !strcmp(result, "Preempt") ? POD_PREEMPTOR
	              : !strcmp(result, "NoPreemptionNeeded") ? POD_NORMAL : POD_UNSCHED;
	if (kind == POD_PREEMPTOR && victims == 0) {
		/* count pod_delete actions when the victims list is absent */
		const cJSON *a;
		cJSON_ArrayForEach(a, pk_get(o, "actions"))
			if (!strcmp(pk_str_or(a, "call", ""), "pod_delete"))
				victims++;
	}
	int members = 0;
	const char *preemptor_kind = pk_str_or(pk_get(o, "preemptor"), "kind", "Pod");
	if (kind != POD_UNSCHED && (!strcmp(preemptor_kind, "PodGroup") || !strcmp(preemptor_kind, "CompositePodGroup"))) {
		/* a PodGroup's or a CompositePodGroup's plan (workload-aware preemption): its members */
		int64_t n = 0;
		if (!pk_int64(o, "members", &n))
			n = cJSON_GetArraySize(pk_get(o, "placements"));
		if (n < 1 || n > 100000) {
			pk_diag_report(&pr->cli->diag, PK_SEV_ERROR, &rec->origin,
			               "PreemptionPlan: a PodGroup preemptor's plan needs \"members\" (1 to 100000), "
			               "got %lld", (long long)n);
			pk_stats_reject(pr->stats, "PreemptionPlan");
			pr->trouble = true;
			return 0;
		}
		members = (int)n;
	}
	add_plan(pr->s, kind, victims, clears, members);
	pr->stats->used++;
	return 0;
}

/* ---- one run ---- */

static void sim_init(sim *s, const apiq_run_opts *o, const apiq_types *types)
{
	memset(s, 0, sizeof(*s));
	s->o = o;
	s->types = types;
	rng_seed(&s->r, o->seed);
	s->tokens = o->burst;
	s->pods.size = sizeof(tpod);
	s->reqs.size = sizeof(treq);
	s->calls.size = sizeof(tcall);
	s->jobs.size = sizeof(tjob);
	apiq_hooks h = {s, hook_relevance, hook_merge, hook_is_noop, hook_finish, hook_release};
	apiq_queue_init(&s->q, &h);
	for (int t = 0; t < APIQ_MAX_TYPES; t++)
		for (int r = 0; r < 2; r++)
			apiq_hist_init_exp(&s->exec_dur[t][r], 0.001, 2, 15);
	apiq_hist_init_exp(&s->victims_hist, 1, 2, 7);
	apiq_hist_init_exp(&s->goroutine_dur[0], 0.01, 2, 20);
	apiq_hist_init_exp(&s->goroutine_dur[1], 0.01, 2, 20);
}

static void sim_free(sim *s)
{
	apiq_queue_free(&s->q);
	pool_destroy(&s->pods);
	pool_destroy(&s->reqs);
	pool_destroy(&s->calls);
	pool_destroy(&s->jobs);
	free(s->heap);
}

/* A PodGroup's n member pods: measured each; a preemptor's fit once the
 * group's victims are gone. */
static void add_members(sim *s, tpod *group, int n)
{
	for (int k = 0; k < n; k++) {
		tpod *m = pod_new(s, group->kind);  /* its ref: the group's hold */
		m->measured = true;
		m->preempted = group->kind == POD_PREEMPTOR;
		m->next_member = group->members;
		group->members = m;
	}
}

/* Materialise plan pods at t=0 (in input order within each priority). */
static void load_plans(sim *s, const struct plan *plans, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		tpod *p = pod_new(s, plans[i].kind);
		p->victims_left = plans[i].victims;
		p->clears = plans[i].clears;
		p->measured = plans[i].kind != POD_UNSCHED && plans[i].members == 0;
		add_members(s, p, plans[i].members);
		int pods = plans[i].members ? plans[i].members : 1;
		if (plans[i].kind != POD_UNSCHED)
			s->measured_total += pods;
		if (p->kind == POD_PREEMPTOR)
			s->preemptors_total += pods;
		fifo_push(p->kind == POD_PREEMPTOR ? &s->high : p->kind == POD_NORMAL ? &s->low : &s->lowest, p);
	}
}

static void simulate(sim *s, const struct plan *plans, size_t nplans)
{
	if (nplans) {
		load_plans(s, plans, nplans);
	} else {
		long long n = s->o->pods;
		s->gen_total = (long)n;
		s->gen_preemptors = (long)llround((double)n * s->o->preemptor_share);
		s->measured_total = (long)n;
		for (long i = 0; i < s->gen_total && s->o->arrival_rate > 0; i++)
			if (gen_kind(s, i) == POD_PREEMPTOR)
				s->preemptors_total++;
		if (s->o->arrival_rate <= 0)
			s->preemptors_total = s->gen_preemptors;
	}
	if (s->o->churn > 0)
		push_event(s, 0, EV_CHURN, NULL);
	s->loop_busy = true;
	push_event(s, 0, EV_LOOP, NULL);
	if (s->measured_total == 0 && !(s->o->until > 0))
		s->done = true;
	run_events(s);
}

/* ---- output ---- */

static double r6(double v)
{
	return round(v * 1e6) / 1e6;
}

static cJSON *pct_json(const apiq_pct *p)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "count", (double)p->n);
	cJSON_AddNumberToObject(o, "p50", r6(apiq_pct_quantile(p, 0.5)));
	cJSON_AddNumberToObject(o, "p90", r6(apiq_pct_quantile(p, 0.9)));
	cJSON_AddNumberToObject(o, "p99", r6(apiq_pct_quantile(p, 0.99)));
	cJSON_AddNumberToObject(o, "max", r6(p->max));
	return o;
}

static cJSON *gates_json(const apiq_gates *g)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "SchedulerAsyncPreemption", g->async_preemption);
	cJSON_AddBoolToObject(o, "SchedulerAsyncAPICalls", g->async_api_calls);
	return o;
}

static double throughput(const sim *s)
{
	return s->last_bind > 0 ? (double)s->measured_bound / s->last_bind : 0;
}

static cJSON *summary_json(const sim *s)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", "Summary");
	cJSON_AddItemToObject(o, "featureGates", gates_json(&s->o->gates));
	cJSON_AddNumberToObject(o, "seed", (double)s->o->seed);
	cJSON_AddNumberToObject(o, "simulatedSeconds", r6(s->now));
	cJSON *pods = cJSON_AddObjectToObject(o, "pods");
	cJSON_AddNumberToObject(pods, "measured", (double)s->measured_total);
	cJSON_AddNumberToObject(pods, "bound", (double)s->measured_bound);
	cJSON_AddNumberToObject(pods, "preemptors", (double)s->preemptors_total);
	cJSON_AddNumberToObject(pods, "attempts", (double)s->attempts);
	cJSON_AddNumberToObject(pods, "peakLive", (double)s->peak_live_pods);
	cJSON_AddNumberToObject(o, "throughput", r6(throughput(s)));
	cJSON_AddItemToObject(o, "timeToNomination", pct_json(&s->ttn));
	cJSON_AddItemToObject(o, "timeToBind", pct_json(&s->ttb));
	cJSON_AddItemToObject(o, "preemptorTimeToBind", pct_json(&s->ttb_preemptor));
	cJSON *c = cJSON_AddObjectToObject(o, "calls");
	cJSON_AddNumberToObject(c, "added", (double)s->calls_added);
	cJSON_AddNumberToObject(c, "merged", (double)s->calls_merged);
	cJSON_AddNumberToObject(c, "skipped", (double)s->calls_skipped);
	cJSON_AddNumberToObject(c, "overwritten", (double)s->calls_overwritten);
	cJSON_AddNumberToObject(c, "executed", (double)s->calls_executed);
	cJSON_AddNumberToObject(c, "peakPending", (double)s->peak_pending);
	cJSON_AddNumberToObject(c, "peakInFlight", (double)s->peak_running);
	cJSON *r = cJSON_AddObjectToObject(o, "apiRequests");
	cJSON_AddNumberToObject(r, "total", (double)s->requests);
	cJSON_AddNumberToObject(r, "errors", (double)s->request_errors);
	cJSON_AddNumberToObject(r, "throttled", (double)s->requests_throttled);
	cJSON_AddNumberToObject(r, "throttledSeconds", r6(s->throttled_seconds));
	cJSON *p = cJSON_AddObjectToObject(o, "preemption");
	cJSON_AddNumberToObject(p, "attempts", (double)s->preempt_attempts);
	cJSON_AddNumberToObject(p, "goroutinesSucceeded", (double)s->goroutine_total[0]);
	cJSON_AddNumberToObject(p, "goroutinesFailed", (double)s->goroutine_total[1]);
	cJSON *dt = cJSON_AddArrayToObject(p, "disruptionTargets");
	for (int g = 0; g < 2; g++) {
		if (!s->disruption_targets[g])
			continue;
		char msg[160];
		apiq_disruption_message(msg, sizeof msg, NULL, g);
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "message", msg);
		cJSON_AddNumberToObject(e, "victims", (double)s->disruption_targets[g]);
		cJSON_AddItemToArray(dt, e);
	}
	return o;
}

static const char *const results[2] = {"success", "error"};

static void write_metrics(FILE *f, const sim *s)
{
	const apiq_types *ts = s->types;
	char labels[160];
	if (s->o->gates.async_api_calls) {
		fprintf(f, "# HELP scheduler_async_api_call_execution_total [ALPHA] Number of API calls executed by the dispatcher, by call type and result.\n"
		           "# TYPE scheduler_async_api_call_execution_total counter\n");
		for (int t = 0; t < ts->n; t++)
			for (int r = 0; r < 2; r++)
				if (s->exec_total[t][r])
					fprintf(f, "scheduler_async_api_call_execution_total{call_type=\"%s\",result=\"%s\"} %ld\n",
					        ts->t[t].name, results[r], s->exec_total[t][r]);
		fprintf(f, "# HELP scheduler_async_api_call_execution_duration_seconds [ALPHA] Duration of API call execution by the dispatcher, by call type and result.\n"
		           "# TYPE scheduler_async_api_call_execution_duration_seconds histogram\n");
		for (int t = 0; t < ts->n; t++)
			for (int r = 0; r < 2; r++)
				if (s->exec_total[t][r]) {
					snprintf(labels, sizeof(labels), "call_type=\"%s\",result=\"%s\"", ts->t[t].name, results[r]);
					apiq_hist_write(f, "scheduler_async_api_call_execution_duration_seconds", labels, &s->exec_dur[t][r]);
				}
		fprintf(f, "# HELP scheduler_pending_async_api_calls [ALPHA] Number of API calls waiting in the dispatcher's queue, by call type.\n"
		           "# TYPE scheduler_pending_async_api_calls gauge\n");
		for (int t = 0; t < ts->n; t++)
			fprintf(f, "scheduler_pending_async_api_calls{call_type=\"%s\"} %ld\n", ts->t[t].name, s->q.pending[t]);
	}
	fprintf(f, "# HELP scheduler_preemption_attempts_total [STABLE] Total preemption attempts in the cluster till now\n"
	           "# TYPE scheduler_preemption_attempts_total counter\n"
	           "scheduler_preemption_attempts_total %ld\n", s->preempt_attempts);
	fprintf(f, "# HELP scheduler_preemption_victims [STABLE] Number of selected preemption victims\n"
	           "# TYPE scheduler_preemption_victims histogram\n");
	apiq_hist_write(f, "scheduler_preemption_victims", "", &s->victims_hist);
	if (s->o->gates.async_preemption) {
		fprintf(f, "# HELP scheduler_preemption_goroutines_duration_seconds [ALPHA] Duration in seconds for running goroutines for the preemption.\n"
		           "# TYPE scheduler_preemption_goroutines_duration_seconds histogram\n");
		for (int r = 0; r < 2; r++) {
			snprintf(labels, sizeof(labels), "result=\"%s\"", results[r]);
			apiq_hist_write(f, "scheduler_preemption_goroutines_duration_seconds", labels, &s->goroutine_dur[r]);
		}
		fprintf(f, "# HELP scheduler_preemption_goroutines_execution_total [ALPHA] Number of preemption goroutines executed, by result.\n"
		           "# TYPE scheduler_preemption_goroutines_execution_total counter\n");
		for (int r = 0; r < 2; r++)
			fprintf(f, "scheduler_preemption_goroutines_execution_total{result=\"%s\"} %ld\n", results[r], s->goroutine_total[r]);
	}
}

static int write_metrics_file(pk_cli *cli, const char *path, const sim *s)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		pk_diag_report(&cli->diag, PK_SEV_ERROR, NULL, "%s: cannot write metrics: %m", path);
		return -1;
	}
	write_metrics(f, s);
	if (fclose(f) != 0) {
		pk_diag_report(&cli->diag, PK_SEV_ERROR, NULL, "%s: write error: %m", path);
		return -1;
	}
	return 0;
}

/* Runs one gate setting; returns its summary (caller owns). */
static cJSON *run_one(pk_cli *cli, const apiq_types *types, const apiq_run_opts *o,
                      const struct plan *plans, size_t nplans, bool write_extras, int *status)
{
	sim s;
	sim_init(&s, o, types);
	pk_out tl;
	FILE *tlf = NULL;
	if (write_extras && o->timeline_path) {
		tlf = strcmp(o->timeline_path, "-") ? fopen(o->timeline_path, "w") : stdout;
		if (!tlf) {
			pk_diag_report(&cli->diag, PK_SEV_ERROR, NULL, "%s: cannot write timeline: %m", o->timeline_path);
			*status = PK_EXIT_TROUBLE;
		} else {
			pk_out_init(&tl, tlf);
			s.tl_out = &tl;
		}
	}
	if (o->writer->plots_series)
		s.series = apiq_series_new();
	simulate(&s, plans, nplans);
	cJSON *sum = summary_json(&s);
	pk_cli_add_k8s_version(cli, sum);
	if (s.series) {
		cJSON_AddItemToObject(sum, "series", apiq_series_json(s.series, types, s.now));
		apiq_series_free(s.series);
	}
	if (write_extras && o->metrics_path && write_metrics_file(cli, o->metrics_path, &s) < 0)
		*status = PK_EXIT_TROUBLE;
	if (tlf && tlf != stdout && fclose(tlf) != 0)
		*status = PK_EXIT_TROUBLE;
	else if (tlf == stdout)
		fflush(stdout);
	sim_free(&s);
	return sum;
}

static cJSON *comparison_json(cJSON *const *sums, int n)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", "Comparison");
	cJSON_AddItemToObject(o, "baseline", cJSON_Duplicate(pk_get(sums[0], "featureGates"), 1));
	double base = pk_getp(sums[0], "throughput")->valuedouble;
	double base_p99 = pk_getp(sums[0], "timeToBind.p99")->valuedouble;
	cJSON *rows = cJSON_AddArrayToObject(o, "rows");
	for (int i = 0; i < n; i++) {
		cJSON *r = cJSON_CreateObject();
		cJSON_AddItemToObject(r, "featureGates", cJSON_Duplicate(pk_get(sums[i], "featureGates"), 1));
		double tp = pk_getp(sums[i], "throughput")->valuedouble;
		cJSON_AddNumberToObject(r, "throughput", tp);
		cJSON_AddNumberToObject(r, "throughputRatio", base > 0 ? r6(tp / base) : 0);
		cJSON_AddNumberToObject(r, "timeToBindP99Delta", r6(pk_getp(sums[i], "timeToBind.p99")->valuedouble - base_p99));
		cJSON_AddItemToArray(rows, r);
	}
	return o;
}

/* -o json: the Summary records (with this run's warnings), then with
 * --compare the Comparison. */
static void write_json(const pk_cli *cli, pk_out *out, cJSON *const *sums, int n, bool compare)
{
	for (int i = 0; i < n; i++) {
		if (cli->diag.ncauses)
			cJSON_AddItemToObject(sums[i], "warnings", pk_cli_warnings_json(cli));
		pk_out_json(out, sums[i]);
	}
	if (compare) {
		cJSON *cmp = comparison_json(sums, n);
		pk_cli_add_k8s_version(cli, cmp);
		pk_out_json(out, cmp);
		cJSON_Delete(cmp);
	}
}

const apiq_writer apiq_json_writer = { .ndjson = true, .write = write_json };

int apiq_run_main(pk_cli *cli, const apiq_types *types, const apiq_run_opts *o,
                  char *const *paths, size_t npaths)
{
	pk_stats stats;
	memset(&stats, 0, sizeof(stats));
	sim holder;  /* plans are read into a scratch sim's list */
	memset(&holder, 0, sizeof(holder));
	/* plans from the operands, or from stdin unless a workload is generated */
	bool generated = o->pods > 0 || (o->churn > 0 && o->until > 0);
	bool from_plans = npaths > 0 || !generated;
	if (from_plans) {
		plan_reader pr = {&holder, cli, &stats, false};
		if (pk_read_paths(&cli->reader, paths, npaths, on_plan, &pr) != 0 || pr.trouble) {
			free(holder.plans);
			return PK_EXIT_TROUBLE;
		}
		if (holder.nplans == 0 && !generated) {
			pk_diag_report(&cli->diag, PK_SEV_ERROR, NULL, "no PreemptionPlan records and no --pods: nothing to simulate");
			free(holder.plans);
			if (cli->stats)
				pk_stats_print(&stats, cli->prog, stderr);
			return PK_EXIT_TROUBLE;
		}
	}
	if (o->pods == 0 && o->churn > 0 && !(o->until > 0) && holder.nplans == 0) {
		free(holder.plans);
		pk_cli_usage_error(cli, "--churn without measured pods needs --until");
	}
	int status = PK_EXIT_OK;
	pk_out out;
	pk_out_init(&out, stdout);
	apiq_run_opts variants[4];
	int n = 1;
	variants[0] = *o;
	if (o->compare) {
		/* the baseline (both gates off) first, then each gate, then both */
		n = 4;
		for (int i = 0; i < 4; i++) {
			variants[i] = *o;
			variants[i].gates.async_preemption = i & 1;
			variants[i].gates.async_api_calls = (i >> 1) & 1;
		}
	}
	cJSON *sums[4];
	for (int i = 0; i < n; i++) {
		bool mine = !o->compare || (variants[i].gates.async_preemption == o->gates.async_preemption &&
		                            variants[i].gates.async_api_calls == o->gates.async_api_calls);
		sums[i] = run_one(cli, types, &variants[i], holder.plans, holder.nplans, mine, &status);
	}
	o->writer->write(cli, &out, sums, n, o->compare);
	for (int i = 0; i < n; i++)
		cJSON_Delete(sums[i]);
	free(holder.plans);
	if (cli->stats)
		pk_stats_print(&stats, cli->prog, stderr);
	int st = pk_out_finish(&out, &cli->diag);
	return st != PK_EXIT_OK ? st : status;
}

void apiq_run_opts_default(apiq_run_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->preemptor_share = 0.1;
	o->victims = 3;
	o->cycle_cost = 0.001;
	o->preempt_cost = 0.002;
	o->latency = 0.005;
	o->qps = 50;        /* KubeSchedulerConfiguration clientConnection defaults */
	o->burst = 100;
	o->informer_delay = 0.001;
	o->backoff_initial = 1;   /* podInitialBackoffSeconds */
	o->backoff_max = 10;      /* podMaxBackoffSeconds */
	o->patch_change = 1;
	o->seed = 1;
}

double apiq_parse_duration(const char *s)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || !(v >= 0) || v > 1e12)
		return -1;
	if (!*end || !strcmp(end, "s")) return v;
	if (!strcmp(end, "ms")) return v / 1e3;
	if (!strcmp(end, "us")) return v / 1e6;
	if (!strcmp(end, "ns")) return v / 1e9;
	if (!strcmp(end, "m")) return v * 60;
	if (!strcmp(end, "h")) return v * 3600;
	return -1;
}
