/* timed mode's preemption: PostFilter's actuation for a preemptor (a pod,
 * or a PodGroup as one unit): the victims' DisruptionTarget patches and
 * deletes through the Parallelizer, in the cycle (sync) or on a goroutine
 * that holds the last victim back (SchedulerAsyncPreemption, KEP-4832),
 * and the nomination the failure handler writes. See sim.h. */
#include "sim.h"

static void victim_start(sim *s, tjob *j)
{
	treq *r = sim_req_new(s, REQ_VICTIM_PATCH, j->pod);
	r->job = j;
	sim_send_request(s, r);
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
void sim_patch_nomination(sim *s, tpod *p)
{
	if (!p->members) {
		sim_patch_status(s, p, p->msg, SIM_NODE, true, true);
		return;
	}
	for (tpod *m = p->members; m; m = m->next_member) {
		m->msg = p->msg;
		sim_patch_status(s, m, m->msg, SIM_NODE, true, m->next_member == NULL);
	}
}

/* The failure handler after PostFilter nominated the preemptor. */
void sim_nominate(sim *s, tpod *p)
{
	p->waiting = true;
	sim_patch_nomination(s, p);
	if (p->victims_left == 0 && !p->preempting)
		sim_activate(s, p);
}

static void job_end(sim *s, tjob *j)
{
	tpod *p = j->pod;
	p->preempting = false;
	s->preempting--;
	if (j->async) {
		s->goroutine_total[j->error]++;
		apiq_hist_observe(&s->goroutine_dur[j->error], s->now - j->started);
		sim_timeline(s, "goroutineDone", p, "result", j->error ? "error" : "success");
		if (j->error) {
			p->preempted = false;  /* Activate: it will preempt again */
			/* Activate(preemptor.Pods()): a pod group's every member */
			for (tpod *m = p->members; m; m = m->next_member)
				sim_timeline(s, "memberActivated", m, NULL, NULL);
		}
		if ((j->error || p->victims_left == 0) && p->waiting)
			sim_activate(s, p);
	} else if (j->error) {
		/* an error status: no nomination; back off */
		p->preempted = false;
		sim_requeue_backoff(s, p);
		sim_loop_continue(s);
	} else {
		sim_nominate(s, p);
	}
	sim_pod_unref(s, p);
	apiq_pool_put(&s->jobs, j);
}

void sim_victim_done(sim *s, tjob *j, bool error)
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

void sim_start_preemption(sim *s, tpod *p)
{
	tjob *j = apiq_pool_get(&s->jobs);
	j->pod = p;
	sim_pod_ref(p);
	j->async = s->o->gates.async_preemption;
	j->total = p->victims_left;
	j->started = s->now;
	p->preempting = true;
	p->preempted = true;
	s->preempting++;
	apiq_hist_observe(&s->victims_hist, j->total);
	sim_timeline(s, j->async ? "preemptionGoroutine" : "preemption", p, p->members ? "preemptor" : NULL, "podgroup");
	/* lower-priority nominations on the node are cleared first */
	for (int i = 0; i < p->clears; i++) {
		tpod *other = sim_pod_new(s, POD_UNSCHED);  /* stands for the nominated pod */
		other->srv_nnn = SIM_NODE;
		sim_patch_status(s, other, -1, SIM_NONE, true, false);
		sim_pod_unref(s, other);
	}
	if (j->total == 0) {
		job_end(s, j);
		return;
	}
	job_phase(s, j, j->async && j->total > 1 ? j->total - 1 : j->total);
}
