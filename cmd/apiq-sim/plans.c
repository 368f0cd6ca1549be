/* timed mode's input: PreemptionPlan records (preempt-plan's), each a
 * pod, a PodGroup or a CompositePodGroup for the run to schedule. See
 * sim.h. */
#include "sim.h"

#include <string.h>

#include "base/alloc.h"
#include "k8s/json.h"

typedef struct plan_reader {
	sim_plans *plans;
	pk_cli *cli;
	pk_stats *stats;
	bool trouble;
} plan_reader;

static void add_plan(sim_plans *plans, pod_kind kind, int victims, int clears, int members)
{
	plans->v = pk_grow(plans->v, &plans->cap, plans->n + 1, sizeof *plans->v);
	plans->v[plans->n++] = (sim_plan){kind, victims, clears, members};
}

/* Preempt -> a preemptor with its victims and nominations to clear;
 * NoPreemptionNeeded -> a pod that fits; anything else never fits. */
static int on_plan(void *ctx, pk_record *rec)
{
	plan_reader *pr = ctx;
	if (pk_cli_report_record_problem(pr->cli, rec)) {
		pr->stats->errors++;
		pr->trouble = true;
		return 0;
	}
	if (rec->type != PK_REC_OBJECT)
		return 0;
	pr->stats->read++;
	const cJSON *o = rec->obj;
	if (strcmp(pk_kind(o), "PreemptionPlan") != 0) {
		const char *kind = *pk_kind(o) ? pk_kind(o) : "(no kind)";
		char key[128];
		snprintf(key, sizeof key, "skipped kind %s", kind);
		pk_stats_skip(pr->stats, kind);
		pk_diag_warn_once(&pr->cli->diag, key, &rec->origin,
		                  "a %s record is not a PreemptionPlan; run simulates plans only, skipped", kind);
		return 0;
	}
	const char *result = pk_str_or(o, "result", "");
	if (strcmp(result, "Preempt") && strcmp(result, "NoPreemptionNeeded") && strcmp(result, "NotEligible") &&
	    strcmp(result, "Unschedulable")) {
		/* a malformed plan: guessing what it meant would change the answer */
		pk_diag_report(&pr->cli->diag, PK_SEV_ERROR, &rec->origin,
		               "PreemptionPlan: result \"%s\" is not Preempt, NoPreemptionNeeded, NotEligible or "
		               "Unschedulable", result);
		pk_stats_reject(pr->stats, "PreemptionPlan");
		pr->trouble = true;
		return 0;
	}
	if (cJSON_IsObject(pk_get(o, "preEnqueue"))) {
		/* a gated pod: PreEnqueue keeps it out of the scheduling queue (its
		 * SchedulingGated condition is the apiserver's), so it makes no
		 * scheduling attempt and no API call */
		pk_stats_skip(pr->stats, "PreemptionPlan (gated)");
		pk_diag_warn_once(&pr->cli->diag, "gated plans", &rec->origin,
		                  "a gated pod's PreemptionPlan (preEnqueue): it never enters the scheduling queue, so it "
		                  "makes no scheduling attempt and no API call; skipped");
		return 0;
	}
	int victims = cJSON_GetArraySize(pk_get(o, "victims"));
	int clears = cJSON_GetArraySize(pk_get(o, "clearedNominations"));
	pod_kind kind = !strcmp(result, "Preempt") ? POD_PREEMPTOR
	              : !strcmp(result, "NoPreemptionNeeded") ? POD_NORMAL : POD_UNSCHED;
	if (kind == POD_PREEMPTOR && victims == 0) {
		/* count pod_delete actions when the victims list is absent */
		const cJSON *a;
		cJSON_ArrayForEach(a, pk_get(o, "actions"))
			if (!strcmp(pk_str_or(a, "call", ""), "pod_delete"))
				victims++;
	}
	int members = 0;
	const char *preemptor_kind = pk_str_or(pk_get(o, "preemptor"), "kind", "Pod");
	if (kind != POD_UNSCHED && apiq_preemptor_is_group(preemptor_kind)) {
		/* a PodGroup's or a CompositePodGroup's plan (workload-aware preemption): its members */
		int64_t n = 0;
		if (!pk_int64(o, "members", &n))
			n = cJSON_GetArraySize(pk_get(o, "placements"));
		if (n < 1 || n > 100000) {
			pk_diag_report(&pr->cli->diag, PK_SEV_ERROR, &rec->origin,
			               "PreemptionPlan: a PodGroup preemptor's plan needs \"members\" (1 to 100000), "
			               "got %lld", (long long)n);
			pk_stats_reject(pr->stats, "PreemptionPlan");
			pr->trouble = true;
			return 0;
		}
		members = (int)n;
	}
	add_plan(pr->plans, kind, victims, clears, members);
	pr->stats->used++;
	return 0;
}

bool sim_read_plans(pk_cli *cli, char *const *paths, size_t npaths, pk_stats *stats, sim_plans *plans)
{
	plan_reader pr = {plans, cli, stats, false};
	return pk_read_paths(&cli->reader, paths, npaths, on_plan, &pr) == 0 && !pr.trouble;
}
