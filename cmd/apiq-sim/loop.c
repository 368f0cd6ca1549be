/* timed mode's scheduler: the pods and their lifetimes, the scheduling
 * queue (activeQ order, backoff, the generated workload), the scheduling
 * loop and cycle, the events that drive a run, and one run from start to
 * end. See sim.h for the other parts.
 *
 * Memory is bounded by the objects with pending work: generated pods are
 * materialised when the scheduler pops them and freed when bound; events
 * live in a heap; distributions are log-bucketed, not recorded per call. */
#include "sim.h"

#include <math.h>
#include <string.h>

#include "k8s/queue_order.h"

/* ---- pods ---- */

tpod *sim_pod_new(sim *s, pod_kind kind)
{
	tpod *p = apiq_pool_get(&s->pods);
	p->id = (uint64_t)s->next_id++;
	p->kind = kind;
	p->created = s->now;
	p->backoff = s->o->backoff_initial;
	p->srv_nnn = SIM_NONE;
	p->srv_msg = -1;
	p->msg = 0;
	p->refs = 1;  /* the scheduler's: queues, backoff, unschedulable pool */
	if (++s->live_pods > s->peak_live_pods)
		s->peak_live_pods = s->live_pods;
	return p;
}

void sim_pod_unref(sim *s, tpod *p)
{
	if (--p->refs > 0)
		return;
	for (tpod *m = p->members, *next; m; m = next) {
		next = m->next_member;
		sim_pod_unref(s, m);  /* the group's hold on its members */
	}
	apiq_pool_put(&s->pods, p);
	s->live_pods--;
}

treq *sim_req_new(sim *s, req_what what, tpod *p)
{
	treq *r = apiq_pool_get(&s->reqs);
	r->what = what;
	r->pod = p;
	if (p)
		sim_pod_ref(p);
	return r;
}

void sim_req_free(sim *s, treq *r)
{
	if (r->pod)
		sim_pod_unref(s, r->pod);
	apiq_pool_put(&s->reqs, r);
}

/* ---- events ---- */

void sim_push_event(sim *s, double t, ev_type type, void *p)
{
	apiq_events_push(&s->events, t, (int)type, p);
}

/* ---- timeline ---- */

void sim_timeline(sim *s, const char *event_name, const tpod *p, const char *k, const char *v)
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

void sim_loop_continue(sim *s)
{
	sim_push_event(s, s->now, EV_LOOP, NULL);
}

void sim_activate(sim *s, tpod *p)
{
	if (p->bound || s->done)
		return;
	p->waiting = false;
	p->queued_at = s->now;
	fifo_push(p->kind == POD_PREEMPTOR ? &s->high : p->kind == POD_NORMAL ? &s->low : &s->lowest, p);
	if (!s->loop_busy || s->loop_sleeping) {
		s->loop_busy = true;
		s->loop_sleeping = false;
		sim_loop_continue(s);
	}
}

/* Into backoff: back to the active queue after the pod's backoff. */
void sim_requeue_backoff(sim *s, tpod *p)
{
	sim_push_event(s, s->now + p->backoff, EV_REQUEUE, p);
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
	tpod *p = sim_pod_new(s, gen_kind(s, i));
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
			sim_push_event(s, gen_time(s, s->gen_index), EV_ARRIVAL, NULL);
		} else {
			s->loop_busy = false;
		}
		return;
	}
	s->attempts++;
	sim_timeline(s, "attempt", p, NULL, NULL);
	/* Filter; PostFilter's dry run when nothing fits */
	double cost = s->o->cycle_cost + (fits(p) ? 0 : s->o->preempt_cost);
	sim_push_event(s, s->now + cost, EV_CYCLE_END, p);
}

/* The end of a scheduling cycle: bind, or PostFilter + failure handler. */
static void on_cycle_end(sim *s, tpod *p)
{
	if (fits(p)) {
		if (!p->members) {
			sim_start_binding(s, p);  /* the binding cycle runs on its own goroutine */
		} else {
			/* the group's cycle placed every member; each binds on its own */
			for (tpod *m = p->members; m; m = m->next_member) {
				sim_pod_ref(m);  /* the scheduler's, released when it binds */
				sim_start_binding(s, m);
			}
			sim_pod_unref(s, p);  /* the scheduler is done with the group */
		}
		sim_loop_continue(s);
		return;
	}
	if (p->kind == POD_UNSCHED) {
		s->preempt_attempts++;  /* PostFilter ran and found no candidate */
		if (p->srv_msg < 0 || apiq_rng_unit(&s->r) < s->o->patch_change)
			p->msg = (p->srv_msg + 1) % NMSG;
		else
			p->msg = p->srv_msg;
		sim_patch_status(s, p, p->msg, SIM_NONE, false, true);
		sim_requeue_backoff(s, p);
		return;
	}
	s->preempt_attempts++;
	if (p->preempted) {
		/* victims still terminating: not eligible; wait for their deletes */
		p->waiting = true;
		sim_patch_nomination(s, p);
		if (p->victims_left == 0 && !p->preempting)
			sim_activate(s, p);
		return;
	}
	sim_start_preemption(s, p);
	if (s->o->gates.async_preemption)
		sim_nominate(s, p);
}

/* ---- events of the scheduler ---- */

static void on_victim_gone(sim *s, tpod *p)
{
	if (p->victims_left > 0)
		p->victims_left--;
	sim_timeline(s, "victimDeleted", p, NULL, NULL);
	/* the last victim's delete event requeues the preemptor; PreEnqueue
	 * lets it through once the last victim is gone (#134730) */
	if (p->victims_left == 0 && p->waiting && !p->bound)
		sim_activate(s, p);
	sim_pod_unref(s, p);
}

static void on_churn(sim *s)
{
	if (s->done)
		return;
	sim_activate(s, sim_pod_new(s, POD_UNSCHED));
	sim_push_event(s, s->now + 1.0 / s->o->churn, EV_CHURN, NULL);
}

static void run_events(sim *s)
{
	while (s->events.n > 0) {
		apiq_event e = apiq_events_pop(&s->events);
		if (s->o->until > 0 && e.t > s->o->until)
			break;
		s->now = e.t;
		if (s->series)
			apiq_series_at(s->series, s->now, s->q.pending, s->types->n, s->running, s->preempting);
		switch ((ev_type)e.type) {
		case EV_LOOP: s->loop_busy = true; on_loop(s); break;
		case EV_ARRIVAL:
			if (s->loop_sleeping) {
				s->loop_sleeping = false;
				on_loop(s);
			}
			break;
		case EV_CYCLE_END: on_cycle_end(s, e.p); break;
		case EV_REQ: sim_request_done(s, e.p); break;
		case EV_CHURN: on_churn(s); break;
		case EV_REQUEUE: sim_activate(s, e.p); break;
		case EV_VICTIM_GONE: on_victim_gone(s, e.p); break;
		}
		if (s->done && !(s->o->until > 0))
			break;
	}
}

/* ---- one run ---- */

void sim_init(sim *s, const apiq_run_opts *o, const apiq_types *types)
{
	memset(s, 0, sizeof(*s));
	s->o = o;
	s->types = types;
	apiq_rng_seed(&s->r, o->seed);
	s->tokens = o->burst;
	apiq_pool_init(&s->pods, sizeof(tpod));
	apiq_pool_init(&s->reqs, sizeof(treq));
	apiq_pool_init(&s->calls, sizeof(tcall));
	apiq_pool_init(&s->jobs, sizeof(tjob));
	sim_dispatcher_init(s);
	for (int t = 0; t < APIQ_MAX_TYPES; t++)
		for (int r = 0; r < 2; r++)
			apiq_hist_init_exp(&s->exec_dur[t][r], 0.001, 2, 15);
	apiq_hist_init_exp(&s->victims_hist, 1, 2, 7);
	apiq_hist_init_exp(&s->goroutine_dur[0], 0.01, 2, 20);
	apiq_hist_init_exp(&s->goroutine_dur[1], 0.01, 2, 20);
}

void sim_free(sim *s)
{
	apiq_queue_free(&s->q);
	apiq_pool_free(&s->pods);
	apiq_pool_free(&s->reqs);
	apiq_pool_free(&s->calls);
	apiq_pool_free(&s->jobs);
	apiq_events_free(&s->events);
}

/* A PodGroup's n member pods: measured each; a preemptor's fit once the
 * group's victims are gone. */
static void add_members(sim *s, tpod *group, int n)
{
	for (int k = 0; k < n; k++) {
		tpod *m = sim_pod_new(s, group->kind);  /* its ref: the group's hold */
		m->measured = true;
		m->preempted = group->kind == POD_PREEMPTOR;
		m->next_member = group->members;
		group->members = m;
	}
}

/* Materialise plan pods at t=0 (in input order within each priority). */
static void load_plans(sim *s, const sim_plan *plans, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		tpod *p = sim_pod_new(s, plans[i].kind);
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

void sim_simulate(sim *s, const sim_plan *plans, size_t nplans)
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
		sim_push_event(s, 0, EV_CHURN, NULL);
	s->loop_busy = true;
	sim_push_event(s, 0, EV_LOOP, NULL);
	if (s->measured_total == 0 && !(s->o->until > 0))
		s->done = true;
	run_events(s);
}
