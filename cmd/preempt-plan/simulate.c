/* preempt-plan --simulate: read a cluster snapshot with pending pods and
 * PodGroups, apply manifests on top of it (--apply, --scale: common/sched/
 * apply.h), play the scheduling queue forward (common/sched/simulate.h) and
 * write one PreemptionPlan per pending unit, one AppliedObject per applied
 * object, and a SimulationSummary. */
#include "simulate.h"
#include "replay.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "io/table.h"
#include "io/writer.h"
#include "k8s/json.h"
#include "sched/report/plan.h"
#include "sched/sim/apply.h"
#include "sched/report/records.h"
#include "sched/engine/filter/volumes.h"
#include "k8s/dra.h"
#include "sched/engine/filter/dra.h"
#include "sched/engine/filter/dra_nodealloc.h"
#include "sched/report/report.h"
#include "sched/sim/simulate.h"
#include "base/alloc.h"

/* The gates --simulate and --replay read (the same engine). */
#define SIMULATION_GATES                                                                                 \
	(PK_GATE_BIT(PK_GATE_GENERIC_WORKLOAD) | PK_GATE_BIT(PK_GATE_WORKLOAD_AWARE_PREEMPTION) |          \
	 PK_GATE_BIT(PK_GATE_TOPOLOGY_AWARE_WORKLOAD_SCHEDULING) | PK_GATE_BIT(PK_GATE_COMPOSITE_POD_GROUP) | \
	 PK_GATE_BIT(PK_GATE_IN_PLACE_RESIZE_SCHEDULER_PREEMPTION) | PK_GATE_BIT(PK_GATE_VOLUME_LIMIT_SCALING) | \
	 PK_GATE_BIT(PK_GATE_DRA_ADMIN_ACCESS) | PK_GATE_BIT(PK_GATE_DRA_DEVICE_TAINTS) |                    \
 PK_GATE_BIT(PK_GATE_DRA_DEVICE_TAINT_RULES) |                                                     \
	 PK_GATE_BIT(PK_GATE_DRA_CONSUMABLE_CAPACITY) | PK_GATE_BIT(PK_GATE_DRA_PARTITIONABLE_DEVICES) |     \
	 PK_GATE_BIT(PK_GATE_DRA_NODE_ALLOCATABLE_RESOURCES) | PK_GATE_BIT(PK_GATE_DRA_EXTENDED_RESOURCE) |     \
	 PK_GATE_BIT(PK_GATE_DRA_WORKLOAD_RESOURCE_CLAIMS))

static const pk_cli_spec spec = {
	.prog = "preempt-plan",
	.synopsis = "preempt-plan --simulate [options] [SNAPSHOT ...] [--apply PATH ...]",
	.help =
		"Reads a cluster snapshot (nodes, bound and pending pods, PodGroups, Workloads,\n"
		"PodDisruptionBudgets, PriorityClasses; stdin when no path is given), applies the\n"
		"manifests given with --apply as kubectl apply would, with the pods their\n"
		"controllers create or delete, and plays the scheduling queue forward: each\n"
		"pending pod or PodGroup, in queue order, fits, preempts (victims removed,\n"
		"preemptor nominated) or stays unschedulable. Writes one PreemptionPlan per\n"
		"pending unit, one AppliedObject per applied object and a SimulationSummary;\n"
		"-o table a row per unit, a line per applied object and the summary, -o wide\n"
		"the victims of each unit and the whole reason too. --threads N (below) also\n"
		"shares a new preemptor shape's dry runs among N threads; the plans are the same.\n"
		"\n"
		"      --apply PATH ...       apply the manifests in these files or directories (every\n"
		"                             path after it up to the next option; - for stdin):\n"
		"                             Pod, Deployment, ReplicaSet, StatefulSet, Job, CronJob,\n"
		"                             DaemonSet, PriorityClass, PodGroup, Workload\n"
		"  -n, --namespace NS         namespace of applied objects that name none and of\n"
		"                             --scale KIND/NAME (default: default), as kubectl apply -n;\n"
		"                             the plans are every namespace's (one queue), -A is refused\n"
		"      --scale KIND/NAME      the Deployment, ReplicaSet, StatefulSet or Job to scale:\n"
		"                             deploy/NAME, deployment.apps/NAME, KIND/NAMESPACE/NAME\n"
		"      --replicas N           the --scale object's new count, as kubectl scale sets it\n"
		"                             (a Job's parallelism)\n"
		"      --pod-postfilter       evaluate every pending pod alone through the per-pod\n"
		"                             PostFilter, without the pod-group cycle\n"
		"      --no-cascade           do not re-queue victims their controller would recreate\n"
		"      --max-recreations N    bound on re-queued victims in one run (default 1000)\n"
		PK_CLI_DRA_PREEMPTION_HELP,
	.formats = "json,table,wide,html",
	.default_format = PK_FMT_JSON,
	.gates = SIMULATION_GATES,
};

/* --replay's (replay.c plays it; reading and --apply are --simulate's). */
static const pk_cli_spec replay_spec = {
	.prog = "preempt-plan",
	.synopsis = "preempt-plan --replay [options] SNAPSHOT TRACE ... [--apply PATH ...]",
	.help =
		"Plays a trace of pods over time against a cluster snapshot, with --simulate's\n"
		"scheduler step: each TRACE pod arrives at its metadata.creationTimestamp and, once\n"
		"bound, runs for its observed run time (the latest containerStatuses[].state.\n"
		"terminated.finishedAt minus status.startTime); the snapshot's pods run to the end.\n"
		"The clock jumps from event to event in whole seconds; at each instant pods complete,\n"
		"victims whose grace period is over are evicted (a controller's recreated as\n"
		"<name>-r<N>), arrivals join the queue, and one scheduling pass tries every pending\n"
		"pod in PrioritySort order: it binds, preempts (victims terminate, it is nominated)\n"
		"or waits. Writes a ReplayEvent per event, a ReplayPod per trace pod and\n"
		"replacement, and a ReplaySummary (per PriorityClass: counts, waits, lost work);\n"
		"-o table the summary per class; -o html a page with it, the resources allocated per\n"
		"class over time and the waits. Compare schemes with and without --apply.\n"
		"\n"
		"      --apply PATH ...       apply these manifests first (PriorityClasses of a new\n"
		"                             scheme, objects whose pods arrive at the start)\n"
		"  -n, --namespace NS         namespace of applied objects that name none\n"
		"      --until TIME|DURATION  stop at this RFC 3339 time or this long after the start\n"
		"                             (90s, 30m, 6h, 2d, 1h30m)\n"
		"      --max-instants N       stop after N instants (default 1000000), said\n"
		"      --grace-period SECONDS every victim's grace period (default: each pod's\n"
		"                             terminationGracePeriodSeconds, 30 when unset; at least 1)\n"
		"      --run-time-from ANNOTATION\n"
		"                             a trace pod's run time in seconds from this annotation\n"
		"      --strict               a trace pod without creationTimestamp is an error (exit 2)\n"
		"                             instead of skipped and counted\n"
		"      --progress             a progress line on stderr after each instant\n"
		PK_CLI_DRA_PREEMPTION_HELP,
	.formats = "json,table,html",
	.default_format = PK_FMT_JSON,
	.gates = SIMULATION_GATES,
};

enum {
	OPT_SIMULATE = 1,
	OPT_POD_POSTFILTER,
	OPT_SCALE,
	OPT_REPLICAS,
	OPT_NO_CASCADE,
	OPT_MAX_RECREATIONS,
	OPT_NAMESPACE,
	OPT_ALL_NAMESPACES,
	OPT_APPLY,
	OPT_REPLAY,
	OPT_UNTIL,
	OPT_MAX_INSTANTS,
	OPT_GRACE_PERIOD,
	OPT_RUN_TIME_FROM,
	OPT_STRICT,
	OPT_PROGRESS,
	OPT_DRA_PREEMPTION,
};

static const struct option long_options[] = {
	PK_CLI_COMMON_OPTIONS,
	{"simulate", no_argument, NULL, OPT_SIMULATE},
	{"pod-postfilter", no_argument, NULL, OPT_POD_POSTFILTER},
	{"scale", required_argument, NULL, OPT_SCALE},
	{"replicas", required_argument, NULL, OPT_REPLICAS},
	{"no-cascade", no_argument, NULL, OPT_NO_CASCADE},
	{"max-recreations", required_argument, NULL, OPT_MAX_RECREATIONS},
	{"namespace", required_argument, NULL, OPT_NAMESPACE},
	{"all-namespaces", no_argument, NULL, OPT_ALL_NAMESPACES}, /* refused, with why */
	{"apply", required_argument, NULL, OPT_APPLY}, /* taken out by split_apply */
	{"replay", no_argument, NULL, OPT_REPLAY},
	{"until", required_argument, NULL, OPT_UNTIL},
	{"max-instants", required_argument, NULL, OPT_MAX_INSTANTS},
	{"grace-period", required_argument, NULL, OPT_GRACE_PERIOD},
	{"run-time-from", required_argument, NULL, OPT_RUN_TIME_FROM},
	{"strict", no_argument, NULL, OPT_STRICT},
	{"progress", no_argument, NULL, OPT_PROGRESS},
	{"dra-preemption", required_argument, NULL, OPT_DRA_PREEMPTION},
	{NULL, 0, NULL, 0},
};

typedef struct sim_run sim_run;

/* How the run is written, chosen once from -o: the plans as they come, and
 * the end (applied objects, summary). */
typedef struct sim_writer {
	void (*begin)(sim_run *r);
	void (*plan)(sim_run *r, const pk_plan *p);
	void (*end)(sim_run *r, const pk_sim *m);
	const pk_plan_columns *columns;   /* a table's */
	bool footer_warnings;     /* the run's warnings go under it */
} sim_writer;

struct sim_run {
	pk_cli cli;
	pk_stats stats;
	pk_snapshot snap;
	pk_pg_set groups;
	const sim_writer *writer;
	pk_out out;
	pk_apply apply;
	pk_table table;
	pk_report *report;       /* -o html: the records go to the report */
	long trouble;
	/* manifests given with --apply */
	cJSON **applied;
	char **where;
	long napplied, appliedcap;
	long apply_trouble;      /* unreadable documents among them */
	long apply_nodes;        /* Node objects among them (a snapshot after --apply?) */
	char *apply_nodes_file;  /* the first file that held one */
	pp_replay_input replay;  /* --replay: what it notes while reading */
};

/* ---- reading -------------------------------------------------------------------- */

/* The kind to count an object under: Kind, or Kind.group for a kind of an
 * API group the simulation does not read (a Volcano Job is not a Job). */
static const char *stats_kind(const cJSON *obj, char *buf, size_t size)
{
	static const char *const groups[] = { "apps", "batch", "extensions", "scheduling.k8s.io", "policy" };
	const char *kind = pk_kind(obj), *api = pk_api_version(obj);
	const char *slash = strchr(api, '/');
	if (!*kind)
		return "(no kind)";
	if (!slash)
		return kind;
	for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
		if (strlen(groups[i]) == (size_t)(slash - api) && strncmp(api, groups[i], (size_t)(slash - api)) == 0)
			return kind;
	snprintf(buf, size, "%s.%.*s", kind, (int)(slash - api), api);
	return buf;
}

static void on_list(void *ctx, const char *item_kind)
{
	sim_run *r = ctx;
	pk_snapshot_list_begun(&r->snap, item_kind);
}

static int on_record(void *ctx, pk_record *rec)
{
	sim_run *r = ctx;
	if (!pk_cli_accept_record(&r->cli, &r->stats, rec, &r->trouble))
		return 0;
	if (r->replay.trace_phase && !pp_replay_trace_record(&r->replay, &r->cli, rec->obj, &rec->origin)) {
		pk_stats_skip(&r->stats, pk_kind(rec->obj));
		return 0;
	}
	const char *kind = pk_kind(rec->obj);
	char err[512] = "";
	bool rejected;
	if (pk_pg_set_add(&r->groups, &r->snap, rec->obj, &rejected, err, sizeof err)) {
		if (rejected) {
			pk_stats_reject(&r->stats, kind);
			pk_diag_report(&r->cli.diag, PK_SEV_WARNING, &rec->origin, "%s", err);
		} else if (!pk_pg_is_controller_kind(kind)) {
			r->stats.used++;
		} /* a controller object counts once we know whether an apply read it */
		return 0;
	}
	bool take = false;
	switch (pk_snapshot_add(&r->snap, rec->obj, r->stats.read - 1,
	                        &take, err, sizeof err)) {
	case PK_ADD_USED:
		r->stats.used++;
		if (strcmp(kind, "Pod") == 0) {
			pk_pg_note_pod(&r->groups, &r->snap, rec->obj);
			if (r->replay.args.on)
				pp_replay_pod_added(&r->replay, r->snap.npods - 1, rec->obj);
		}
		break;
	case PK_ADD_SKIPPED: {
		char label[200];
		pk_stats_skip(&r->stats, stats_kind(rec->obj, label, sizeof label));
		break;
	}
	case PK_ADD_REJECTED:
		pk_stats_reject(&r->stats, kind);
		pk_diag_report(&r->cli.diag, PK_SEV_WARNING, &rec->origin, "%s %s: %s", kind, pk_name(rec->obj), err);
		break;
	}
	if (take)
		rec->obj = NULL;
	return 0;
}

/* A manifest to apply: kept with where it came from, applied once the
 * snapshot is complete. */
static int on_applied(void *ctx, pk_record *rec)
{
	sim_run *r = ctx;
	if (!pk_cli_accept_record(&r->cli, &r->stats, rec, &r->apply_trouble))
		return 0;
	size_t cap = (size_t)r->appliedcap;
	r->applied = pk_grow(r->applied, &cap, (size_t)r->napplied + 1, sizeof *r->applied);
	if (cap != (size_t)r->appliedcap) /* parallel */
		r->where = pk_xrealloc(r->where, cap, sizeof *r->where);
	r->appliedcap = (long)cap;
	if (strcmp(pk_kind(rec->obj), "Node") == 0 && r->apply_nodes++ == 0)
		r->apply_nodes_file = pk_xstrdup(rec->origin.file ? rec->origin.file : "-");
	char at[300];
	snprintf(at, sizeof at, "%s:%ld", rec->origin.file ? rec->origin.file : "-", rec->origin.line);
	r->where[r->napplied] = pk_xstrdup(at);
	r->applied[r->napplied++] = rec->obj;
	rec->obj = NULL;
	return 0;
}

/* ---- plans ------------------------------------------------------------------------ */

/* The warning for a pod whose PodGroup is not in the input: in the plan,
 * and once per group on stderr and under the table, with a count. */
static void note_missing_group(sim_run *r, pk_plan *plan, const pk_pod *p, char *msg, size_t size)
{
	if (!pk_pg_missing_group(&r->groups, &r->snap, p, msg, size))
		return;
	pk_plan_add_warning(plan, msg);
	char key[600];
	snprintf(key, sizeof key, "%s %s/%s not in the input", *p->con->pod_group ? "PodGroup" : "Workload", p->namespace_,
	         *p->con->pod_group ? p->con->pod_group : p->con->workload_name);
	pk_diag_warn_once(&r->cli.diag, key, NULL, "%s", msg);
}

static void warn(sim_run *r, const pk_origin *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void on_step(void *ctx, const pk_sim_step *st)
{
	sim_run *r = ctx;
	pk_plan plan;
	char missing[1024];
	pk_apply_observe(&r->apply, st);
	pk_plan_of_step(&plan, st, &r->snap, r->cli.engine.release.minor, &r->apply);
	if (st->group_eval) {
		const char *reprieve = pk_pg_reprieve_assumption(st->group_eval);
		if (reprieve) /* in the plan's warnings already */
			warn(r, NULL, "%s", reprieve);
	} else {
		note_missing_group(r, &plan, st->unit->pods[0], missing, sizeof missing);
	}
	char resize[800];
	if (st->unit->resize_own) { /* in the plan, on stderr and under the table */
		const pk_pod *p = st->unit->pods[0];
		snprintf(resize, sizeof resize,
		         "pod %s/%s is bound to node %s with its in-place resize Deferred: planned as the scheduler with "
		         "InPlacePodVerticalScalingSchedulerPreemption (alpha, KEP-5836) plans it: on node %s only, its "
		         "own entry discounted so that only the increase must fit, victims of lower priority there, no "
		         "nominatedNodeName written; the kubelet resizes it once they are gone, and it stays on %s at its "
		         "spec requests",
		         p->namespace_, p->name, p->node_name, p->node_name, p->node_name);
		pk_plan_add_warning(&plan, resize);
		warn(r, NULL, "%s", resize);
	}
	for (int i = 0; i < st->unit->npods; i++) { /* claims taken as their controllers make them */
		const pk_pod *p = st->unit->pods[i];
		if (pk_volumes_assumption(p)) /* in the plan's warnings already */
			warn(r, NULL, "pod %s/%s: %s", p->namespace_, p->name, pk_volumes_assumption(p));
		for (int k = 0; pk_dra_assumption(p, k); k++) /* likewise */
			warn(r, NULL, "pod %s/%s: %s", p->namespace_, p->name, pk_dra_assumption(p, k));
	}
	r->writer->plan(r, &plan);
	pk_plan_free(&plan);
}

static cJSON *summary_json(const sim_run *r, const pk_sim *m)
{
	const pk_sim_summary *s = &m->sum;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", "SimulationSummary");
	pk_cli_add_k8s_version(&r->cli, o);
	cJSON_AddNumberToObject(o, "scheduled", (double)s->scheduled);
	cJSON_AddNumberToObject(o, "nominated", (double)s->nominated);
	cJSON_AddNumberToObject(o, "unschedulable", (double)s->unschedulable);
	cJSON_AddNumberToObject(o, "notEligible", (double)s->not_eligible);
	if (s->resized) /* only when Deferred resizes were queued: other summaries keep their shape */
		cJSON_AddNumberToObject(o, "resizedInPlace", (double)s->resized);
	cJSON_AddNumberToObject(o, "victims", (double)s->victims);
	cJSON_AddNumberToObject(o, "cascadingPreemptions", (double)s->cascading_preemptions);
	cJSON_AddNumberToObject(o, "units", (double)s->units);
	cJSON_AddNumberToObject(o, "pods", (double)s->pods);
	cJSON_AddNumberToObject(o, "podGroups", (double)s->pod_groups);
	cJSON_AddNumberToObject(o, "recreated", (double)s->recreated);
	cJSON_AddNumberToObject(o, "recreationsDropped", (double)s->recreations_dropped);
	cJSON_AddNumberToObject(o, "scaled", (double)s->scaled);
	cJSON_AddNumberToObject(o, "nodes", (double)m->s->nnodes);
	if (r->apply.n)
		cJSON_AddItemToObject(o, "applied", pk_apply_totals_json(&r->apply));
	cJSON *w = pk_cli_warnings_json(&r->cli);
	if (cJSON_GetArraySize(w))
		cJSON_AddItemToObject(o, "warnings", w); /* what the whole run assumed or left out */
	else
		cJSON_Delete(w);
	return o;
}

/* ---- writers: one per format, chosen once (sim_writer_for) ---------------------------- */

/* json and html: the plans, then an AppliedObject record per applied
 * object and the SimulationSummary, each handed to take (which owns it). */
static void write_records_end(sim_run *r, const pk_sim *m, void (*take)(sim_run *r, cJSON *rec))
{
	for (long i = 0; i < r->apply.n; i++) {
		const pk_applied *o = &r->apply.objs[i];
		if (o->skip)
			continue;
		cJSON *j = pk_applied_json(o);
		pk_cli_add_k8s_version(&r->cli, j);
		take(r, j);
	}
	take(r, summary_json(r, m));
}

static void json_record(sim_run *r, cJSON *rec)
{
	pk_out_json(&r->out, rec);
	cJSON_Delete(rec);
}

static void json_begin(sim_run *r)
{
	(void)r;
}

static void json_plan(sim_run *r, const pk_plan *p)
{
	char *text = pk_plan_text(p); /* a record per decision: printed without a tree */
	pk_out_record_text(&r->out, text);
	free(text);
}

static void json_end(sim_run *r, const pk_sim *m)
{
	write_records_end(r, m, json_record);
}

static void html_record(sim_run *r, cJSON *rec)
{
	pk_report_take(r->report, rec);
}

static void html_begin(sim_run *r)
{
	pk_report_opts o;
	pk_report_opts_default(&o);
	o.title = "preempt-plan --simulate";
	o.k8s_minor = r->cli.engine.release.minor;
	o.nodes = r->snap.nnodes;
	r->report = pk_report_new(&o);
}

static void html_plan(sim_run *r, const pk_plan *p)
{
	html_record(r, pk_plan_json(p));
}

static void html_end(sim_run *r, const pk_sim *m)
{
	write_records_end(r, m, html_record);
	pk_report_run_warnings(r->report, &r->cli.diag); /* the summary's, with their counts */
	pk_report_write(r->report, &r->out);
}

static const pk_plan_col narrow_cols[] = { PK_COL_PREEMPTOR, PK_COL_PRIORITY, PK_COL_RESULT,
                                           PK_COL_NODE, PK_COL_VICTIMS, PK_COL_REASON_FIRST };
static const pk_plan_col wide_cols[] = { PK_COL_PREEMPTOR, PK_COL_PRIORITY, PK_COL_RESULT, PK_COL_NODE,
                                         PK_COL_VICTIMS, PK_COL_VICTIM_PODS, PK_COL_REASON };
static const pk_plan_columns narrow = PK_PLAN_COLUMNS(narrow_cols);
static const pk_plan_columns wide = PK_PLAN_COLUMNS(wide_cols);

static void table_begin(sim_run *r)
{
	pk_plan_table_init(&r->table, r->writer->columns, r->cli.no_headers);
}

static void table_plan(sim_run *r, const pk_plan *p)
{
	pk_plan_row row;
	bool compared;
	pk_plan_row_of(&row, p, &compared);
	pk_plan_table_row(&r->table, r->writer->columns, &row);
}

/* Under the rows: the applied objects, the warnings, the summary. */
static void table_end(sim_run *r, const pk_sim *m)
{
	char msg[2048];
	for (long i = 0; i < r->apply.n; i++) {
		if (r->apply.objs[i].skip)
			continue;
		pk_applied_message(&r->apply.objs[i], msg, sizeof msg);
		pk_table_footer(&r->table, "%s", msg);
	}
	pk_cli_table_warnings(&r->cli, &r->table);
	const pk_sim_summary *s = &m->sum;
	char not_eligible[64] = "";
	if (s->not_eligible)
		snprintf(not_eligible, sizeof not_eligible, ", %ld not eligible to preempt", s->not_eligible);
	if (s->resized) {
		size_t w = strlen(not_eligible);
		snprintf(not_eligible + w, sizeof not_eligible - w, ", %ld resized in place", s->resized);
	}
	pk_table_footer(&r->table, "%ld unit(s): %ld scheduled, %ld nominated, %ld unschedulable%s; %ld victim(s), "
	                "%ld recreated, %ld cascading preemption(s)",
	                s->units, s->scheduled, s->nominated, s->unschedulable, not_eligible, s->victims, s->recreated,
	                s->cascading_preemptions);
	pk_table_flush(&r->table, &r->out);
}

static const sim_writer json_writer = { json_begin, json_plan, json_end, NULL, false };
static const sim_writer html_writer = { html_begin, html_plan, html_end, NULL, false };
static const sim_writer narrow_writer = { table_begin, table_plan, table_end, &narrow, true };
static const sim_writer wide_writer = { table_begin, table_plan, table_end, &wide, true };

static const sim_writer *sim_writer_for(pk_format f)
{
	switch (f) {
	case PK_FMT_TABLE: return &narrow_writer;
	case PK_FMT_WIDE: return &wide_writer;
	case PK_FMT_HTML: return &html_writer;
	default: return &json_writer;
	}
}

/* A warning on stderr, once per message, that also goes under the table. */
static void warn(sim_run *r, const pk_origin *at, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	pk_diag_warn_once(&r->cli.diag, msg, at, "%s", msg);
}

/* PriorityClasses the snapshot lacks, taken from its pods or not (priority.h):
 * said once for the run. */
static void warn_classes(sim_run *r)
{
	char text[1200];
	if (pk_inferred_classes_text(&r->snap.classes, text, sizeof text))
		warn(r, NULL, "%s", text);
	for (int i = 0; i < r->snap.classes.nevidence; i++)
		if (r->snap.classes.evidence[i].min != r->snap.classes.evidence[i].max)
			warn(r, NULL, "%s", pk_class_evidence_text(&r->snap.classes.evidence[i], text, sizeof text));
	/* the kinds the volume filters of the queue's pods need */
	pk_pod **pending;
	long n = pk_snapshot_pending(&r->snap, &pending);
	if (pk_volumes_input_hint(&r->snap, pending, n, text, sizeof text))
		warn(r, NULL, "%s", text);
	if (pk_dra_input_hint(&r->snap, pending, n, text, sizeof text))
		warn(r, NULL, "%s", text);
	if (pk_dra_nodealloc_note(&r->snap, r->cli.engine.release.minor, text, sizeof text))
		warn(r, NULL, "%s", text);
	free(pending);
	if (pk_sim_resizes_left_text(&r->snap, &r->cli.engine.release, NULL, text, sizeof text))
		warn(r, NULL, "%s", text);
	const char *ns_assumed = pk_ns_assumption(r->snap.namespaces); /* also in each plan's warnings */
	if (ns_assumed)
		warn(r, NULL, "%s", ns_assumed);
}

/* ---- accounting ------------------------------------------------------------------ */

/* Stats and messages for the applied manifests: rejections are errors at
 * their file:line, assumptions warnings. */
static void account_applied(sim_run *r, const pk_apply_verdict *verdict)
{
	for (long i = 0; i < r->napplied; i++) {
		const char *kind = pk_kind(r->applied[i]);
		const pk_applied *o = &r->apply.objs[i];
		pk_origin at = { .file = r->where[i] };
		char *colon = strrchr(r->where[i], ':');
		if (colon) {
			at.line = strtol(colon + 1, NULL, 10);
			*colon = '\0';
		}
		if (verdict[i] == PK_APPLY_USED) {
			r->stats.used++;
		} else if (verdict[i] == PK_APPLY_SKIPPED) {
			char label[200];
			pk_stats_skip(&r->stats, stats_kind(r->applied[i], label, sizeof label));
		} else {
			pk_stats_reject(&r->stats, kind);
			char msg[2048];
			pk_applied_message(o, msg, sizeof msg);
			pk_diag_report(&r->cli.diag, PK_SEV_ERROR, &at, "%s", msg);
		}
		const cJSON *w;
		cJSON_ArrayForEach(w, o->warnings)
			warn(r, &at, "%s %s/%s: %s", o->kind, o->namespace_, o->name, w->valuestring);
		if (colon)
			*colon = ':';
	}
}

/* The snapshot's controller objects: used when an apply or --scale read
 * them, else skipped (the pods they have are in the snapshot already). */
static void account_live(sim_run *r)
{
	const cJSON *o;
	long i = 0;
	cJSON_ArrayForEach(o, r->groups.templates) {
		if (r->apply.live_used && r->apply.live_used[i])
			r->stats.used++;
		else
			pk_stats_skip(&r->stats, pk_kind(o));
		i++;
	}
}

/* Every kind not used, once with its count. */
static void warn_skipped(sim_run *r)
{
	for (int i = 0; i < r->stats.nkinds; i++) {
		const char *kind = r->stats.by_kind[i].kind;
		long n = r->stats.by_kind[i].skipped;
		if (!n)
			continue;
		if (pk_pg_is_controller_kind(kind) && r->replay.args.on)
			warn(r, NULL, "%ld %s object(s) not used: --replay plays the pods the snapshot and the traces have; "
			              "to apply a manifest give it with --apply", n, kind);
		else if (pk_pg_is_controller_kind(kind))
			warn(r, NULL, "%ld %s object(s) not used: --simulate plays the pods the snapshot has; to apply "
			              "a manifest give it with --apply, to scale a live object name it with --scale", n, kind);
		else {
			char text[256];
			warn(r, NULL, "%s", pk_apply_unused_text(text, sizeof text, n, kind,
			                                         r->replay.args.on ? "--replay" : "--simulate"));
		}
	}
}

static void warn_after_run(sim_run *r, const pk_sim *m)
{
	if (m->sum.recreations_dropped)
		warn(r, NULL, "%ld victim(s) their controllers would recreate were not re-queued: --max-recreations %ld "
		              "was reached, so later cascading preemptions are missing (raise --max-recreations)",
		     m->sum.recreations_dropped, m->opts.max_recreations);
}

/* ---- options ---------------------------------------------------------------------- */

typedef struct sim_args {
	const char *scale;
	long replicas;
	bool replicas_set;
	const char *ns;
	char **apply_paths;       /* argv entries after --apply */
	int napply;
	char **rest;              /* argv without them */
	int nrest;
} sim_args;

static bool is_path_arg(const char *s)
{
	return s[0] != '-' || strcmp(s, "-") == 0;
}

/* --apply takes every path after it up to the next option (or "--"), which
 * getopt cannot express: take them out of argv first. */
static void split_apply(int argc, char **argv, sim_args *a)
{
	a->apply_paths = pk_xmalloc(sizeof *a->apply_paths * (size_t)(argc + 1));
	a->rest = pk_xmalloc(sizeof *a->rest * (size_t)(argc + 1));
	bool dashdash = false;
	for (int i = 0; i < argc; i++) {
		if (!dashdash && strcmp(argv[i], "--") == 0)
			dashdash = true;
		bool apply = !dashdash && i > 0 && pk_cli_names_option(argv[i], "apply", long_options);
		if (apply && strchr(argv[i], '=')) {
			a->apply_paths[a->napply++] = strchr(argv[i], '=') + 1;
			continue;
		}
		if (apply) {
			while (i + 1 < argc && is_path_arg(argv[i + 1]))
				a->apply_paths[a->napply++] = argv[++i];
			if (!a->napply)
				a->apply_paths[a->napply++] = NULL; /* reported after getopt */
			continue;
		}
		a->rest[a->nrest++] = argv[i];
	}
	a->rest[a->nrest] = NULL;
}

static void parse_options(sim_run *r, pk_sim_opts *so, sim_args *a, int argc, char **argv)
{
	int opt;
	optind = 1;
	while ((opt = pk_cli_getopt(&r->cli, argc, argv, "n:A", long_options)) != -1) {
		switch (opt) {
		case OPT_SIMULATE:
		case OPT_REPLAY:
			break;
		case OPT_UNTIL:
			r->replay.args.until = optarg;
			break;
		case OPT_MAX_INSTANTS:
			r->replay.args.max_instants = (long)pk_cli_number(&r->cli, "--max-instants", optarg, 1, 1000000000);
			break;
		case OPT_GRACE_PERIOD:
			r->replay.args.grace_period = (int)pk_cli_number(&r->cli, "--grace-period", optarg, 0, 100000000);
			break;
		case OPT_RUN_TIME_FROM:
			r->replay.args.run_time_from = optarg;
			break;
		case OPT_STRICT:
			r->replay.args.strict = true;
			break;
		case OPT_PROGRESS:
			r->replay.args.progress = true;
			break;
		case OPT_DRA_PREEMPTION:
			pk_cli_dra_preemption(&r->cli, optarg);
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
		case 'n':
		case OPT_NAMESPACE:
			a->ns = optarg;
			break;
		case 'A':
		case OPT_ALL_NAMESPACES:
			pk_cli_usage_error(&r->cli, "-A/--all-namespaces: --simulate plays one queue and writes every "
			                            "namespace's plans; its -n NS names the namespace of applied objects "
			                            "and --scale, as kubectl apply -n does");
		}
	}
	const pp_replay_args *ra = &r->replay.args;
	if (!ra->on && (ra->until || ra->run_time_from || ra->strict || ra->progress || ra->grace_period >= 0 ||
	                ra->max_instants != 1000000))
		pk_cli_usage_error(&r->cli, "--until, --max-instants, --grace-period, --run-time-from, --strict and "
		                            "--progress are --replay's");
	if (ra->on && (a->scale || so->pod_postfilter || !so->cascade))
		pk_cli_usage_error(&r->cli, "--scale, --pod-postfilter and --no-cascade are --simulate's, not --replay's");
	if (ra->on && r->cli.format != PK_FMT_JSON && r->cli.format != PK_FMT_TABLE && r->cli.format != PK_FMT_HTML)
		pk_cli_usage_error(&r->cli, "--replay writes json, table or html");
	if (ra->on && argc - optind < 2)
		pk_cli_usage_error(&r->cli, "--replay needs a SNAPSHOT and at least one TRACE (- for stdin)");
	if (r->cli.format != PK_FMT_JSON && r->cli.format != PK_FMT_TABLE && r->cli.format != PK_FMT_WIDE &&
	    r->cli.format != PK_FMT_HTML)
		pk_cli_usage_error(&r->cli, "--simulate writes json, table, wide or html");
	if (a->replicas_set != (a->scale != NULL))
		pk_cli_usage_error(&r->cli, "--replicas and --scale go together");
	for (int i = 0; i < a->napply; i++)
		if (!a->apply_paths[i])
			pk_cli_usage_error(&r->cli, "--apply needs at least one path (- for stdin)");
	bool snapshot_stdin = optind >= argc;
	for (int i = optind; i < argc; i++)
		snapshot_stdin |= strcmp(argv[i], "-") == 0;
	for (int i = 0; i < a->napply; i++)
		if (strcmp(a->apply_paths[i], "-") == 0 && snapshot_stdin)
			pk_cli_usage_error(&r->cli, "standard input can be read once: give the snapshot or the manifests "
			                            "to --apply as files");
}

/* ---- main ----------------------------------------------------------------------- */

/* Apply the manifests and --scale; false on a --scale error (trouble). */
static bool apply_all(sim_run *r, pk_sim *sim, const sim_args *a)
{
	pk_apply_init(&r->apply, sim, a->ns);
	pk_apply_verdict *verdict = pk_xcalloc((size_t)r->napplied + 1, sizeof *verdict);
	pk_apply_run(&r->apply, r->applied, (const char *const *)r->where, r->napplied, verdict);
	account_applied(r, verdict);
	free(verdict);
	char err[512];
	if (a->scale && pk_apply_scale(&r->apply, a->scale, a->ns, a->replicas, err, sizeof err) < 0) {
		pk_diag_report(&r->cli.diag, PK_SEV_ERROR, NULL, "%s", err);
		return false;
	}
	if (a->scale) {
		const pk_applied *o = &r->apply.objs[r->apply.n - 1];
		const cJSON *w;
		cJSON_ArrayForEach(w, o->warnings)
			warn(r, NULL, "--scale %s: %s", a->scale, w->valuestring);
		if (o->action == PK_APPLY_REJECTED) {
			char msg[2048];
			pk_applied_message(o, msg, sizeof msg);
			pk_diag_report(&r->cli.diag, PK_SEV_ERROR, NULL, "--scale: %s", msg);
		}
	}
	account_live(r);
	return true;
}

/* Run the queue and write everything; the exit status. */
static int simulate(sim_run *r, pk_sim *sim, double *secs)
{
	warn_skipped(r);
	if (sim->n == 0) /* an empty answer is a note, in every tool */
		pk_diag_report(&r->cli.diag, PK_SEV_NOTE, NULL, "%s",
		               r->apply.n ? "nothing to schedule: no pending pods, and the applied objects create none"
		                          : "no pending pods in the input");
	r->writer->begin(r);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pk_sim_run(sim, on_step, r);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	pk_apply_finish(&r->apply);
	warn_after_run(r, sim);
	r->writer->end(r, sim);
	bool negative = sim->sum.unschedulable || sim->sum.not_eligible || pk_apply_rejected(&r->apply) ||
	                pk_apply_unplaced(&r->apply);
	return negative ? PK_EXIT_FINDING : PK_EXIT_OK;
}

static void free_run(sim_run *r)
{
	for (long i = 0; i < r->napplied; i++) {
		cJSON_Delete(r->applied[i]);
		free(r->where[i]);
	}
	free(r->applied);
	free(r->where);
	free(r->apply_nodes_file);
	pp_replay_input_free(&r->replay);
	pk_apply_free(&r->apply);
	pk_report_free(r->report);
	pk_pg_set_free(&r->groups);
	pk_snapshot_free(&r->snap);
	free(r);
}

/* The snapshot, and with --replay the first path alone, then the traces. */
static bool read_inputs(sim_run *r, char **paths, size_t n)
{
	if (!r->replay.args.on)
		return pk_read_paths(&r->cli.reader, paths, n, on_record, r) >= 0;
	if (pk_read_paths(&r->cli.reader, paths, 1, on_record, r) < 0)
		return false;
	r->replay.nsnapshot_pods = r->snap.npods;
	r->replay.trace_phase = true;
	r->cli.reader.prune = NULL; /* a trace pod's run time is in its status and annotations */
	return pk_read_paths(&r->cli.reader, paths + 1, n - 1, on_record, r) >= 0;
}

/* The --apply paths, one at a time, so that a path without any object
 * (an empty directory) is said, and a snapshot among them too. */
static bool read_applied(sim_run *r, const pk_reader_opts *reader, const sim_args *a)
{
	for (int i = 0; i < a->napply; i++) {
		long before = r->napplied, trouble = r->apply_trouble;
		if (pk_read_paths(reader, &a->apply_paths[i], 1, on_applied, r) < 0)
			return false;
		if (r->napplied == before && r->apply_trouble == trouble)
			warn(r, NULL, "--apply %s: no manifests in it (an empty directory or file): nothing applied from it",
			     a->apply_paths[i]);
	}
	if (r->apply_nodes)
		warn(r, NULL,
		     "--apply %s: it holds %ld Node object(s), as a cluster snapshot does: every path after --apply is "
		     "taken as manifests to apply (Nodes are not applied, pods are created anew); give the snapshot "
		     "before --apply",
		     r->apply_nodes_file, r->apply_nodes);
	return true;
}

int pp_simulate_main(int argc, char **argv)
{
	sim_run *r = pk_xcalloc(1, sizeof *r);
	pp_replay_args_default(&r->replay.args);
	r->replay.args.on = pp_wants_replay(argc, argv, long_options);
	pk_cli_init(&r->cli, r->replay.args.on ? &replay_spec : &spec);
	pk_sim_opts so;
	pk_sim_opts_default(&so);
	sim_args a = {0};
	split_apply(argc, argv, &a);
	parse_options(r, &so, &a, a.nrest, a.rest);
	/* the engine options are final once the options are read */
	pk_snapshot_init(&r->snap);
	r->snap.threads = r->cli.engine.threads;
	r->snap.volume_limit_scaling = r->cli.engine.release.volume_limit_scaling;
	r->snap.dra_kep5690 = r->cli.engine.dra_kep5690;
	r->snap.dra_node_allocatable = r->cli.engine.release.dra_node_allocatable;
	r->snap.dra_off = pk_dra_features_off(&r->cli.engine.release);
	pk_pg_set_init(&r->groups, &r->cli.engine.release);
	pk_eval_opts_engine(&so.eval, &r->cli.engine);
	if (r->replay.args.on) { /* the replay deletes victims after their grace and replaces them itself */
		so.nominated_first = so.victims_terminate = true;
		so.cascade = false;
	}
	r->writer = sim_writer_for(r->cli.format);
	/* on one terminal, each assumption once: under the table */
	if (r->writer->footer_warnings && !r->cli.no_headers && pk_diag_same_terminal(STDOUT_FILENO, STDERR_FILENO))
		r->cli.diag.causes_in_output = 1;
	pk_out_init(&r->out, stdout);

	int status = PK_EXIT_TROUBLE;
	double secs = 0;
	long units = 0;
	pk_reader_opts apply_reader = r->cli.reader; /* manifests are read whole */
	r->cli.reader.prune = pk_snapshot_unused_members;
	r->cli.reader.list_begun = on_list;
	/* the snapshot and the manifests are read whole before anything is
	 * simulated: one that could not be read to its end gives no plans */
	if (read_inputs(r, a.rest + optind, (size_t)(a.nrest - optind)) &&
	    !r->trouble && read_applied(r, &apply_reader, &a) &&
	    !pk_cli_input_cut(&r->cli, r->replay.args.on ? "replay" : "plans")) {
		pk_snapshot_finish(&r->snap);
		pk_dra_play_forward(&r->snap); /* a placement's devices taken, an evicted pod's freed */
		pk_dra_nodealloc_play_forward(&r->snap); /* and their node-allocatable footprint (KEP-5517) */
		warn_classes(r);
		pk_pg_set_finish(&r->groups, &r->snap);
		const char *caveat = pk_pg_release_caveat(&r->groups);
		if (caveat) /* on stderr, under the table and in the summary's warnings */
			warn(r, NULL, "%s", caveat);
		pk_sim sim;
		pk_sim_init(&sim, &r->snap, &r->groups, &so);
		if (r->snap.nnodes == 0)
			pk_diag_report(&r->cli.diag, PK_SEV_ERROR, NULL, "no nodes in the snapshot: --simulate needs "
			               "them (kubectl get nodes,pods,pdb,priorityclasses -A -o json)%s%s%s",
			               r->apply_nodes ? "; " : "", r->apply_nodes ? r->apply_nodes_file : "",
			               r->apply_nodes ? " holds nodes but follows --apply: give the snapshot before --apply"
			                              : "");
		else if (apply_all(r, &sim, &a)) {
			if (r->replay.args.on) {
				warn_skipped(r);
				status = pp_replay_run(&r->replay, &r->cli, &r->out, &sim);
			} else {
				status = simulate(r, &sim, &secs);
				units = sim.sum.units;
			}
		}
		pk_sim_free(&sim);
	}
	if (r->trouble || r->apply_trouble)
		status = PK_EXIT_TROUBLE;
	if (status != PK_EXIT_TROUBLE)  /* a complete answer: said so, for the stage after */
		pk_cli_stream_end(&r->cli, &r->out);
	pk_cli_finish(&r->cli);
	if (r->cli.stats) {
		pk_stats_print(&r->stats, r->cli.prog, stderr);
		fprintf(stderr, "%s: stats: simulated %ld unit(s) in %.3f s\n", r->cli.prog, units, secs);
	}
	if (pk_out_finish(&r->out, &r->cli.diag) != PK_EXIT_OK)
		status = PK_EXIT_TROUBLE;
	free(a.apply_paths);
	free(a.rest);
	free_run(r);
	return status;
}
