/* timed mode inside: the model's objects and one run's state, shared by
 *   loop.c       the scheduling queue and loop, pods, events, one run
 *   apiserver.c  the apiserver behind client-go's rate limiter, the API
 *                dispatcher, pod status and binding
 *   preemption.c PostFilter's actuation: sync batches, async goroutines
 *   plans.c      PreemptionPlan records read into plans
 *   summary.c    the Summary record, Prometheus metrics, -o json
 *   timed.c      a run per gate setting (apiq_run_main)
 * Internal to apiq-sim's timed mode; timed.h is what main.c sees. */
#ifndef APIQ_SIM_H
#define APIQ_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "asyncpreempt.h"
#include "events.h"
#include "metrics.h"
#include "plot.h"
#include "pool.h"
#include "queue.h"
#include "rng.h"
#include "timed.h"

typedef enum { POD_NORMAL, POD_PREEMPTOR, POD_UNSCHED } pod_kind;

/* Messages of the PodScheduled=False condition; a retry that "changes the
 * status" moves to the next one (the text lists changing node counts). */
#define NMSG 8
extern const char *const sim_messages[NMSG];
/* The one node pods are nominated to and bound on; "" = none. */
extern const char SIM_NODE[], SIM_NONE[];

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

/* One PreemptionPlan record as the run plays it (plans.c). */
typedef struct sim_plan { pod_kind kind; int victims, clears, members; } sim_plan;

typedef struct sim_plans {
	sim_plan *v;
	size_t n, cap;
} sim_plans;

typedef struct sim {
	const apiq_run_opts *o;
	const apiq_types *types;
	apiq_rng r;
	double now;
	apiq_events events;
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
	apiq_pool pods, reqs, calls, jobs;
	long live_pods, peak_live_pods;
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
	pk_out *tl_out;           /* --timeline */
	apiq_series *series;      /* -o html: the state sampled over time */
	long preempting;          /* preemptions in flight */
} sim;

/* loop.c: one run, pods, the scheduling queue. */
void sim_init(sim *s, const apiq_run_opts *o, const apiq_types *types);
void sim_free(sim *s);
/* Play the plans (or, with none, the generated workload) to the end. */
void sim_simulate(sim *s, const sim_plan *plans, size_t nplans);
void sim_push_event(sim *s, double t, ev_type type, void *p);
void sim_timeline(sim *s, const char *event_name, const tpod *p, const char *k, const char *v);
tpod *sim_pod_new(sim *s, pod_kind kind);
void sim_pod_unref(sim *s, tpod *p);
static inline void sim_pod_ref(tpod *p) { p->refs++; }
treq *sim_req_new(sim *s, req_what what, tpod *p);
void sim_req_free(sim *s, treq *r);
/* Into the active queue; wakes the scheduling loop. */
void sim_activate(sim *s, tpod *p);
/* Into backoff: back to the active queue after the pod's backoff. */
void sim_requeue_backoff(sim *s, tpod *p);
/* The scheduling loop goes on now. */
void sim_loop_continue(sim *s);

/* apiserver.c: requests, the dispatcher, status and binding. */
void sim_dispatcher_init(sim *s);
/* Send r through the client's rate limiter; its EV_REQ comes back. */
void sim_send_request(sim *s, treq *r);
/* A request's answer (EV_REQ). */
void sim_request_done(sim *s, treq *r);
/* A pod status patch (failure handler, nomination clearing). With
 * loop_waits the scheduling loop goes on once the patch is done (sync) or
 * handed to the dispatcher (async). msg < 0: no condition. */
void sim_patch_status(sim *s, tpod *p, int msg, const char *nnn, bool override, bool loop_waits);
void sim_start_binding(sim *s, tpod *p);

/* preemption.c: PostFilter's actuation. */
void sim_start_preemption(sim *s, tpod *p);
/* The failure handler after PostFilter nominated the preemptor. */
void sim_nominate(sim *s, tpod *p);
/* The nominated node written: a pod's, or each member's of a pod group. */
void sim_patch_nomination(sim *s, tpod *p);
/* A victim's patch or delete answered. */
void sim_victim_done(sim *s, tjob *j, bool error);

/* plans.c: PreemptionPlan records from the operands into plans; false
 * when some could not be read (said). */
bool sim_read_plans(pk_cli *cli, char *const *paths, size_t npaths, pk_stats *stats, sim_plans *plans);

/* summary.c */
cJSON *sim_summary_json(const sim *s);
/* --metrics FILE; -1 when it cannot be written (said). */
int sim_write_metrics_file(pk_cli *cli, const char *path, const sim *s);

#endif
