/* The NDJSON records victims writes and preempt-plan reads: one place that
 * encodes and decodes them, so the two tools cannot drift apart.
 *
 * A Preemptor's status is one of plan.h's result names (NoPreemptionNeeded,
 * Preempt, NotEligible, Unschedulable); preempt-plan also reads the older
 * FitsWithoutPreemption and NeedsPreemption.
 *
 * Every record names the release answered for, after its kind:
 * "kubernetesVersion":"1.37" (--kubernetes-version; pk_evaluation.k8s_minor).
 *
 *   {"kind":"Preemptor","preemptor":{namespace,name,uid,priority,
 *     preemptionPolicy,priorityClassName,schedulerName},"status":"Preempt",
 *     "message":"…","nodes":N,"fitsNodes":[…],"potentialNodes":N,
 *     "numCandidates":N,"offset":K,"warnings":[…],
 *     "postFilter":{"gate","status"} (when a feature gate stopped it),
 *     "diagnosis":{…} (NotEligible, Unschedulable: pk_diagnosis_emit), or
 *     "preEnqueue":{…} instead when PreEnqueue kept it out of the queue
 *     (pk_pre_enqueue_emit), "pod":{…},
 *     "placement":{…} (NoPreemptionNeeded: pk_placement_emit)}
 *   {"kind":"Candidate","preemptor":{namespace,name,uid,priority},"node":"…",
 *     "victims":[{namespace,name,uid,node,priority,startTime,priorityClassName,
 *       owner:{kind,name},podGroup,pdb}],
 *     "numPDBViolations":N,"numPodGroupDisruptions":N,"podGroupDisruptions":[…],
 *     "nominatedPodsToClear":[…],"nodeResources":{…}}
 *
 * A victim's priorityClassName, owner (the owner workload, pk_pod.owner_*),
 * podGroup (spec.schedulingGroup.podGroupName) and pdb (a budget that
 * selects a violating victim) are left out when empty; so are
 * numPodGroupDisruptions and podGroupDisruptions (pk_group_disruptions_emit)
 * when no victim unit is a pod group. nodeResources, of a Candidate and (an
 * array, one per node the plan touches) of a PreemptionPlan:
 *   {"node":"…","allocatable":{cpu,memory,pods,…},"requested":{…},
 *    "requestedAfter":{…}}
 * quantities as resource.Quantity strings (bytes as plain integers); what
 * the pods bound or nominated to the node request now (pods: how many) and
 * after the plan's victims are gone and its pods placed or nominated there.
 *   {"kind":"NodeStatus","preemptor":{…},"node":"…","stage":"Filter"|"DryRun",
 *     "code":"…","plugin":"…","reasons":[…],
 *     "untoleratedTaint":{key,value,effect} (TaintToleration's)}  (victims --explain)
 */
#ifndef PK_SCHED_RECORDS_H
#define PK_SCHED_RECORDS_H

#include <cjson/cJSON.h>
#include "sched/engine/engine.h"
#include "sched/engine/gang/gang.h"
#include "sched/engine/score/score.h"
#include "io/emit.h"
#include "io/writer.h"

/* The result names of a Preemptor record's status and a PreemptionPlan's
 * result, the same in every tool. */
typedef enum {
	PK_PLAN_NO_PREEMPTION_NEEDED,
	PK_PLAN_PREEMPT,
	PK_PLAN_NOT_ELIGIBLE,
	PK_PLAN_UNSCHEDULABLE,
	PK_PLAN_PREEMPTION_IN_PROGRESS,
} pk_plan_result;

const char *pk_plan_result_name(pk_plan_result r);
/* A Preemptor record's status: these names, or those victims wrote before
 * (FitsWithoutPreemption, NeedsPreemption), so that older pipes still
 * read. false if it is none of them. */
bool pk_plan_result_parse(const char *name, pk_plan_result *out);
/* What an evaluation found, in these names. */
pk_plan_result pk_plan_result_of(pk_pre_status s);

/* The priority sum node choice compares at its third step: each victim
 * adds its priority + 2^31 (MaxInt32 + 1), so one victim more always weighs
 * more than any priorities. The one way the tables and the report write
 * it: "Nx2^31+S" (N victims, S the plain sum of their priorities; no
 * blanks, so that a table's columns still split on them), so that a node
 * with sum 100 ranking above one with sum 0 reads right. Returns the
 * adjusted sum itself (to sort by). */
int64_t pk_adjusted_sum_text(long nvictims, int64_t priority_sum, char *buf, size_t size);
/* Its column's name in the tables, and the rule in one line (a table's
 * footer, the report under its table). */
#define PK_ADJUSTED_SUM_COLUMN "ADJUSTED-SUM"
#define PK_ADJUSTED_SUM_RULE                                                                                  \
	"ADJUSTED-SUM is the sum node choice compares (smallest wins): every victim adds its priority + 2^31, " \
	"written Nx2^31+S for N victims whose priorities sum to S, so fewer victims rank first whatever their priorities"

/* RFC 3339 UTC ("2024-01-02T03:04:05Z", fraction only when non-zero). */
void pk_format_time(int64_t unix_nanos, char *buf, size_t size);

/* {"namespace","name","uid","priority"} of a pod. */
cJSON *pk_pod_ref_json(const pk_pod *p, bool full);
cJSON *pk_victim_ref_json(const pk_victim_ref *v);
/* The same into e (key NULL inside an array). */
void pk_victim_ref_emit(pk_emit *e, const char *key, const pk_victim_ref *v);
/* Decode a victim ref; strings are interned through strs. false if not an object. */
bool pk_victim_ref_from_json(const cJSON *o, pk_strtab *strs, pk_victim_ref *out);

/* Under --dra-preemption=kep-5690 (victim_devices.c): a victim's devices
 * (v->devices) as its "frees" and "notFreed" arrays, into the open victim
 * object; nothing when it has none. */
void pk_victim_devices_emit(pk_emit *e, const pk_victim_ref *v);
/* The same decoded from victim object o into out (arrays in a). */
void pk_victim_devices_from_json(const cJSON *o, pk_strtab *strs, pk_arena *a, pk_victim_ref *out);
/* The devices victims v[0..n) free and those they keep, as text into buf
 * ("frees (KEP-5690): d/p/x, d/p/y (claim ns/c of ns/v); victims' devices
 * not freed (KEP-5690): ... (claim ns/c of ns/v: why)"): false when none. */
bool pk_victim_devices_text(const pk_victim_ref *v, int n, char *buf, size_t size);

/* A PodGroup's disruptionMode in the shape Kubernetes 1.<k8s_minor> serves
 * it (k8s/release.c): v1alpha2's string "PodGroup" | "Pod" in 1.36 (and
 * in 1.35, answered as 1.36), the union {"all": {}} | {"single": {}} of
 * v1beta1 and v1alpha3 in 1.37. */
void pk_disruption_mode_emit(pk_emit *e, const char *key, bool whole, int k8s_minor);
/* The pod-group disruptions of a plan or a candidate (engine.h,
 * pk_group_disruption), into the open object:
 *   "numPodGroupDisruptions": N,
 *   "podGroupDisruptions": [{"kind":"PodGroup"|"CompositePodGroup",
 *     "namespace","name","disruptionMode","disruptions":N,"pods":N}]  */
void pk_group_disruptions_emit(pk_emit *e, int num, const pk_group_disruption *d, int n, int k8s_minor);
/* Their decoding from a record that has them (both stay 0 otherwise):
 * at most max entries into d, strings interned. */
void pk_group_disruptions_from_json(const cJSON *o, pk_strtab *strs, pk_group_disruption *d, int max, int *num,
                                    int *n);

/* With s, the candidate's nodeResources from the snapshot (the victims gone,
 * the preemptor added); without, those the record it was read from had. */
/* k8s_minor: the release the record names ("kubernetesVersion"). */
cJSON *pk_candidate_json(const pk_snapshot *s, const pk_pod *preemptor, const pk_candidate *c, int k8s_minor);
/* The same record as compact text (malloc'd), what cJSON_PrintUnformatted
 * prints for pk_candidate_json's tree, without building one. */
char *pk_candidate_text(const pk_snapshot *s, const pk_pod *preemptor, const pk_candidate *c, int k8s_minor);
/* Write the Candidate records of e (pk_candidate_text with s) to out, in
 * order, built and printed on up to `threads` threads (0: one per CPU, at
 * most 4) 256 at a time: a 65,000-node snapshot has tens of thousands
 * of candidates, and each record reads scattered pods. Victims the
 * evaluation left out (victims_of_best_only) are listed again as they are
 * printed (pk_candidate_list_victims). Returns 0 or -1 on a write error. */
int pk_write_candidates(pk_out *out, pk_snapshot *s, const pk_evaluation *e, int threads);
/* Decode a Candidate record (victims arena-allocated). Its nodeResources is
 * moved out of o into out->node_resources, the caller's to cJSON_Delete. */
bool pk_candidate_from_json(cJSON *o, pk_strtab *strs, pk_arena *a, pk_candidate *out);
/* Only what node choice compares (the node, numPDBViolations and the
 * victims' summary, pk_candidate_summarize's): no victims, nominations or
 * nodeResources. The same summary as pk_candidate_from_json's. */
bool pk_candidate_summary_from_json(const cJSON *o, pk_strtab *strs, pk_candidate *out);

/* nodeResources of node ni when the pods in gone leave it and those in
 * added arrive. */
cJSON *pk_node_resources_json(const pk_nodeinfo *ni, const pk_pod *const *gone, int ngone,
                              const pk_pod *const *added, int nadded);
/* The same into e (key NULL inside an array). */
void pk_node_resources_emit(pk_emit *e, const char *key, const pk_nodeinfo *ni, const pk_pod *const *gone, int ngone,
                            const pk_pod *const *added, int nadded);

/* The parts of a FailedScheduling message that does not place the pod, as a
 * record's "diagnosis", so that nothing reads them back from the text:
 *   {"nodes":N,
 *    "filter":[{"reason":"…","nodes":N}],   the scheduling cycle's FitError
 *    "postFilter":"…",                        what the PostFilter said after
 *                                             "preemption: "
 *    "preemption":[{"reason":"…","nodes":N}]} when that was DryRunPreemption's
 *                                             FitError
 * reasons counted by their exact string, as FitError counts them. The
 * filter entry of TaintToleration's reason also names the taints
 * (upstream's reason does not, #134740): "taints":[{"key","value","effect",
 * "nodes"}], the first untolerated taint of each node, as its Filter finds
 * it. postFilter: gate when the per-pod PostFilter's gate stopped the pod
 * (preempt-plan --simulate says it apart), else the evaluation's. */
void pk_diagnosis_emit(pk_emit *e, const char *key, const pk_evaluation *ev, const char *gate);

/* Why a pod that PreEnqueue rejected waits (ev->pre_enqueue: a gated pod):
 *   {"plugin":"SchedulingGates","code":"UnschedulableAndUnresolvable",
 *    "message":"waiting for scheduling gates: [a b]",
 *    "podScheduled":{"status":"False","reason":"SchedulingGated",
 *                    "message":"Scheduling is blocked due to non-empty scheduling gates"}}
 * the plugin's status, and the pod's PodScheduled condition as the
 * apiserver set it at creation. A Preemptor record and a PreemptionPlan
 * carry it in place of "diagnosis" (no cycle ran). */
void pk_pre_enqueue_emit(pk_emit *e, const char *key, const pk_evaluation *ev);

/* victims' Preemptor record of evaluation e (the shape above), with
 * "placement" (pk_placement_emit) when pl places a pod that fits, its
 * assumption then last in "warnings": one encoder, as a tree or as
 * compact text (malloc'd; what cJSON_PrintUnformatted prints for the
 * tree). */
cJSON *pk_preemptor_json(const pk_evaluation *e, const pk_placement *pl);
char *pk_preemptor_text(const pk_evaluation *e, const pk_placement *pl);
/* NodeStatus records of --explain for node i of e (NULL if it is a
 * candidate), as a tree or as compact text (malloc'd): one encoder. */
cJSON *pk_node_status_json(const pk_evaluation *e, long i);
char *pk_node_status_text(const pk_evaluation *e, long i);
/* What such a record says: the status that ruled node i out, its stage
 * ("Filter" or "DryRun") and a note on preemption (NULL if none); NULL
 * for a candidate. */
const pk_status *pk_node_status_of(const pk_evaluation *e, long i, const char **stage, const char **preemption);
/* The nodes that are no candidate, grouped for a table (victims --explain,
 * and preempt-plan over its NodeStatus records): one group per plugin,
 * reasons, stage and code, with the count and the first nodes (all of them
 * when wide). */
typedef struct pk_node_group {
	char what[700];           /* "TaintToleration: node(s) had ... (Filter UnschedulableAndUnresolvable; ...)" */
	long count;
	char detail[1600];        /* DynamicResources' rejection in this tool's words, or "": part
	                           * of the key, kept apart from what (upstream's) */
	char nodes[400];          /* "a,b,c" then ",..." when more were left out */
	size_t nodes_len;
	bool more;
} pk_node_group;

typedef struct pk_node_groups {
	pk_node_group *g;
	long n;
	bool all_names;           /* list every node (up to the cell's room), not the first three */
} pk_node_groups;

/* taint: the taint TaintToleration stopped at ("key=value:Effect",
 * pk_taint_text), or NULL: nodes stopped at different taints are different
 * groups; detail: pk_dra_detail_text's account of a DynamicResources
 * rejection, or NULL, likewise. The row's reason ends with it after
 * "; preemptkit's detail: ". */
void pk_node_groups_add(pk_node_groups *gs, const char *node, const char *stage, const char *code,
                        const char *plugin, const char *const *reasons, int nreasons, const char *preemption,
                        const char *taint, const char *detail);
/* --explain's account of a node DynamicResources rejected, this tool's
 * (dra.h pk_dra_explain), beside the status, which stays upstream's: the
 * NodeStatus record's
 *   "draDetail":{"claim","request","cause","message"}  (claim, request left out when "")
 * and its one-line form "claim ns/name, request r: message" into buf
 * (NULL when node i has none). diagnosis.c. */
void pk_dra_detail_emit(pk_emit *em, const pk_evaluation *e, long i, const pk_status *st);
const char *pk_node_dra_detail_text(const pk_evaluation *e, long i, char *buf, size_t size);
const char *pk_dra_detail_text(const char *claim, const char *request, const char *message, char *buf,
                               size_t size);
/* A taint as kubectl taint and kubectl describe node write it:
 * "key=value:Effect", "key:Effect" without a value. */
const char *pk_taint_text(const char *key, const char *value, const char *effect, char *buf, size_t size);
/* The taint TaintToleration stopped node i of e at, as pk_taint_text
 * writes it into buf, or NULL when another plugin (or none) stopped it. */
const char *pk_node_taint_text(const pk_evaluation *e, long i, char *buf, size_t size);
/* A table row per group: PREEMPTOR, PRIORITY, RESULT "NotCandidate", NODE,
 * then the cells row_fn fills in (the tools' columns differ); frees. */
typedef void (*pk_node_group_row_fn)(void *ctx, const pk_node_group *g, const char *nodes, const char *reason);
void pk_node_groups_flush(pk_node_groups *gs, pk_node_group_row_fn fn, void *ctx);

/* "fits without preemption on N node(s): a, b, ..." naming the first
 * nshown of the n nodes (a pod that fits shows where). */
#define PK_FITS_SHOWN 5
const char *pk_fits_text(const char *const *nodes, int nshown, long n, char *buf, size_t size);

/* Key identifying a preemptor in records: uid if set, else namespace/name. */
void pk_preemptor_key(const cJSON *ref, char *buf, size_t size);

/* A placement (engine/score.h) in a record:
 *   {"node", "score", "scoredNodes", "tiedNodes", "tieBroken", "rule",
 *    "plugins": {name: {"score", "weight"}}, "assumes"}
 * (key NULL inside an array). */
void pk_placement_emit(pk_emit *e, const char *key, const pk_placement *pl);
/* "placed on NODE: score S, the highest of N node(s)[, tied with K-1
 * other(s): ...]". */
const char *pk_placement_text(const pk_placement *pl, char *buf, size_t size);
/* The same from the record pk_placement_emit wrote; NULL if it is none. */
const char *pk_placement_json_text(const cJSON *placement, char *buf, size_t size);

#endif
