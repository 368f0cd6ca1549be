/* Pieces apply.c and apply_controllers.c share. Internal to sched/. */
#ifndef PK_SCHED_APPLY_INT_H
#define PK_SCHED_APPLY_INT_H

#include "sched/sim/apply.h"

void pk_applied_warn(pk_applied *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pk_applied_reject(pk_applied *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One more of o's pods stays unschedulable for this reason (apply_records.c). */
void pk_applied_add_reason(pk_apply *a, pk_applied *o, const char *why);

/* The snapshot's controller object (g->templates) of kind (case-insensitive),
 * namespace and name, marked as used; NULL if the snapshot has none. */
const cJSON *pk_apply_find_live(pk_apply *a, const char *kind, const char *ns, const char *name);

/* Does applying want (a manifest's value) leave have (the live value) as it
 * is? Members want does not set are left alone, as kubectl apply's merge
 * leaves them; lists of named items match by name; quantities compare by
 * value ("1000m" = "1" = 1). */
bool pk_json_subset(const cJSON *want, const cJSON *have);

/* Decode the pods a controller makes from template tpl ({metadata, spec};
 * spec replaced by spec_override when not NULL), as the Priority admission
 * plugin admits them; NULL, and o rejected, when it would not. The result
 * lives until the simulation is freed. */
pk_pod *pk_apply_template(pk_apply *a, pk_applied *o, const cJSON *tpl, const cJSON *spec_override);

/* Create a pod of o from tpl named name (the uid is made from it), owned by
 * (owner_kind, owner_name). Not queued: pk_sim_enqueue it or chain it. */
pk_pod *pk_apply_new_pod(pk_apply *a, pk_applied *o, const pk_pod *tpl, const char *name, const char *owner_kind,
                         const char *owner_name);
/* Create and queue n pods "<prefix>-<first..first+n-1>". */
void pk_apply_create(pk_apply *a, pk_applied *o, const pk_pod *tpl, long n, long first, const char *owner_kind,
                     const char *owner_name);
/* The controller deletes an existing pod (bound: gone from its node;
 * pending: out of the queue). */
void pk_apply_delete(pk_apply *a, pk_applied *o, pk_pod *p);

/* Active pods (not terminal, not being deleted) of the snapshot in ns whose
 * controller is (kind, name) - name_prefix: a name starting "<name>-", as a
 * Deployment's ReplicaSets are named - or that have no controller and match
 * sel (adoption; sel NULL: none). *out is malloc'd. */
long pk_apply_owned_pods(pk_apply *a, const char *ns, const char *kind, const char *name, bool name_prefix,
                         const pk_selector *sel, pk_pod ***out);
/* Order pods as the ReplicaSet controller's getPodsToDelete does (the first
 * ones are deleted first); related: all pods of the owner, for the
 * co-location rank. Warns on o when the cut after the first k pods falls
 * where annotations, ready times or restart counts (not read) would decide. */
void pk_apply_deletion_order(pk_apply *a, pk_applied *o, pk_pod **pods, long n, long k);

/* Workload controllers (apply_controllers.c): true if kind is one of them
 * and obj was handled (applied, or o rejected). scale: --scale's change. */
bool pk_apply_workload(pk_apply *a, pk_applied *o, const cJSON *obj);

#endif
