/* The what-if over time (preempt-plan --replay): a trace of pods played
 * against a cluster snapshot with the simulator's step (simulate.h).
 *
 * The clock is in whole seconds and jumps from event to event. At each
 * instant, in this order:
 *   1. pods whose run time is over leave their node (Completed);
 *   2. victims whose grace period is over leave their node (Evicted); one
 *      whose run ends before its grace does completes instead (Completed,
 *      its entry keeping the preemptor), and is not replaced;
 *   3. the trace pods created at this instant arrive, and each evicted pod
 *      a controller owns comes back as <line>-r<N> with the full run time
 *      of its line (Recreated); all join the pending queue;
 *   4. one scheduling pass: every pending unit (a pod, or a PodGroup's
 *      pending members when the simulator plays gangs) in PrioritySort
 *      order is tried once with pk_sim_run_unit, exactly as --simulate
 *      tries it (nominated_first, victims_terminate): it binds (Scheduled),
 *      or preempts (its victims start terminating, PreemptionStarted; it is
 *      Nominated and tried again at later instants), or stays pending.
 * Pending pods are tried at every instant: the scheduler's backoff and
 * queueing hints are not modelled. Pods of the snapshot run to the end,
 * but one already terminating (deletionTimestamp set) leaves its node at
 * its deletionTimestamp (pk_replay_leaves: the kubelet kills it then),
 * Completed; it occupies its node until then, as the scheduler counts it.
 * The pods of an applied OrderedReady StatefulSet arrive one at a time:
 * each a second after the one before it is bound (pk_replay_add_chain).
 */
#ifndef PK_SCHED_REPLAY_H
#define PK_SCHED_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include "sched/sim/simulate.h"

typedef enum {
	PK_REPLAY_ARRIVED,
	PK_REPLAY_SCHEDULED,
	PK_REPLAY_NOMINATED,
	PK_REPLAY_PREEMPTION_STARTED,
	PK_REPLAY_EVICTED,
	PK_REPLAY_COMPLETED,
	PK_REPLAY_RECREATED,
} pk_replay_event_kind;

const char *pk_replay_event_name(pk_replay_event_kind k);

typedef enum {
	PK_RP_WAITING,        /* not arrived yet */
	PK_RP_PENDING,
	PK_RP_RUNNING,
	PK_RP_TERMINATING,    /* a victim, its grace running */
	PK_RP_COMPLETED,
	PK_RP_EVICTED,
} pk_replay_state;

#define PK_REPLAY_NONE INT64_MIN /* a time that did not happen */

/* One pod the replay follows: a trace pod, a replacement, or a pod of the
 * snapshot once it is chosen as a victim. Times are Unix seconds. */
typedef struct pk_replay_pod {
	pk_pod *pod;
	long line;                /* the entry of the pod this one replaces (itself for an original) */
	int replacements;         /* on a line's original: replacements made so far */
	const char *replaces;     /* the victim's name, for a replacement */
	bool from_snapshot;       /* bound in the snapshot */
	bool owned;               /* a controller recreates it (Job, ReplicaSet, ...) */
	bool run_known;           /* false: runs to the end of the replay */
	int64_t run;              /* seconds, when run_known */
	int grace;                /* seconds before a victim leaves: max(G, 1) */
	pk_replay_state state;
	int64_t arrived, scheduled, evicted, completed, preempted; /* or PK_REPLAY_NONE */
	int64_t leave;            /* a terminating victim's eviction instant */
	int64_t done;             /* a running pod's completion instant, or PK_REPLAY_NONE */
	const char *preemptor;    /* "ns/name" of the pod that chose it as a victim */
	const char *node;         /* where it ran (or runs) */
	const char *nominated;    /* last nomination said */
	pk_sim_chain *chain;      /* OrderedReady: the chain whose next pod arrives once this one binds */
} pk_replay_pod;

typedef struct pk_replay_event {
	int64_t t;
	pk_replay_event_kind kind;
	const pk_replay_pod *pod;
	const char *node;
	const char *preemptor;    /* PreemptionStarted, Evicted */
} pk_replay_event;

typedef void (*pk_replay_fn)(void *ctx, const pk_replay_event *ev);

typedef struct pk_replay_opts {
	int64_t start;            /* the first instant (Unix s): earlier arrivals are clamped to it */
	int64_t until;            /* the last instant played (INT64_MAX: none) */
	long max_instants;        /* stop after this many instants */
	int grace_period;         /* -1: each pod's own (30 when unset) */
	/* called after each instant with the instant, for progress */
	void (*progress)(void *ctx, int64_t t, long instants, long pending);
} pk_replay_opts;

/* Resource totals over time (time-weighted over the instants played). */
typedef struct pk_replay_use {
	const char *name;         /* "cpu", "memory", or a scalar's interned name */
	double allocatable;       /* in the resource's unit: cores, bytes, count */
	double peak, area;        /* peak allocated; integral of allocated over seconds */
} pk_replay_use;

typedef struct pk_replay {
	pk_sim *m;
	pk_replay_opts o;
	pk_replay_pod *pods;
	long npods, podcap;
	long ntrace;              /* entries that arrive: trace, the snapshot's pending, applied */
	struct { const pk_pod **key; long *val; size_t cap, n; } index; /* pod -> entry */
	struct { int64_t t; int kind; long entry; } *heap; /* completions and evictions */
	long nheap, heapcap;
	long *pending;
	long npending, pendingcap;
	int *snapshot_grace;      /* per snapshot pod index (caller-owned), or NULL */
	int64_t now, first, end;
	long instants;
	bool max_instants_hit, until_hit;
	long unit_trials;         /* units tried, over every pass */
	int64_t *group_first;     /* per PodGroup index: a pass's earliest pending member (scratch) */
	long ngroup_first;
	pk_replay_use *use;
	int nuse;
	pk_replay_fn fn;
	void *ctx;
} pk_replay;

/* m: initialised over the snapshot, its opts with nominated_first and
 * victims_terminate set, cascade off (the replay replaces victims). */
void pk_replay_init(pk_replay *r, pk_sim *m, const pk_replay_opts *o, int *snapshot_grace);
void pk_replay_free(pk_replay *r);
/* A trace pod (pending in the snapshot): arrives at `arrive` (clamped to
 * the start), runs `run` seconds once bound (run < 0: to the end). */
void pk_replay_add(pk_replay *r, pk_pod *p, int64_t arrive, int64_t run, int grace);
/* The pods of an OrderedReady chain (pk_sim_enqueue_ordered, c->next of
 * them queued): the next arrives at `arrive`, each later one a second after
 * the one before it is bound (Running and Ready), all running to the end. */
void pk_replay_add_chain(pk_replay *r, pk_sim_chain *c, int64_t arrive);
/* A pod bound in the snapshot and already terminating: it leaves its node
 * at `leave` (its deletionTimestamp, clamped to the start), Completed. */
void pk_replay_leaves(pk_replay *r, pk_pod *p, int64_t leave);
/* Play to the end (no event left), --until or --max-instants. */
void pk_replay_run(pk_replay *r, pk_replay_fn fn, void *ctx);
/* The grace a pod's victim entry gets: max(g, 1), --grace-period first. */
int pk_replay_grace(const pk_replay *r, int pod_grace);

#endif
