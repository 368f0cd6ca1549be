/* What preempt.c (victim selection, node choice, the evaluation) and memo.c
 * (the cache across evaluations: the memo, the session, the dry runs of a
 * reset) share. Internal to sched/. */
#ifndef PK_SCHED_PREEMPT_INT_H
#define PK_SCHED_PREEMPT_INT_H

#include "sched/engine/filter/cycle.h"
#include "sched/engine/preempt/preempt.h"
#include "sched/engine/filter/volumes.h"
#include "sched/engine/filter/dra.h"

#include <string.h>

/* ---- units.c ---------------------------------------------------------------- */

/* The budget left of PDB i in this split: budgets are fresh per call, and
 * only the few PDBs that the units' pods match are ever touched, so they are
 * looked up in a short list rather than copied for every PDB per node. */
typedef struct budget {
	int idx[64];
	int32_t left[64];
	int n;
	int32_t *all;       /* every PDB's budget, when the short list overflows */
} budget;

/* The short list is full: every PDB's budget from now on (units.c). */
int32_t *pk_budget_spill(budget *b, const pk_snapshot *s, int i);

static inline int32_t *pk_budget_of(budget *b, const pk_snapshot *s, int i)
{
	if (b->all)
		return &b->all[i];
	for (int k = 0; k < b->n; k++)
		if (b->idx[k] == i)
			return &b->left[k];
	if (b->n < 64) {
		b->idx[b->n] = i;
		b->left[b->n] = s->pdbs[i].disruptions_allowed;
		return &b->left[b->n++];
	}
	return pk_budget_spill(b, s, i);
}

/* ---- preempt.c ------------------------------------------------------------- */

/* Requests summed over some pods (the arithmetic path). */
typedef struct sums {
	int64_t pods, cpu, memory, ephemeral;
} sums;

/* What may sit on a node beside the preemptor: NodeResourcesFit passes
 * while the node's pods stay within these (pk_fits_basic's arithmetic,
 * turned around so that the reprieve loop compares sums only). */
typedef struct room {
	int64_t pods_milli, cpu, memory, ephemeral;
} room;

/* The pods a preemptor of some priority may evict from a node: those of
 * lower priority, the end of the node's list (kept in importance order).
 * What SelectVictimsOnNode needs of them before it looks at the preemptor's
 * requests depends only on the node's pods and the PDBs (their budgets do
 * not change while the snapshot is played forward), so the simulator keeps
 * it per node in its memo, valid while the node's generation holds and for
 * every preemptor priority in (lo, hi]. */
enum { PK_TAIL_LEVELS = 6 };

/* The reprieve's order of a tail cut into levels - the violating pods,
 * then one level per priority - each with the tail's requests summed up
 * to its end. */
typedef struct pk_tail_level {
	int32_t priority;         /* the lowest priority in the level */
	int32_t pods;
	int64_t cpu, memory, ephemeral;
} pk_tail_level;

typedef struct pk_tail {
	/* what a bounded dry run reads (pk_select_victims_bound), first */
	bool known;
	bool first_violating;     /* levels[0] holds the violating pods */
	int8_t nlevels;           /* -1: more levels than PK_TAIL_LEVELS */
	int from;                 /* first pod of the tail; npods = none */
	uint64_t generation;      /* the node's when worked out */
	int64_t lo, hi;           /* the priorities it serves: lo < p <= hi */
	sums total;               /* the tail's requests, summed */
	sums allocatable;         /* the node's (nodes do not change), copied */
	sums largest;             /* the largest request of a tail pod, each resource */
	int32_t lowest;           /* the lowest priority in the tail */
	const char *node;         /* the node's name, copied */
	/* The level of the first victim, and with it a bound of the dry run's
	 * key, read from here alone. */
	pk_tail_level levels[PK_TAIL_LEVELS];
	/* what the whole reprieve reads */
	bool *violating;          /* per tail pod: its eviction would violate a
	                           * PDB (pk_units_pdb_split, one pod a unit) */
	int *order;               /* the reprieve's order: the violating pods,
	                           * then the others, each in the node's order */
	int cap;                  /* of violating and order */
} pk_tail;

/* What pickOneNodeForPreemption compares of a candidate, in its order. */
typedef struct pick_key {
	int num_pdb_violations;
	int32_t top_priority;
	int64_t priority_sum;     /* sum of (priority + MaxInt32 + 1): every term
	                           * positive; fits in int64 for 2^31 victims */
	int nvictims;
	int64_t top_start;        /* pk_earliest_top_start: the later the better */
	const char *node;
} pick_key;

/* The arithmetic path applies: only NodeResourcesFit can change its
 * verdict as pods come and go. Inline: called for every node's dry run. */
static inline bool pk_arithmetic_applies(const pk_cycle *c, const pk_pod *preemptor)
{
	pk_status st;
	return preemptor->con->nports == 0 && preemptor->requests.nscalar == 0 && !c->has_state &&
	       (!preemptor->con->dra || !pk_dra_applies(preemptor)) && /* DynamicResources reads claims */
	       (!preemptor->con->volumes ||
	        (!pk_volumes_prefilter_rejects(preemptor, &st) && !pk_volumes_pod_dependent(preemptor)));
}

/* What the node holds, nominated pods of equal or higher priority included
 * (RunFilterPluginsWithNominatedPods; without pod affinity its second pass
 * without them cannot fail when the first passed). */
sums pk_node_sums(const pk_nodeinfo *ni, const pk_pod *preemptor);
/* NodeResourcesFit's status for the preemptor on ni holding t. */
pk_status pk_fit_sums(const pk_pod *preemptor, const pk_nodeinfo *ni, const sums *t);
/* What may sit on node n beside the preemptor. */
room pk_room_beside(const pk_pod *preemptor, const pk_node *n);
/* Frees what t holds (not t). */
void pk_tail_free(pk_tail *t);

/* SelectVictimsOnNode. fill: whether to list the victims (the general path
 * always does). tail: the memo's entry for the node, or NULL. static_passed:
 * the node-only filters are known to pass (the filter pass said
 * Unschedulable). arena NULL (a dry-run thread): an error's reason is left
 * out. */
pk_status pk_select_victims(pk_cycle *c, const pk_pod *preemptor, pk_nodeinfo *ni, pk_arena *arena,
                            pk_candidate *out, bool fill, pk_tail *tail, bool static_passed);

/* What SelectVictimsOnNode is asked for: the victims listed, their summary
 * only, or a lower bound of the summary (pk_select_victims_bound). */
typedef enum pk_select_mode { PK_SELECT_SUMMARY, PK_SELECT_LIST, PK_SELECT_BOUND } pk_select_mode;

/* SelectVictimsOnNode's status, exact, and out's summary as a lower bound
 * of what pk_select_victims would say in each of node choice's criteria up
 * to the number of victims (not the start time), for a dry run whose node
 * will likely lose: the reprieve stops at the first victim. *exact: out is
 * the summary itself (off the arithmetic path the whole run is done). The
 * node-only filters are taken as passed; no arena: an error's reason is
 * left out, as in a dry-run thread. */
pk_status pk_select_victims_bound(pk_cycle *c, const pk_pod *preemptor, pk_nodeinfo *ni, pk_candidate *out,
                                  pk_tail *tail, bool *exact);

/* The FitError text from statuses, each counted weight[i] times (1 when
 * weight is NULL). */
char *pk_fit_error_weighted(pk_arena *a, long nnodes, const pk_status *const *statuses, const long *weight,
                            long n, pk_fit_error *out);

/* The criteria of pickOneNodeForPreemption, in upstream's order. */
extern const char *const pk_pick_criteria[];

/* The earliest start among the highest-priority victims (unset = now). */
static inline int64_t pk_earliest_top_start(const pk_candidate *c, int64_t now)
{
	return c->top_unstarted && now < c->top_start ? now : c->top_start;
}

/* What node choice compares of a summarized candidate (inline: stored for
 * every node's dry run). */
static inline pick_key pk_pick_key_of(const pk_candidate *c, int64_t now)
{
	return (pick_key){ c->num_pdb_violations, c->top_priority, c->priority_sum, c->nvictims,
	                   pk_earliest_top_start(c, now), c->node };
}

/* pk_pick_key_cmp in its first four criteria, up to the number of victims
 * (those a bounded key bounds, pk_select_victims_bound): 0 if they tie
 * there (*criterion is then 4). Inline: the dry runs compare every node. */
static inline int pk_pick_key_cmp_upto_victims(const pick_key *a, const pick_key *b, int *criterion)
{
	*criterion = 1;
	if (a->num_pdb_violations != b->num_pdb_violations)
		return a->num_pdb_violations < b->num_pdb_violations ? -1 : 1;
	*criterion = 2;
	if (a->top_priority != b->top_priority)
		return a->top_priority < b->top_priority ? -1 : 1;
	*criterion = 3;
	if (a->priority_sum != b->priority_sum)
		return a->priority_sum < b->priority_sum ? -1 : 1;
	*criterion = 4;
	if (a->nvictims != b->nvictims)
		return a->nvictims < b->nvictims ? -1 : 1;
	return 0;
}

/* <0 if a is the better node; *criterion is the index in pk_pick_criteria of
 * the first criterion that tells them apart. */
int pk_pick_key_cmp(const pick_key *a, const pick_key *b, int *criterion);

/* ---- memo.c ---------------------------------------------------------------- */

/* A node's results in the memo; the last shape's evaluation (pk_session). */
typedef struct memo_entry memo_entry;
typedef struct pk_session pk_session;

/* The per-node entries valid for this preemptor's shape, or NULL when the
 * memo does not apply to it. */
memo_entry *pk_memo_begin(const pk_cycle *c, const pk_pod *pod, const pk_eval_opts *o);
/* The filter pass's status on ni, from the memo when it holds it. */
const pk_status *pk_node_filter(pk_cycle *c, const pk_pod *pod, pk_nodeinfo *ni, memo_entry *entries,
                                pk_eval_memo *m, pk_arena *arena);
/* SelectVictimsOnNode on a potential node, from the memo when it holds it. */
const pk_status *pk_node_dry_run(pk_cycle *cy, const pk_pod *pod, pk_nodeinfo *ni, const pk_eval_opts *o,
                                 memo_entry *entries, pk_arena *arena, pk_candidate *c);
/* Ask for a node's slots before its turn unless the memo holds its dry run
 * (the common case between replicas: only the slots' reads miss the cache). */
void pk_prefetch_unless_known(const pk_nodeinfo *ni, memo_entry *entries, const pk_eval_memo *m);

/* The session brought up to date for this preemptor, its nodes lent to e,
 * or NULL when it does not apply (no memo for the pod, sampling, or uids
 * that may repeat). */
pk_session *pk_session_sync(pk_cycle *c, const pk_pod *pod, const pk_eval_opts *o, memo_entry *entries,
                            pk_evaluation *e);
/* nodes[].dry as the evaluation's status wants them: set where the dry run
 * ran (preemption was tried), NULL otherwise. */
void pk_session_show_dry(pk_session *x, bool show);
/* The owed dry runs, then the chosen candidate from the heap: e->candidates
 * lists it alone (ncandidates counts them all); decided_by compares it with
 * the runner-up, which of all candidates agrees with it longest in pick
 * order. */
void pk_session_pick(pk_session *x, pk_cycle *cy, const pk_pod *pod, const pk_eval_opts *o,
                     pk_evaluation *e);
/* The filter pass's FitError from the session's counts. */
const char *pk_session_filter_message(pk_evaluation *e, const pk_session *x);

#endif
