/* preempt-plan --simulate: read a cluster snapshot with pending pods and
 * PodGroups, play the scheduling queue forward (common/sched/simulate.h)
 * and write one PreemptionPlan per pending unit plus a SimulationSummary. */
#include "simulate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "io/writer.h"
#include "k8s/json.h"
#include "plan.h"
#include "sched/records.h"
#include "sched/report.h"
#include "sched/simulate.h"

static const pk_cli_spec spec = {
	.prog = "preempt-plan",
	.synopsis = "preempt-plan --simulate [options] [path ...]",
	.help =
		"Reads a cluster snapshot (nodes, bound and pending pods, PodGroups, Workloads,\n"
		"PodDisruptionBudgets, PriorityClasses) and plays the scheduling queue forward:\n"
		"each pending pod or PodGroup, in queue order, fits, preempts (victims removed,\n"
		"preemptor nominated) or stays unschedulable. Writes one PreemptionPlan per\n"
		"pending unit and a SimulationSummary record.\n"
		"\n"

		"      --pod-postfilter       evaluate every pending pod alone through the per-pod\n"
		"                             PostFilter, without the pod-group cycle\n"
		"      --scale KIND/NAMESPACE/NAME\n"
		"                             the Deployment, Job, ... whose pod template --replicas copies\n"
		"      --replicas N           add N pending copies of the --scale object's pod template\n"
		"      --no-cascade           do not re-queue victims their controller would recreate\n"
		"      --max-recreations N    bound on re-queued victims in one run (default 1000)\n"
		"\n",
	.formats = "json,table,html",
	.default_format = PK_FMT_JSON,
	.gates = PK_GATE_BIT(PK_GATE_GENERIC_WORKLOAD) | PK_GATE_BIT(PK_GATE_WORKLOAD_AWARE_PREEMPTION) |
	         PK_GATE_BIT(PK_GATE_TOPOLOGY_AWARE_WORKLOAD_SCHEDULING),
};

enum {
	OPT_SIMULATE = 1,
	OPT_POD_POSTFILTER,
	OPT_SCALE,
	OPT_REPLICAS,
	OPT_NO_CASCADE,
	OPT_MAX_RECREATIONS,
};

static const struct option long_options[] = {
	PK_CLI_COMMON_OPTIONS,
	{"simulate", no_argument, NULL, OPT_SIMULATE},
	{"pod-postfilter", no_argument, NULL, OPT_POD_POSTFILTER},
	{"scale", required_argument, NULL, OPT_SCALE},
	{"replicas", required_argument, NULL, OPT_REPLICAS},
	{"no-cascade", no_argument, NULL, OPT_NO_CASCADE},
	{"max-recreations", required_argument, NULL, OPT_MAX_RECREATIONS},
	{NULL, 0, NULL, 0},
};

typedef struct sim_run {
	pk_cli cli;
	pk_stats stats;
	pk_snapshot snap;
	pk_pg_set groups;
	plan_run plans;          /* preempt-plan's plan builder, reused for pod units */
	pk_out out;
	pk_report *report;       /* -o html: the records go to the report */
	long trouble;
} sim_run;

/* ---- reading -------------------------------------------------------------------- */

static int on_record(void *ctx, pk_record *rec)
{
	sim_run *r = ctx;
	if (!pk_cli_accept_record(&r->cli, &r->stats, rec, &r->trouble))
		return 0;
	const char *kind = pk_kind(rec->obj);
	char err[512] = "";
	bool rejected;
	if (pk_pg_set_add(&r->groups, &r->snap, rec->obj, &rejected, err, sizeof err)) {
		if (rejected) {
			pk_stats_reject(&r->stats, kind);
			pk_diag_report(&r->cli.diag, PK_SEV_WARNING, &rec->origin, "%s", err);
		} else {
			r->stats.used++;
		}
		return 0;
	}
	bool take = false;
	switch (pk_snapshot_add(&r->snap, rec->obj, r->stats.read - 1,
	                        &take, err, sizeof err)) {
	case PK_ADD_USED:
		r->stats.used++;
		if (strcmp(kind, "Pod") == 0)
			pk_pg_note_pod(&r->groups, &r->snap, rec->obj);
		break;
	case PK_ADD_SKIPPED:
		pk_stats_skip(&r->stats, *kind ? kind : "(no kind)");
		break;
	case PK_ADD_REJECTED:
		pk_stats_reject(&r->stats, kind);
		pk_diag_report(&r->cli.diag, PK_SEV_WARNING, &rec->origin, "%s %s: %s", kind, pk_name(rec->obj), err);
		break;
	}
	if (take)
		rec->obj = NULL;
	return 0;
}

/* ---- output --------------------------------------------------------------------- */

static cJSON *pod_plan(sim_run *r, const pk_sim_step *st)
{
	const pk_evaluation *e = st->pod_eval;
	plan_entry pe;
	memset(&pe, 0, sizeof pe);
	pe.preemptor = pk_preemptor_json(e, &r->snap);
	if (st->gate_message) {
		cJSON_ReplaceItemInObject(pe.preemptor, "status", cJSON_CreateString("NotEligible"));
		cJSON_ReplaceItemInObject(pe.preemptor, "message", cJSON_CreateString(st->gate_message));
	}
	pe.ref = (cJSON *)pk_get(pe.preemptor, "preemptor");
	pe.candidates = st->gate_message ? NULL : e->candidates;
	pe.ncandidates = st->gate_message ? 0 : e->ncandidates;
	bool placed;
	cJSON *plan = plan_build(&r->plans, &pe, &placed);
	cJSON *ref = cJSON_GetObjectItemCaseSensitive(plan, "preemptor");
	if (ref)
		cJSON_AddItemToObject(ref, "kind", cJSON_CreateString("Pod"));
	if (st->node)
		cJSON_AddStringToObject(plan, "node", st->node->node->name);
	if (st->unit->recreated)
		cJSON_AddBoolToObject(plan, "recreated", 1);
	if (st->unit->scaled)
		cJSON_AddBoolToObject(plan, "scaled", 1);
	cJSON *nodes = st->gate_message ? NULL : pk_pod_plan_nodes_json(&r->snap, e, st->node);
	if (nodes)
		cJSON_AddItemToObject(plan, "nodeResources", nodes);
	cJSON_Delete(pe.preemptor);
	return plan;
}

static void table_header(pk_out *out)
{
	pk_out_printf(out, "%-48s %-11s %-18s %-20s %7s  %s\n", "PREEMPTOR", "PRIORITY", "RESULT", "NODE", "VICTIMS",
	              "REASON");
}

static void table_row(pk_out *out, const cJSON *plan)
{
	const cJSON *ref = pk_get(plan, "preemptor");
	char who[400];
	const char *kind = pk_str_or(ref, "kind", "Pod");
	snprintf(who, sizeof who, "%s%s/%s", strcmp(kind, "PodGroup") == 0 ? "podgroup/" : "",
	         pk_str_or(ref, "namespace", ""), pk_str_or(ref, "name", ""));
	int64_t prio = 0;
	pk_int64(ref, "priority", &prio);
	const char *node = pk_str(plan, "nominatedNodeName");
	if (!node)
		node = pk_str(plan, "node");
	char nodes[64];
	int np = cJSON_GetArraySize(pk_get(plan, "placements"));
	if (!node && np > 0) {
		snprintf(nodes, sizeof nodes, "%d placed", np);
		node = nodes;
	}
	const char *reason = pk_str_or(plan, "reason", "");
	const char *cut = strchr(reason, ';');
	pk_out_printf(out, "%-48s %-11lld %-18s %-20s %7d  %.*s\n", who, (long long)prio, pk_str_or(plan, "result", ""),
	              node ? node : "<none>", cJSON_GetArraySize(pk_get(plan, "victims")),
	              cut ? (int)(cut - reason) : (int)strlen(reason), reason);
}

static void on_step(void *ctx, const pk_sim_step *st)
{
	sim_run *r = ctx;
	cJSON *plan;
	if (st->group_eval) {
		plan = pk_pg_plan_json(st->group_eval, st->unit->npods ? st->unit->pods[0]->scheduler_name
		                                                       : "default-scheduler");
		cJSON *nodes = pk_pg_plan_nodes_json(&r->snap, st->group_eval);
		if (nodes)
			cJSON_AddItemToObject(plan, "nodeResources", nodes);
	} else
		plan = pod_plan(r, st);
	if (st->requeued)
		cJSON_AddNumberToObject(plan, "requeuedVictims", st->requeued);
	if (r->report) {
		pk_report_take(r->report, plan);
		return;
	}
	if (r->cli.format == PK_FMT_TABLE)
		table_row(&r->out, plan);
	else
		pk_out_json(&r->out, plan);
	cJSON_Delete(plan);
}

static cJSON *summary_json(const pk_sim *m)
{
	const pk_sim_summary *s = &m->sum;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", "SimulationSummary");
	cJSON_AddNumberToObject(o, "scheduled", (double)s->scheduled);
	cJSON_AddNumberToObject(o, "nominated", (double)s->nominated);
	cJSON_AddNumberToObject(o, "unschedulable", (double)s->unschedulable);
	cJSON_AddNumberToObject(o, "victims", (double)s->victims);
	cJSON_AddNumberToObject(o, "cascadingPreemptions", (double)s->cascading_preemptions);
	cJSON_AddNumberToObject(o, "units", (double)s->units);
	cJSON_AddNumberToObject(o, "pods", (double)s->pods);
	cJSON_AddNumberToObject(o, "podGroups", (double)s->pod_groups);
	cJSON_AddNumberToObject(o, "recreated", (double)s->recreated);
	cJSON_AddNumberToObject(o, "recreationsDropped", (double)s->recreations_dropped);
	cJSON_AddNumberToObject(o, "scaled", (double)s->scaled);
	cJSON_AddNumberToObject(o, "nodes", (double)m->s->nnodes);
	return o;
}

static void table_summary(pk_out *out, const pk_sim *m)
{
	const pk_sim_summary *s = &m->sum;
	pk_out_printf(out, "\n%ld unit(s): %ld scheduled, %ld nominated, %ld unschedulable; %ld victim(s), "
	              "%ld recreated, %ld cascading preemption(s)\n",
	              s->units, s->scheduled, s->nominated, s->unschedulable, s->victims, s->recreated,
	              s->cascading_preemptions);
}

static pk_report *sim_report_new(const sim_run *r)
{
	pk_report_opts o;
	pk_report_opts_default(&o);
	o.title = "preempt-plan --simulate";
	o.nodes = r->snap.nnodes;
	return pk_report_new(&o);
}

/* ---- main ----------------------------------------------------------------------- */

typedef struct sim_args {
	const char *scale;
	long replicas;
	bool replicas_set;
} sim_args;

static void parse_options(sim_run *r, pk_sim_opts *so, sim_args *a, int argc, char **argv)
{
	int opt;
	optind = 1;
	while ((opt = pk_cli_getopt(&r->cli, argc, argv, "", long_options)) != -1) {
		switch (opt) {
		case OPT_SIMULATE:
			break;
		case OPT_POD_POSTFILTER:
			so->pod_postfilter = true;
			break;
		case OPT_SCALE:
			a->scale = optarg;
			break;
		case OPT_REPLICAS:
			a->replicas = (long)pk_cli_number(&r->cli, "--replicas", optarg, 0, 1000000);
			a->replicas_set = true;
			break;
		case OPT_NO_CASCADE:
			so->cascade = false;
			break;
		case OPT_MAX_RECREATIONS:
			so->max_recreations = (long)pk_cli_number(&r->cli, "--max-recreations", optarg, 0, 100000000);
			break;
		}
	}
	if (r->cli.format != PK_FMT_JSON && r->cli.format != PK_FMT_TABLE && r->cli.format != PK_FMT_HTML)
		pk_cli_usage_error(&r->cli, "--simulate writes json, table or html");
	if (a->replicas_set != (a->scale != NULL))
		pk_cli_usage_error(&r->cli, "--replicas and --scale go together");
}

int pp_simulate_main(int argc, char **argv)
{
	sim_run *r = calloc(1, sizeof *r);
	if (!r)
		abort();
	pk_cli_init(&r->cli, &spec);
	pk_snapshot_init(&r->snap);
	pk_pg_set_init(&r->groups);
	pk_sim_opts so;
	pk_sim_opts_default(&so);
	sim_args a = {0};
	parse_options(r, &so, &a, argc, argv);
	pk_pg_gates_from(&r->groups.gates, &r->cli.gates);
	plan_init(&r->plans, &r->cli);
	pk_out_init(&r->out, stdout);

	int status = PK_EXIT_TROUBLE;
	double secs = 0;
	long units = 0;
	r->cli.reader.prune = pk_snapshot_unused_members;
	if (pk_read_paths(&r->cli.reader, argv + optind, (size_t)(argc - optind), on_record, r) >= 0 && !r->trouble) {
		pk_snapshot_finish(&r->snap);
		pk_pg_set_finish(&r->groups, &r->snap);
		pk_sim sim;
		pk_sim_init(&sim, &r->snap, &r->groups, &so);
		char err[512];
		if (a.scale && pk_sim_add_replicas(&sim, a.scale, a.replicas, err, sizeof err) < 0) {
			pk_diag_report(&r->cli.diag, PK_SEV_ERROR, NULL, "%s", err);
		} else {
			if (sim.n == 0)
				pk_diag_report(&r->cli.diag, PK_SEV_WARNING, NULL, "no pending pods in the input");
			if (r->cli.format == PK_FMT_TABLE)
				table_header(&r->out);
			r->report = r->cli.format == PK_FMT_HTML ? sim_report_new(r) : NULL;
			struct timespec t0, t1;
			clock_gettime(CLOCK_MONOTONIC, &t0);
			pk_sim_run(&sim, on_step, r);
			clock_gettime(CLOCK_MONOTONIC, &t1);
			secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
			units = sim.sum.units;
			if (r->cli.format == PK_FMT_HTML) {
				pk_report_take(r->report, summary_json(&sim));
				pk_report_write(r->report, &r->out);
			} else if (r->cli.format == PK_FMT_TABLE) {
				table_summary(&r->out, &sim);
			} else {
				cJSON *sum = summary_json(&sim);
				pk_out_json(&r->out, sum);
				cJSON_Delete(sum);
			}
			status = sim.sum.unschedulable ? PK_EXIT_FINDING : PK_EXIT_OK;
		}
		pk_sim_free(&sim);
		pk_report_free(r->report);
	}
	if (r->trouble)
		status = PK_EXIT_TROUBLE;
	pk_cli_finish(&r->cli);
	if (r->cli.stats) {
		pk_stats_print(&r->stats, r->cli.prog, stderr);
		fprintf(stderr, "%s: stats: simulated %ld unit(s) in %.3f s\n", r->cli.prog, units, secs);
	}
	if (pk_out_finish(&r->out, &r->cli.diag) != PK_EXIT_OK)
		status = PK_EXIT_TROUBLE;
	plan_free(&r->plans);
	pk_pg_set_free(&r->groups);
	pk_snapshot_free(&r->snap);
	free(r);
	return status;
}
