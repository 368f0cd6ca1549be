/* DefaultPreemption: victim units, the evaluation of one preemptor
 * (eligibility, filter pass, dry runs, SelectVictimsOnNode) and node choice
 * (pickOneNodeForPreemption) over candidates that need no snapshot, so that
 * preempt-plan chooses from victims' records with the same code. */
#ifndef PK_SCHED_PREEMPT_H
#define PK_SCHED_PREEMPT_H

#include "sched/engine/filter/filter.h"

/* ======================================================================
 * Victim units
 * ====================================================================== */

typedef struct pk_victim_unit {
	pk_pod **pods;            /* one pod for per-pod preemption */
	int npods;
	int32_t priority;         /* unit priority (a PodGroup's own priority for gangs) */
	int64_t earliest_start;   /* earliest start of its pods (now if none started) */
	bool is_group;
	bool is_composite;        /* a CompositePodGroup's (outranks a PodGroup's) */
	bool violating;           /* set by pk_units_pdb_split */
	int violating_pods;       /* its pods whose eviction violates a PDB (the
	                           * per-pod path counts these, ViolateCount) */
} pk_victim_unit;

/* moreImportantVictim; <0 if a is more important. For single pods this is
 * pk_pod_importance_cmp. */
int pk_unit_importance_cmp(const pk_victim_unit *a, const pk_victim_unit *b, int64_t now);
void pk_units_sort(pk_victim_unit *u, int n, int64_t now);

/* filterPodsWithPDBViolation over units in importance order, with a fresh
 * budget (status.disruptionsAllowed) per call; sets ->violating (a unit
 * violates if any member does). */
void pk_units_pdb_split(const pk_snapshot *s, pk_victim_unit *u, int n);

/* Greedy reprieve: units were all removed by the caller. Violating units
 * first, then the others, each in the given order: add back (apply(ctx,u,
 * true)), keep if fits(ctx), else remove again (apply(ctx,u,false)) and
 * append the unit index to victims_out. Returns the number of victims;
 * *violations counts victim units that are violating. */
typedef bool (*pk_fit_fn)(void *ctx);
typedef void (*pk_unit_apply_fn)(void *ctx, const pk_victim_unit *u, bool add);
int pk_units_reprieve(pk_victim_unit *u, int n, pk_fit_fn fits, pk_unit_apply_fn apply, void *ctx,
                      int *victims_out, int *violations);

/* ======================================================================
 * Evaluation of one preemptor
 * ====================================================================== */

/* A preemptor: a pod (given or pending) plus where it came from. */
typedef struct pk_preemptor {
	pk_pod *pod;              /* decoded view; arena-owned */
	cJSON *object;            /* the pod object to echo in output (owned), may be NULL */
	const char *source;       /* "Pod", "Deployment", ... */
	const char *file;         /* input file, for messages */
	/* What the answer for this preemptor assumes, one sentence each: a
	 * cJSON array of strings owned by the caller, or NULL. The Preemptor
	 * record's "warnings" list them after the unmodelled features. */
	cJSON *warnings;
	/* DefaultPreemption.PostFilter's stop for a pod of a pod group
	 * (pk_postfilter_group_gate), decided by the caller: the pod is then
	 * NotEligible with this status message. NULL: the evaluator runs. */
	const char *gate_message; /* "preemption: not eligible due to ..." */
	const char *gate;         /* the feature gate that decided */
	/* KEP-5836 (#140000): a bound pod (pod->node_name) whose in-place
	 * resize the kubelet Deferred, as the scheduler evaluates it with
	 * InPlacePodVerticalScalingSchedulerPreemption on: its own node only
	 * (the others are left out by NodeName's PreFilterResult), the node's
	 * spec.podPreemptionPolicy honoured (DeferredPodScheduling), its own
	 * entry on the node (resize_own, the snapshot's pod: its allocated
	 * resources) left out for the evaluation so that its spec requests
	 * are what must fit, no nomination written. pod is its view with the
	 * Filter plugins upstream skips for it (node selection, taints, ports,
	 * pod affinity, spread, volumes) left out. resize_refusal: with the
	 * gate off, why the scheduler does not take it (NotEligible, after the
	 * same filter pass). */
	bool resize;
	pk_pod *resize_own;       /* may be NULL: the input lacks the bound pod */
	const char *resize_refusal;
} pk_preemptor;

/* The pod-group gating at the start of DefaultPreemption.PostFilter, for a
 * pod that no node fits, by the release profile's postfilter_gating.
 * Kubernetes 1.37 (#139520): GenericWorkload on and
 * the pod names a PodGroup (found or not): stopped ("workload aware
 * preemption enabled"). Before 1.37 (default_preemption.go at the commit
 * preemption.md pins):
 *   TopologyAwareWorkloadScheduling on and the pod names a PodGroup: a
 *     PodGroup missing from the input stops it ("pod group for pod not
 *     found"), one with spec.schedulingConstraints too (the
 *     "placement-based pod group scheduling limitation");
 *   then WorkloadAwarePreemption on and the pod names a PodGroup: stopped
 *     ("workload aware preemption enabled"), the group being preempted
 *     for as a whole by PodGroupPostFilter instead.
 * GenericWorkload off: the apiserver drops spec.schedulingGroup, so no pod
 * names a group. One implementation for victims and the simulator, which
 * both assemble the input with pk_pg_postfilter_gate (podgroup.h). */
typedef struct pk_group_gate_in {
	const pk_release_profile *release; /* the gates and the release's gating rule */
	bool has_group;             /* spec.schedulingGroup names a PodGroup */
	bool group_found;           /* that PodGroup is in the input */
	bool group_has_constraints; /* it has spec.schedulingConstraints */
} pk_group_gate_in;

typedef struct pk_group_gate {
	const char *message;      /* upstream's status message, or NULL: the evaluator runs */
	const char *gate;         /* the gate that decided (NULL with message) */
} pk_group_gate;

pk_group_gate pk_postfilter_group_gate(const pk_group_gate_in *in);

/* DefaultPreemption.PostFilter's pod-group gating (pk_postfilter_group_gate)
 * of a pod that names a scheduling group (has_group) found as pg (NULL: not
 * in the input), with the set's release profile: the one place its input
 * is assembled, for victims and the simulator. */
struct pk_pg_set;
struct pk_podgroup;
pk_group_gate pk_pg_postfilter_gate(const struct pk_pg_set *g, bool has_group, const struct pk_podgroup *pg);

/* A device of a victim's allocated ResourceClaim as KEP-5690's dry run
 * treats it (--dra-preemption=kep-5690; dra_preempt.c): freed for the
 * preemptor when why is empty, else kept, why saying so (a claim shared with
 * a pod that stays, a device not node-local). For reports only. */
typedef struct pk_victim_device {
	const char *claim_namespace, *claim_name, *driver, *pool, *device;
	char why[200];
} pk_victim_device;

typedef struct pk_victim_ref {
	const char *namespace_, *name, *uid, *node;
	int32_t priority;
	int64_t start_time;
	bool has_start_time;
	bool violating;           /* counted as a PDB violation */
	bool terminating;         /* already being deleted: the executor skips it */
	uint8_t owner_trim;       /* see owner_kind below */
	uint16_t ndevices;        /* see devices below */
	/* For reports (NULL when a record did not carry them): the pod's
	 * priorityClassName, its owner workload (as pk_pod.controller_kind
	 * says: the name without its last owner_trim characters a Deployment's),
	 * the PodGroup it names (spec.schedulingGroup.podGroupName), and when
	 * violating, a PodDisruptionBudget that selects it. */
	const char *class_name, *owner_kind, *owner_name, *pod_group, *pdb;
	/* Under --dra-preemption=kep-5690, for reports: the devices of the
	 * victim's claims, freed or kept (NULL, 0 otherwise). */
	const pk_victim_device *devices; /* ndevices of them (in the padding above) */
} pk_victim_ref;

/* A PodGroup (or CompositePodGroup) that loses pods to a plan. Upstream's
 * numPodGroupDisruptions counts the victim units whose pods name a
 * scheduling group (isGroupVictim, preemption/types.go): the members of a
 * disruptionMode-all group are one unit, wherever they run; a member of a
 * group with mode single is one on its own. An entry gathers the units of
 * one group. */
typedef struct pk_group_disruption {
	const char *namespace_, *name; /* the group evicted whole, else the pod's PodGroup */
	bool composite;                /* a CompositePodGroup */
	bool whole;                    /* disruptionMode all: its members went as one unit */
	int units;                     /* its disruptions (victim units) */
	int pods;                      /* its pods among the victims */
} pk_group_disruption;

/* The pod-group disruptions of victim units u[0..n): one entry per group,
 * in the units' order, into out (room for n), *nout of them; returns the
 * units that are pod groups (numPodGroupDisruptions). */
int pk_pg_disruptions(const struct pk_pg_set *g, const pk_victim_unit *u, int n, pk_group_disruption *out, int *nout);

typedef struct pk_candidate {
	const char *node;
	pk_victim_ref *victims;   /* most important first */
	int nvictims;
	int num_pdb_violations;
	/* Pods nominated to this node with lower priority than the preemptor:
	 * their nomination is cleared if this node is chosen. */
	pk_victim_ref *clear_nominations;
	int nclear;
	/* What node choice compares, so that it need not walk the victims
	 * (which may be left out: pk_eval_opts.victims_of_best_only). Set by
	 * pk_candidate_summarize, or by the engine as it selects. */
	int32_t top_priority;     /* victims[0].priority; INT32_MIN without victims */
	int64_t priority_sum;     /* sum of (priority + MaxInt32 + 1) */
	int64_t top_start;        /* earliest start of the top-priority victims that
	                           * have one; INT64_MAX if none has */
	bool top_unstarted;       /* a top-priority victim has no start time (= now) */
	bool summarized;          /* the four above are set (node choice works them
	                           * out from victims otherwise) */
	/* Victim units that are pod groups (upstream's numPodGroupDisruptions),
	 * set where victims are units (Kubernetes 1.37 with PodGroups), else 0;
	 * the groups they are: pk_candidate_disruptions, ndisruptions of them. */
	uint16_t ndisruptions;
	int num_pod_group_disruptions;
	/* The Candidate record's nodeResources member, moved out of the record
	 * by pk_candidate_from_json (the decoder's caller deletes it), passed on
	 * to the plan as it is; NULL when the record had none. */
	cJSON *node_resources;
} pk_candidate;

/* Every dry run writes a candidate for every node it tries: it stays 72
 * bytes, the pod-group disruptions (rare) living in the victims'
 * allocation, after the victims, ndisruptions of them (an allocation that
 * has them gives the room: pk_candidate_disruptions_room). */
_Static_assert(sizeof(void *) != 8 || sizeof(pk_candidate) <= 72, "pk_candidate grew beyond 72 bytes");
static inline const pk_group_disruption *pk_candidate_disruptions(const pk_candidate *c)
{
	return c->ndisruptions && c->victims ? (const pk_group_disruption *)(const void *)(c->victims + c->nvictims)
	                                     : NULL;
}
/* The bytes of a victims array of n refs followed by nd disruptions. */
static inline size_t pk_candidate_disruptions_room(int n, int nd)
{
	return sizeof(pk_victim_ref) * (size_t)(n > 0 ? n : 1) + sizeof(pk_group_disruption) * (size_t)(nd > 0 ? nd : 0);
}
_Static_assert(sizeof(pk_victim_ref) % _Alignof(pk_group_disruption) == 0, "disruptions after the victims: aligned");

/* The pod of the node that r names (namespace and name), or NULL. */
pk_pod *pk_nodeinfo_find_pod(const pk_nodeinfo *ni, const pk_victim_ref *r);
/* A victim reference to bound pod p (violating and pdb unset). */
void pk_victim_ref_of_pod(pk_victim_ref *r, const pk_pod *p);

/* Fill the node-choice summary from c->victims. */
void pk_candidate_summarize(pk_candidate *c);

typedef enum {
	PK_PRE_NOT_ELIGIBLE,       /* PodEligibleToPreemptOthers said no */
	PK_PRE_FITS,               /* some node passes the filters: no preemption needed */
	PK_PRE_NEEDS_PREEMPTION,   /* candidates exist */
	PK_PRE_UNSCHEDULABLE,      /* preemption cannot help */
} pk_pre_status;

const char *pk_pre_status_name(pk_pre_status s); /* NotEligible, FitsWithoutPreemption, ... */

/* Per node: what the filter pass and the dry run said. */
typedef struct pk_node_eval {
	const pk_nodeinfo *ni;
	/* Statuses by reference, so that a 5,000-node evaluation stays small:
	 * they live in the evaluation's arena, in the memo (pk_eval_memo) that
	 * outlives it, or are the shared pk_status_success. */
	const pk_status *filter;  /* status of the scheduling-cycle filter pass */
	const pk_status *dry;     /* SelectVictimsOnNode's (Success = candidate), or
	                           * NULL when it was not run on the node */
	int candidate;            /* index into candidates, or -1 */
} pk_node_eval;

typedef struct pk_eval_opts {
	/* Candidate sampling. sample=false (default): every potential node. */
	bool sample;
	int min_candidate_nodes_percentage;   /* upstream default 10 */
	int min_candidate_nodes_absolute;     /* upstream default 100 */
	long offset;                          /* upstream: rand.Int31n(n); here given */
	/* Fill victims for the chosen candidate only; the others keep their
	 * counts and summary, without victims or clear_nominations. For
	 * callers that use nothing else (the simulator): on a 5,000-node
	 * cluster, copying every candidate's victims costs more than choosing
	 * them. */
	bool victims_of_best_only;
	/* With victims_of_best_only: per-node results kept across evaluations
	 * (pk_eval_memo_new), or NULL. */
	struct pk_eval_memo *memo;
	/* Threads for a memo's dry runs of every potential node (after a new
	 * shape): 0 = one per core, at most 4; 1 = the caller's alone. Used
	 * from threads_from potential nodes on (0 = 4,096). The answer is the
	 * same either way. */
	int threads;
	long threads_from;
	/* The release answered for (the release profile's minor; the newest
	 * by default), which the records name (pk_evaluation.k8s_minor). */
	int k8s_minor;
} pk_eval_opts;

/* Per-node results of the last preemptor shape evaluated. Consecutive
 * preemptors that ask for the same thing (replicas of one template: same
 * priority, requests, tolerations, node selection) get the filter status
 * and the dry-run summary of every node that has not changed since (its
 * generation) without recomputing them; only the node the previous
 * decision touched is evaluated again. Used when the arithmetic path
 * applies (no host ports, extended resources, spread or pod affinity) and
 * the preemptor is not nominated. The arrays of the pods given to
 * pk_evaluate (tolerations, selectors) must outlive the memo or the next
 * pk_evaluate with it. */
typedef struct pk_eval_memo pk_eval_memo;
pk_eval_memo *pk_eval_memo_new(void);
/* The caller (the simulator) vouches that no two pods it may nominate share
 * a uid: a node then never holds a nominated twin of the preemptor, which
 * the scheduler would leave out of its view. With it the memo keeps the
 * whole evaluation of a shape between decisions (see memo.c, pk_session):
 * the evaluation's nodes are then lent until the next one, and candidates
 * lists the chosen candidate alone (ncandidates still counts them all; a
 * node's candidate index is 0 for it and -1 for the others). */
void pk_eval_memo_uids_unique(pk_eval_memo *m, bool unique);
void pk_eval_memo_free(pk_eval_memo *m);

void pk_eval_opts_default(pk_eval_opts *o);
/* What the option layer decided (k8s/options.h): the release the records
 * name and the dry runs' threads. */
void pk_eval_opts_engine(pk_eval_opts *o, const pk_engine_opts *e);

/* A FitError's histogram (framework.Diagnosis): every reason of the nodes'
 * statuses with the number of nodes that gave it, counted by the exact
 * string as upstream's FitError.Error() counts them, in the order its
 * message lists them ("N reason" sorted as strings). */
typedef struct pk_fit_reason {
	const char *reason;
	long nodes;
} pk_fit_reason;

typedef struct pk_fit_error {
	long nnodes;              /* the N of "0/N nodes are available" */
	pk_fit_reason *reasons;   /* arena */
	int n;
} pk_fit_error;

typedef struct pk_evaluation {
	const pk_preemptor *preemptor;
	pk_pre_status status;
	const char *message;      /* FailedScheduling-style text: filter FitError, then
	                           * "preemption: " and the eligibility or preemption
	                           * FitError; "" when the pod fits (arena) */
	/* The same, structured (the records carry it, so that nothing parses
	 * the text): the filter pass's FitError (n == 0 when the pod fits);
	 * what the PostFilter said after "preemption: " ("" when nothing:
	 * the pod fits, or preemption found candidates), and when that is
	 * DryRunPreemption's FitError, its histogram (else n == 0). */
	pk_fit_error filter_error;
	const char *postfilter;
	pk_fit_error preemption_error;
	pk_node_eval *nodes;      /* one per snapshot node, snapshot order */
	long nnodes;
	long nfit;                /* nodes passing the filter pass */
	long npotential;          /* nodes whose filter status is Unschedulable */
	long num_candidates;      /* sampling bound (GetOffsetAndNumCandidates) */
	long offset;
	pk_candidate *candidates; /* non-violating then violating, as upstream; with
	                           * a memo whose uids are unique, the chosen one
	                           * alone (pk_eval_memo_uids_unique) */
	int ncandidates;
	int best;                 /* pk_pick_one_node result, or -1 */
	const char *decided_by;   /* the criterion that chose it (pk_pick_one_node_why) */
	int k8s_minor;            /* pk_eval_opts.k8s_minor: the release its records name */
	/* PreEnqueue kept the pod out of the queue (SchedulingGates: a gated
	 * pod, pk_pod_gated): no node was looked at (nnodes 0), status
	 * Unschedulable, message the plugin's; nothing is played forward. */
	bool pre_enqueue;
	pk_arena arena;           /* owns everything above */
} pk_evaluation;

/* Evaluate one preemptor against the current snapshot state. */
void pk_evaluate(pk_snapshot *s, const pk_preemptor *p, const pk_eval_opts *o, pk_evaluation *out);
void pk_evaluation_free(pk_evaluation *e);

/* Play the chosen plan forward: remove the victims of the best candidate
 * from their node, clear lower-priority nominations there and nominate the
 * preemptor to the node (so later preemptors see it, priority >= rule).
 * Unschedulable: clear the preemptor's nomination, as upstream does (not
 * after PreEnqueue: a gated pod never ran a cycle). Other
 * outcomes change nothing (a pod that fits is not placed: scoring is not
 * modelled). */
void pk_snapshot_apply(pk_snapshot *s, const pk_evaluation *e);

/* SelectVictimsOnNode for one node (state restored on return). victims is
 * filled in importance order (arena-allocated from e->arena). */
pk_status pk_select_victims_on_node(pk_cycle *c, const pk_pod *preemptor, pk_nodeinfo *ni,
                                    pk_arena *arena, pk_candidate *out);

/* The victims (and nominations to clear) of candidate c of an evaluation
 * of preemptor with victims_of_best_only, which left them out, into *out
 * (arena-allocated): the same selection again, on the snapshot as that
 * evaluation left it. It reads and completes only cand's node (the
 * arithmetic path), so threads may call it for different nodes at once.
 * false if the selection does not come out as it did (a bug). */
bool pk_candidate_list_victims(pk_snapshot *s, const pk_pod *preemptor, const pk_candidate *cand, pk_arena *arena,
                               pk_candidate *out);

/* PodEligibleToPreemptOthers. On false, *why is the upstream message. */
bool pk_pod_eligible_to_preempt(pk_cycle *c, const pk_pod *p, const char **why);


/* FitError text: "0/N nodes are available: <count> <reason>, ...." with
 * reasons counted and sorted as strings; the histogram into *out (arena)
 * when out is not NULL. */
char *pk_fit_error_message(pk_arena *a, long nnodes, const pk_status *const *statuses, long n, pk_fit_error *out);

/* ======================================================================
 * Node choice
 * ====================================================================== */

/* pickOneNodeForPreemption: fewest PDB violations, lowest highest-victim
 * priority, smallest sum of (priority + MaxInt32 + 1), fewest victims,
 * latest earliest-start among highest-priority victims (unset = now),
 * then smallest node name. Returns the index, -1 if n == 0. */
int pk_pick_one_node(const pk_candidate *c, int n, int64_t now);
/* The same, and the criterion that decided, as upstream applies them: each
 * keeps the best-scoring nodes and the choice is made at the criterion
 * where the last other candidate drops out. *decided_by is one of "the
 * only candidate", "fewest PDB violations", "lowest highest-victim
 * priority", "smallest priority sum", "fewest victims", "latest start of
 * the highest-priority victims", "node name (upstream: map order)". */
int pk_pick_one_node_why(const pk_candidate *c, int n, int64_t now, const char **decided_by);

/* The distinct names of names[0..n) (node names, say), in order of first
 * appearance, as "a, b, c" into buf; when they do not all fit in size,
 * the first ones and ", and K more". Returns how many are distinct. A plan's
 * reason names every node it touches with it. */
int pk_names_text(const char *const *names, int n, char *buf, size_t size);

/* GetOffsetAndNumCandidates with a given offset (taken modulo n). */
long pk_num_candidates(long n, int pct, int abs);

#endif
