/* timed mode's API side: the apiserver behind client-go's token bucket
 * (latency, errors), the API dispatcher of SchedulerAsyncAPICalls
 * (KEP-5229) with its call queue, the pods' status as the apiserver holds
 * it, and binding. See sim.h. */
#include "sim.h"

#include <math.h>
#include <string.h>

const char *const sim_messages[NMSG] = {
	"0/5000 nodes are available: 5000 Insufficient cpu. (v0)",
	"0/5000 nodes are available: 5000 Insufficient cpu. (v1)",
	"0/5000 nodes are available: 5000 Insufficient cpu. (v2)",
	"0/5000 nodes are available: 5000 Insufficient cpu. (v3)",
	"0/5000 nodes are available: 5000 Insufficient cpu. (v4)",
	"0/5000 nodes are available: 5000 Insufficient cpu. (v5)",
	"0/5000 nodes are available: 5000 Insufficient cpu. (v6)",
	"0/5000 nodes are available: 5000 Insufficient cpu. (v7)",
};
const char SIM_NODE[] = "node-0", SIM_NONE[] = "";

/* ---- the apiserver behind the client's rate limiter ---- */

static double latency(sim *s)
{
	double m = s->o->latency;
	switch (s->o->latency_dist) {
	case APIQ_LAT_CONST: return m;
	case APIQ_LAT_LOGNORMAL: {
		/* sigma 1, mean m: mu = ln m - 1/2; Box-Muller */
		double u1 = apiq_rng_unit(&s->r), u2 = apiq_rng_unit(&s->r);
		double z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
		return m > 0 ? exp(log(m) - 0.5 + z) : 0;
	}
	case APIQ_LAT_EXP: break;
	}
	return -m * log(apiq_rng_unit(&s->r));
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

void sim_send_request(sim *s, treq *r)
{
	double wait = reserve_token(s);
	if (wait > 0) {
		s->requests_throttled++;
		s->throttled_seconds += wait;
	}
	if (s->series)
		apiq_series_request(s->series, wait);
	r->issued = s->now;
	r->error = s->o->error_rate > 0 && apiq_rng_unit(&s->r) < s->o->error_rate;
	s->requests++;
	if (r->error)
		s->request_errors++;
	sim_push_event(s, s->now + wait + latency(s), EV_REQ, r);
}

/* ---- pod status and the dispatcher ---- */

static void status_of(const tpod *p, apiq_podstatus *st)
{
	memset(st, 0, sizeof(*st));
	st->nnn = p->srv_nnn;
	if (p->srv_msg >= 0) {
		st->ncond = 1;
		st->cond[0] = (apiq_cond){"PodScheduled", "False", "Unschedulable", sim_messages[p->srv_msg], "", ""};
	}
}

static void store_status(tpod *p, const apiq_podstatus *st)
{
	p->srv_nnn = st->nnn;
	for (int i = 0; i < st->ncond; i++)
		for (int m = 0; m < NMSG; m++)
			if (st->cond[i].message == sim_messages[m])
				p->srv_msg = m;
}

static void nomination_recorded(sim *s, tpod *p)
{
	if (p->nominated || p->srv_nnn != SIM_NODE || !p->measured)
		return;
	p->nominated = true;
	apiq_pct_add(&s->ttn, s->now - p->created);
	sim_timeline(s, "nominated", p, "node", SIM_NODE);
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
	sim_pod_unref(s, tc->pod);
	apiq_pool_put(&s->calls, tc);
}

void sim_dispatcher_init(sim *s)
{
	apiq_hooks h = {s, hook_relevance, hook_merge, hook_is_noop, hook_finish, hook_release};
	apiq_queue_init(&s->q, &h);
}

static tcall *call_new(sim *s, tpod *p, int type)
{
	tcall *c = apiq_pool_get(&s->calls);
	c->pod = p;
	sim_pod_ref(p);
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
		treq *r = sim_req_new(s, REQ_CALL, NULL);
		r->call = c;
		sim_send_request(s, r);
	}
}

/* A pod status patch (failure handler, nomination clearing). With
 * loop_waits the scheduling loop goes on once the patch is done (sync) or
 * handed to the dispatcher (async). msg < 0: no condition. */
void sim_patch_status(sim *s, tpod *p, int msg, const char *nnn, bool override, bool loop_waits)
{
	apiq_cond cond = {"PodScheduled", "False", "Unschedulable", msg >= 0 ? sim_messages[msg] : "", "", ""};
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
			sim_loop_continue(s);
		return;
	}
	/* updatePod: no request when nothing would change */
	apiq_podstatus st;
	status_of(p, &st);
	if (!apiq_status_apply(&st, &cond, ncond, mode, nnn)) {
		if (loop_waits)
			sim_loop_continue(s);
		return;
	}
	treq *r = sim_req_new(s, REQ_PATCH, p);
	r->patch = st;
	r->loop_waits = loop_waits;
	sim_send_request(s, r);
}

/* ---- binding ---- */

void sim_start_binding(sim *s, tpod *p)
{
	if (s->o->gates.async_api_calls) {
		tcall *c = call_new(s, p, APIQ_TYPE_BINDING);
		c->x.node = SIM_NODE;
		dispatcher_add(s, c);
	} else {
		sim_send_request(s, sim_req_new(s, REQ_BIND, p));
	}
}

static void bind_result(sim *s, tpod *p, bool ok)
{
	if (p->bound)
		return;
	if (!ok) {
		sim_timeline(s, "bindFailed", p, NULL, NULL);
		sim_requeue_backoff(s, p);  /* forget the assumed pod, back off */
		return;
	}
	p->bound = true;
	sim_timeline(s, "bound", p, NULL, NULL);
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
	sim_pod_unref(s, p);  /* the scheduler is done with it */
}

/* ---- answers ---- */

void sim_request_done(sim *s, treq *r)
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
			sim_loop_continue(s);
		break;
	case REQ_CALL:
		call_done(s, r->call, true, r->error);
		break;
	case REQ_VICTIM_PATCH:
		if (!r->error)
			s->disruption_targets[r->pod->members != NULL]++;
		if (r->error) {
			sim_victim_done(s, j, true);
		} else {
			treq *d = sim_req_new(s, REQ_VICTIM_DELETE, r->pod);
			d->job = j;
			sim_send_request(s, d);
		}
		break;
	case REQ_VICTIM_DELETE:
		if (!r->error) {
			sim_pod_ref(r->pod);
			sim_push_event(s, s->now + s->o->informer_delay, EV_VICTIM_GONE, r->pod);
		}
		sim_victim_done(s, j, r->error);
		break;
	}
	sim_req_free(s, r);
}

