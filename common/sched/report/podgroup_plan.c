/* A PodGroup decision's PreemptionPlan record. */
#include "sched/engine/podgroup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/report/records.h"
#include "base/alloc.h"

static pk_victim_ref victim_ref(const pk_pod *p)
{
	pk_victim_ref r;
	pk_victim_ref_of_pod(&r, p);
	return r;
}

cJSON *pk_pg_plan_json(const pk_pg_evaluation *e, const char *scheduler)
{
	const pk_podgroup *pg = e->group;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", "PreemptionPlan");
	cJSON *ref = cJSON_AddObjectToObject(o, "preemptor");
	cJSON_AddStringToObject(ref, "kind", "PodGroup");
	cJSON_AddStringToObject(ref, "namespace", pg->namespace_);
	cJSON_AddStringToObject(ref, "name", pg->name);
	cJSON_AddStringToObject(ref, "uid", pg->uid);
	cJSON_AddNumberToObject(ref, "priority", pg->priority);
	cJSON_AddStringToObject(o, "result", pk_pg_result_name(e->result));
	cJSON_AddNullToObject(o, "nominatedNodeName");
	bool preempt = e->result == PK_PG_PREEMPT;
	cJSON *victims = cJSON_AddArrayToObject(o, "victims");
	cJSON *actions = cJSON_CreateArray();
	char by[600];
	snprintf(by, sizeof by, "pod group %s/%s", pg->namespace_, pg->name);
	for (int i = 0; preempt && i < e->nvictims; i++) {
		pk_victim_ref r = victim_ref(e->victims[i]);
		cJSON_AddItemToArray(victims, pk_victim_ref_json(&r));
		/* executor.go: podGroupExecutorPreemptor.Type() is "podgroup" */
		pk_victim_actions_json(actions, &r, r.node, scheduler, "podgroup", by);
	}
	cJSON_AddNumberToObject(o, "numPDBViolations", preempt ? e->num_pdb_violations : 0);
	cJSON_AddNumberToObject(o, "victimUnits", preempt ? e->nvictim_units : 0);
	cJSON_AddNumberToObject(o, "numPodGroupDisruptions", preempt ? e->num_pod_group_disruptions : 0);
	cJSON *pl = cJSON_AddArrayToObject(o, "placements");
	bool placed = preempt || e->result == PK_PG_NO_PREEMPTION_NEEDED;
	for (int k = 0; placed && k < e->nmembers; k++) {
		if (!e->placements[k].node)
			continue;
		cJSON *p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "namespace", e->placements[k].pod->namespace_);
		cJSON_AddStringToObject(p, "name", e->placements[k].pod->name);
		cJSON_AddStringToObject(p, "node", e->placements[k].node->node->name);
		cJSON_AddItemToArray(pl, p);
	}
	cJSON_AddNumberToObject(o, "members", e->nmembers);
	cJSON_AddNumberToObject(o, "minCount", e->required);
	cJSON_AddStringToObject(o, "disruptionMode", pg->disrupt_whole ? "PodGroup" : "Pod");
	cJSON_AddStringToObject(o, "reason", e->reason ? e->reason : "");
	/* the PodGroupPostFilter status code: Unschedulable and UnschedulableAndUnresolvable
	 * differ between releases for the same reason (1.37 GenerateVictims) */
	cJSON_AddStringToObject(o, "code", pk_code_name(e->code));
	cJSON_AddItemToObject(o, "actions", actions);
	return o;
}

cJSON *pk_pg_plan_nodes_json(const pk_snapshot *s, const pk_pg_evaluation *e)
{
	bool preempt = e->result == PK_PG_PREEMPT;
	if (!preempt && e->result != PK_PG_NO_PREEMPTION_NEEDED)
		return NULL;
	int n = e->nmembers ? e->nmembers : 1;
	const pk_pod **added = pk_xmalloc(sizeof *added * (size_t)n);
	const char **nodes = pk_xmalloc(sizeof *nodes * (size_t)n);
	int nadded = 0;
	for (int k = 0; k < e->nmembers; k++)
		if (e->placements[k].node) {
			added[nadded] = e->placements[k].pod;
			nodes[nadded++] = e->placements[k].node->node->name;
		}
	cJSON *o = pk_plan_nodes_json(s, (const pk_pod *const *)e->victims, preempt ? e->nvictims : 0, added, nodes,
	                              nadded);
	free(added);
	free(nodes);
	return o;
}
