/* The preemption engine shared by victims, preempt-plan and the simulator:
 * kube-scheduler's filters, scoring and DefaultPreemption (pkg/scheduler/
 * framework/preemption + plugins/defaultpreemption), with workload-aware
 * preemption for pod groups, offline, over a cluster snapshot read from
 * kubectl output. Its folders are the scheduler's stages; each calls only
 * the ones above it in this list (test/layout.bats checks):
 *
 *   cluster/  the committed cluster (snapshot.h): nodes, pods bound and
 *             nominated, PDBs, PriorityClasses, PodGroups (podgroup.h),
 *             changed only by bind, delete and nominate.
 *   filter/   the Filter plugins and their status (filter.h); one scheduling
 *             cycle (cycle.h: the pod under evaluation, each plugin's
 *             PreFilter state, the moves a dry run supposes).
 *   preempt/  DefaultPreemption (preempt.h): victim units, eligibility, the
 *             filter pass, SelectVictimsOnNode, DryRunPreemption, node
 *             choice; memo.c keeps what evaluations learn for the next.
 *   score/    the Score plugins and the placement of a pod that fits
 *             (score.h), over an evaluation's feasible nodes.
 *   gang/     the PodGroup evaluator of workload-aware preemption (gang.h).
 * Beside them: reasons.h (upstream's strings) and workers.h (threads).
 *
 * Determinism: upstream breaks the last tie by Go map order and samples
 * candidates from a random offset. Here every potential node is evaluated by
 * default, nodes are visited in name order and the final tie-break is the
 * node name (smallest first); --offset and the --min-candidate-nodes-*
 * options reproduce upstream's sampling exactly for a given offset.
 *
 * Nothing here keeps global state; a snapshot is used by one thread at a
 * time (the engine's own workers share out its nodes).
 *
 * A simulator loops: pk_evaluate -> decide -> pk_snapshot_apply (or
 * pk_snapshot_bind for pods that fit, pk_snapshot_delete for victims whose
 * deletion completes), with pk_snapshot_pending for queue order; a group's
 * turn is pk_pg_evaluate -> pk_pg_apply. */
#ifndef PK_SCHED_ENGINE_H
#define PK_SCHED_ENGINE_H

#include "sched/engine/cluster/snapshot.h"
#include "sched/engine/filter/filter.h"
#include "sched/engine/preempt/preempt.h"

#endif
