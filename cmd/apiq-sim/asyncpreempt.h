/* The preemption evaluator's actuation (KEP-4832): prepareCandidate (sync)
 * and prepareCandidateAsync + its goroutine, the preempting set,
 * lastVictimsPendingPreemption, IsPodRunningPreemption and the
 * DefaultPreemption PreEnqueue gate, over a simulated informer lister. */
#ifndef APIQ_ASYNCPREEMPT_H
#define APIQ_ASYNCPREEMPT_H

#include <stdbool.h>
#include <stddef.h>

/* Strings are borrowed (interned by the caller) for the evaluator's life. */
typedef struct apiq_pod_ref {
	const char *uid, *name, *ns;
	long long priority;
	bool has_priority;
	const char *nnn;  /* nominated pods: their current nominatedNodeName */
} apiq_pod_ref;

typedef struct apiq_victim {
	apiq_pod_ref pod;
	const char *patch;   /* "ok" | "fail" | "notFound" | "none" (condition already set) */
	const char *del;     /* "ok" | "fail" | "notFound" */
	bool deleting;       /* has a deletionTimestamp */
	bool in_lister;
} apiq_victim;

typedef struct apiq_preempt_req {
	apiq_pod_ref preemptor;    /* a pod, or a PodGroup (pod_group) */
	/* A PodGroup's preemption (PodGroupPostFilter, workload-aware): the
	 * group's UID keys the preempting set, its member pods are activated
	 * when the goroutine fails, and the victims' DisruptionTarget message
	 * names a podgroup. */
	bool pod_group;
	apiq_pod_ref *members;     /* owned; pod groups only */
	size_t nmembers;
	const char *scheduler;     /* the preemptor's schedulerName */
	const char *node;
	apiq_victim *victims;
	size_t nvictims;
	apiq_pod_ref *nominated;   /* pods nominated to node */
	size_t nnominated;
	/* goroutine progress: paused right before the last victim */
	bool at_last_victim;
	const char *first_err;
} apiq_preempt_req;

typedef struct apiq_preempt_env {
	void *ctx;
	/* An API request sent straight through the clientset; condition is the
	 * DisruptionTarget message a victim's status patch adds (else NULL). */
	void (*request)(void *ctx, const char *method, const apiq_pod_ref *pod, const char *sub,
	                const char *condition);
	/* Clear a lower-priority pod's nomination: through the dispatcher
	 * (APICacher.PatchPodStatus) when async API calls are on. */
	void (*clear_nomination)(void *ctx, const apiq_pod_ref *pod);
	bool async_api_calls;
} apiq_preempt_env;

typedef struct apiq_lister_pod {
	const char *uid, *ns, *name;
	bool deleting;
} apiq_lister_pod;

typedef struct apiq_last_victim {
	const char *preemptor, *ns, *name;
} apiq_last_victim;

/* Metrics the evaluator records. */
typedef struct apiq_preempt_metrics {
	long attempts;                 /* scheduler_preemption_attempts_total */
	long victims_buckets[8];       /* scheduler_preemption_victims: le 1..64, +Inf */
	double victims_sum;
	long victims_count;
	long goroutines_success, goroutines_error;
} apiq_preempt_metrics;

typedef struct apiq_evaluator {
	bool async;                    /* SchedulerAsyncPreemption */
	apiq_preempt_env env;
	apiq_lister_pod *lister; size_t nlister, caplister;
	const char **preempting; size_t npreempting, cappreempting;
	apiq_last_victim *last; size_t nlast, caplast;
	apiq_preempt_req *jobs; size_t njobs, capjobs;  /* started goroutines */
	const char **activated; size_t nactivated, capactivated;
	const char **deleted; size_t ndeleted, capdeleted;
	apiq_preempt_metrics m;
} apiq_evaluator;

/* A finished goroutine, for the runAsync result. */
typedef struct apiq_goroutine_result {
	const char *preemptor;
	bool error;
	char message[160];
} apiq_goroutine_result;

/* Does a preemptor of this kind preempt as one unit (workload-aware
 * preemption)? A PodGroup and a CompositePodGroup do; a Pod does not. The
 * one test of step's "preempt" operations and run's PreemptionPlan records. */
bool apiq_preemptor_is_group(const char *kind);

/* The DisruptionTarget condition's message a victim gets: it names the
 * preemptor's type as the executor's Type() does ("pod" or "podgroup");
 * NULL or "" scheduler: default-scheduler. */
void apiq_disruption_message(char *buf, size_t size, const char *scheduler, bool pod_group);

void apiq_eval_init(apiq_evaluator *ev, bool async, const apiq_preempt_env *env);
void apiq_eval_free(apiq_evaluator *ev);

/* PostFilter's actuation for the chosen candidate. Takes ownership of the
 * victims, nominated and members arrays of req. Sets *nominated to the node
 * when the preemptor is nominated (else NULL); on the sync path an error
 * fills err (else ""). */
void apiq_eval_preempt(apiq_evaluator *ev, apiq_preempt_req *req, const char **nominated,
                       char *err, size_t errsize);
/* Run the started goroutines, in start order: to completion, or (until_last)
 * up to the moment the last victim is registered in
 * lastVictimsPendingPreemption, just before it is preempted. *res gets a
 * malloc'ed array of *nres results of the goroutines that finished. */
void apiq_eval_run_async(apiq_evaluator *ev, bool until_last, apiq_goroutine_result **res, size_t *nres);
bool apiq_eval_is_running(const apiq_evaluator *ev, const char *uid);
/* DefaultPreemption.PreEnqueue: NULL = Success, else the status message.
 * group_uid: the PodGroup of a pod that names one (GenericWorkload), whose
 * preemption is then the one that holds it; NULL otherwise. */
const char *apiq_eval_pre_enqueue(const apiq_evaluator *ev, const char *uid, const char *group_uid);
/* The informer's delete event for a pod. */
void apiq_eval_pod_deleted(apiq_evaluator *ev, const char *uid);
/* The informer's update event showing a deletionTimestamp. */
void apiq_eval_pod_terminating(apiq_evaluator *ev, const char *uid);

#endif
