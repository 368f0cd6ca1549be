/* preempt-plan --replay: a trace of pods played over a snapshot with the
 * simulator's step (common/sched/sim/replay.h); the ReplayEvent, ReplayPod
 * and ReplaySummary records, or the summary per class as a table. */
#include "replay.h"

#include <inttypes.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "io/table.h"
#include "k8s/json.h"
#include "sched/report/records.h"
#include "sched/report/replay_page.h"
#include "sched/sim/replay.h"

#define NS_PER_S 1000000000LL

void pp_replay_args_default(pp_replay_args *a)
{
	memset(a, 0, sizeof *a);
	a->max_instants = 1000000;
	a->grace_period = -1;
}

bool pp_wants_replay(int argc, char **argv, const struct option *longopts)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (pk_cli_names_option(argv[i], "replay", longopts))
			return true;
	return false;
}

/* ---- reading ------------------------------------------------------------------- */

static void note_index(pp_replay_input *in, long index)
{
	if (index < in->cap)
		return;
	long cap = in->cap ? in->cap : 256;
	while (cap <= index)
		cap *= 2;
	in->grace = pk_xrealloc(in->grace, (size_t)cap, sizeof *in->grace);
	in->run = pk_xrealloc(in->run, (size_t)cap, sizeof *in->run);
	in->deleted = pk_xrealloc(in->deleted, (size_t)cap, sizeof *in->deleted);
	for (long i = in->cap; i < cap; i++) {
		in->grace[i] = 30;
		in->run[i] = -1;
		in->deleted[i] = INT64_MIN;
	}
	in->cap = cap;
}

/* The observed run time: the latest container's finishedAt minus
 * status.startTime, or the annotation --run-time-from names (seconds). */
static int64_t run_time_of(const pp_replay_input *in, const cJSON *obj)
{
	if (in->args.run_time_from) {
		const cJSON *v = pk_get(pk_getp(obj, "metadata.annotations"), in->args.run_time_from);
		if (!cJSON_IsString(v))
			return -1;
		char *end;
		double secs = strtod(v->valuestring, &end);
		return end == v->valuestring || *end || !(secs >= 0) || secs > 1e12 ? -1 : (int64_t)ceil(secs);
	}
	int64_t start, latest = INT64_MIN;
	const char *st = pk_str(obj, "status.startTime");
	if (!st || !pk_parse_time(st, &start))
		return -1;
	const cJSON *cs;
	cJSON_ArrayForEach(cs, pk_getp(obj, "status.containerStatuses")) {
		const char *fin = pk_str(cs, "state.terminated.finishedAt");
		int64_t t;
		if (fin && pk_parse_time(fin, &t) && t > latest)
			latest = t;
	}
	if (latest == INT64_MIN || latest < start)
		return -1;
	return (latest - start + NS_PER_S - 1) / NS_PER_S;
}

bool pp_replay_trace_record(pp_replay_input *in, pk_cli *cli, cJSON *obj, const pk_origin *at)
{
	if (strcmp(pk_kind(obj), "Pod") != 0) {
		in->not_pods++;
		return false;
	}
	const char *created = pk_str(obj, "metadata.creationTimestamp");
	int64_t t;
	if (!created || !pk_parse_time(created, &t)) {
		if (in->args.strict) {
			pk_diag_report(&cli->diag, PK_SEV_ERROR, at, "trace pod %s/%s has no metadata.creationTimestamp: "
			               "its arrival is unknown (--strict)", pk_namespace(obj), pk_name(obj));
			in->strict_failed = true;
		}
		in->no_creation++;
		return false;
	}
	/* arrives pending: where and how it ran is the replay's to decide */
	int64_t run = run_time_of(in, obj);
	cJSON *spec = cJSON_GetObjectItemCaseSensitive(obj, "spec");
	cJSON_DeleteItemFromObjectCaseSensitive(spec, "nodeName");
	/* admitted anew when it arrives: its priority is its class's in the snapshot (a scheme to compare) */
	if (*pk_str_or(obj, "spec.priorityClassName", ""))
		cJSON_DeleteItemFromObjectCaseSensitive(spec, "priority");
	cJSON *meta = cJSON_GetObjectItemCaseSensitive(obj, "metadata");
	cJSON_DeleteItemFromObjectCaseSensitive(meta, "deletionTimestamp");
	cJSON_DeleteItemFromObjectCaseSensitive(obj, "status");
	cJSON *status = cJSON_AddObjectToObject(obj, "status");
	cJSON_AddStringToObject(status, "phase", "Pending");
	/* the run time travels with the object to pp_replay_pod_added */
	cJSON_AddNumberToObject(obj, "x-replay-run", (double)run);
	return true;
}

void pp_replay_pod_added(pp_replay_input *in, long index, const cJSON *obj)
{
	note_index(in, index);
	int64_t g;
	if (pk_int64(obj, "spec.terminationGracePeriodSeconds", &g) && g >= 0 && g < 100000000)
		in->grace[index] = (int)g;
	int64_t run;
	if (in->trace_phase && pk_int64(obj, "x-replay-run", &run))
		in->run[index] = run;
	const char *del = pk_str(obj, "metadata.deletionTimestamp");
	int64_t t;
	if (!in->trace_phase && del && pk_parse_time(del, &t))
		in->deleted[index] = (t + NS_PER_S - 1) / NS_PER_S;
}

void pp_replay_input_free(pp_replay_input *in)
{
	free(in->grace);
	free(in->run);
	free(in->deleted);
}

/* ---- times ------------------------------------------------------------------- */

static const char *time_text(int64_t t, char *buf, size_t size)
{
	pk_format_time(t * NS_PER_S, buf, size);
	return buf;
}

static void add_time(cJSON *o, const char *key, int64_t t)
{
	char buf[48];
	if (t == PK_REPLAY_NONE)
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddStringToObject(o, key, time_text(t, buf, sizeof buf));
}

/* --until: an RFC 3339 time, or a duration after the start (90s, 30m, 6h, 2d, 1h30m). */
static bool parse_until(const char *s, int64_t start, int64_t *out)
{
	int64_t ns;
	if (pk_parse_time(s, &ns)) {
		*out = ns / NS_PER_S;
		return true;
	}
	int64_t total = 0;
	const char *p = s;
	if (!*p)
		return false;
	while (*p) {
		char *end;
		long long v = strtoll(p, &end, 10);
		if (end == p || v < 0 || v > 100000000)
			return false;
		int64_t unit = *end == 's' ? 1 : *end == 'm' ? 60 : *end == 'h' ? 3600 : *end == 'd' ? 86400 : 0;
		if (!unit)
			return false;
		total += v * unit;
		p = end + 1;
	}
	*out = start + total;
	return true;
}

/* ---- the run's writing ---------------------------------------------------------- */

typedef struct replay_out {
	pp_replay_input *in;
	pk_cli *cli;
	pk_out *out;
	pk_replay *r;
	bool records;             /* -o json: events and pods as they come */
	pk_replay_series *series; /* -o html: the allocated resources over time */
	long events;
	bool tty_progress;
} replay_out;

static void on_event(void *ctx, const pk_replay_event *ev)
{
	replay_out *o = ctx;
	o->events++;
	if (o->series)
		pk_replay_series_event(o->series, o->r, ev);
	if (!o->records)
		return;
	char buf[48];
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "kind", "ReplayEvent");
	cJSON_AddStringToObject(j, "time", time_text(ev->t, buf, sizeof buf));
	cJSON_AddNumberToObject(j, "offsetSeconds", (double)(ev->t - o->r->first));
	cJSON_AddStringToObject(j, "event", pk_replay_event_name(ev->kind));
	cJSON *pod = cJSON_AddObjectToObject(j, "pod");
	cJSON_AddStringToObject(pod, "namespace", ev->pod->pod->namespace_);
	cJSON_AddStringToObject(pod, "name", ev->pod->pod->name);
	if (ev->node)
		cJSON_AddStringToObject(j, "node", ev->node);
	if (ev->preemptor)
		cJSON_AddStringToObject(j, "preemptor", ev->preemptor);
	if (ev->pod->replaces && ev->kind == PK_REPLAY_RECREATED)
		cJSON_AddStringToObject(j, "replaces", ev->pod->replaces);
	pk_out_json(o->out, j);
	cJSON_Delete(j);
}

static void on_progress(void *ctx, int64_t t, long instants, long pending)
{
	replay_out *o = ctx;
	if (o->series)
		pk_replay_series_instant(o->series, o->r, t);
	if (!o->in->args.progress && !o->tty_progress)
		return;
	if (instants % 1000 && !o->in->args.progress)
		return;
	char buf[48];
	fprintf(stderr, "%s: replay: %s, %ld instant(s), %ld event(s), %ld pending%s", o->cli->prog,
	        time_text(t, buf, sizeof buf), instants, o->events, pending, o->tty_progress ? "\r" : "\n");
}

static const char *final_state(const pk_replay_pod *e)
{
	switch (e->state) {
	case PK_RP_COMPLETED: return "Completed";
	case PK_RP_EVICTED: return "Evicted";
	case PK_RP_RUNNING: return "Running";
	case PK_RP_TERMINATING: return "Terminating";
	default: return "Pending";
	}
}

static int64_t wait_of(const pk_replay *r, const pk_replay_pod *e)
{
	return (e->scheduled != PK_REPLAY_NONE ? e->scheduled : r->end) - e->arrived;
}

static int64_t lost_of(const pk_replay_pod *e)
{
	return e->state == PK_RP_EVICTED && e->scheduled != PK_REPLAY_NONE ? e->evicted - e->scheduled : 0;
}

static cJSON *pod_json(const replay_out *o, const pk_replay_pod *e)
{
	const pk_pod *p = e->pod;
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "kind", "ReplayPod");
	cJSON_AddStringToObject(j, "namespace", p->namespace_);
	cJSON_AddStringToObject(j, "name", p->name);
	cJSON_AddStringToObject(j, "uid", p->uid);
	cJSON_AddNumberToObject(j, "priority", p->priority);
	cJSON_AddStringToObject(j, "priorityClassName", p->class_name);
	if (e->replaces)
		cJSON_AddStringToObject(j, "replaces", e->replaces);
	add_time(j, "arrivedAt", e->arrived);
	add_time(j, "scheduledAt", e->scheduled);
	if (e->node)
		cJSON_AddStringToObject(j, "node", e->node);
	else
		cJSON_AddNullToObject(j, "node");
	add_time(j, "evictedAt", e->evicted);
	if (e->preemptor)
		cJSON_AddStringToObject(j, "preemptor", e->preemptor);
	else
		cJSON_AddNullToObject(j, "preemptor");
	add_time(j, "completedAt", e->completed);
	cJSON_AddStringToObject(j, "finalState", final_state(e));
	if (e->run_known)
		cJSON_AddNumberToObject(j, "runSeconds", (double)e->run);
	else
		cJSON_AddNullToObject(j, "runSeconds");
	cJSON_AddNumberToObject(j, "waitSeconds", (double)wait_of(o->r, e));
	cJSON_AddNumberToObject(j, "lostSeconds", (double)lost_of(e));
	return j;
}

/* ---- the summary --------------------------------------------------------------- */

typedef struct class_sum {
	const char *name;
	int32_t priority;
	long pods, completed, evicted, running, terminating, never;
	int64_t *waits;
	long nwaits;
	double lost_pod_seconds;
	double *lost_res;         /* per pk_replay_use */
} class_sum;

static int i64_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static int class_cmp(const void *a, const void *b)
{
	const class_sum *x = a, *y = b;
	if (x->priority != y->priority)
		return x->priority > y->priority ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The nearest-rank percentile of sorted waits. */
static int64_t percentile(const int64_t *v, long n, int pct)
{
	if (!n)
		return 0;
	long k = (long)ceil((double)pct / 100.0 * (double)n);
	return v[k < 1 ? 0 : k - 1];
}

static double res_amount(const pk_replay *r, const pk_pod *p, int u)
{
	if (u == 0)
		return (double)p->requests.cpu / 1000.0;
	if (u == 1)
		return (double)p->requests.memory / 1000.0; /* kept in milli-units */
	return (double)pk_res_scalar(&p->requests, r->use[u].name) / 1000.0;
}

static class_sum *class_sums(const pk_replay *r, int *nout)
{
	class_sum *c = NULL;
	int n = 0;
	for (long i = 0; i < r->npods; i++) {
		const pk_replay_pod *e = &r->pods[i];
		if (e->from_snapshot || e->state == PK_RP_WAITING)
			continue; /* not arrived before --until or --max-instants stopped the replay */
		const char *name = *e->pod->class_name ? e->pod->class_name : "(none)";
		int k = 0;
		while (k < n && (strcmp(c[k].name, name) != 0 || c[k].priority != e->pod->priority))
			k++;
		if (k == n) {
			c = pk_xrealloc(c, (size_t)n + 1, sizeof *c);
			memset(&c[n], 0, sizeof *c);
			c[n].name = name;
			c[n].priority = e->pod->priority;
			c[n].waits = pk_xmalloc(sizeof *c[n].waits * (size_t)(r->npods + 1));
			c[n].lost_res = pk_xcalloc((size_t)r->nuse + 1, sizeof *c[n].lost_res);
			n++;
		}
		class_sum *s = &c[k];
		s->pods++;
		s->completed += e->state == PK_RP_COMPLETED;
		s->evicted += e->state == PK_RP_EVICTED;
		s->running += e->state == PK_RP_RUNNING;
		s->terminating += e->state == PK_RP_TERMINATING;
		s->never += e->scheduled == PK_REPLAY_NONE;
		s->waits[s->nwaits++] = wait_of(r, e);
		double lost = (double)lost_of(e);
		s->lost_pod_seconds += lost;
		for (int u = 0; u < r->nuse; u++)
			s->lost_res[u] += lost * res_amount(r, e->pod, u);
	}
	for (int k = 0; k < n; k++)
		qsort(c[k].waits, (size_t)c[k].nwaits, sizeof *c[k].waits, i64_cmp);
	if (n > 1)
		qsort(c, (size_t)n, sizeof *c, class_cmp);
	*nout = n;
	return c;
}

static void class_sums_free(class_sum *c, int n)
{
	for (int k = 0; k < n; k++) {
		free(c[k].waits);
		free(c[k].lost_res);
	}
	free(c);
}

static long snapshot_evicted(const pk_replay *r)
{
	long n = 0;
	for (long i = 0; i < r->npods; i++)
		n += r->pods[i].from_snapshot && r->pods[i].state == PK_RP_EVICTED;
	return n;
}

static cJSON *summary_json(const replay_out *o, const class_sum *c, int n)
{
	const pk_replay *r = o->r;
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "kind", "ReplaySummary");
	pk_cli_add_k8s_version(o->cli, j);
	add_time(j, "start", r->first);
	add_time(j, "end", r->end);
	cJSON_AddNumberToObject(j, "durationSeconds", (double)(r->end - r->first));
	cJSON_AddNumberToObject(j, "instants", (double)r->instants);
	cJSON_AddNumberToObject(j, "events", (double)o->events);
	cJSON_AddNumberToObject(j, "nodes", (double)r->m->s->nnodes);
	cJSON_AddNumberToObject(j, "tracePods", (double)r->ntrace);
	cJSON_AddNumberToObject(j, "skippedWithoutCreationTimestamp", (double)o->in->no_creation);
	cJSON_AddNumberToObject(j, "snapshotEvicted", (double)snapshot_evicted(r));
	long later = 0;
	for (long i = 0; i < r->npods; i++)
		later += r->pods[i].state == PK_RP_WAITING;
	cJSON_AddNumberToObject(j, "notArrivedBeforeEnd", (double)later);
	cJSON *cls = cJSON_AddArrayToObject(j, "classes");
	for (int k = 0; k < n; k++) {
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "priorityClassName", c[k].name);
		cJSON_AddNumberToObject(x, "priority", c[k].priority);
		cJSON_AddNumberToObject(x, "pods", (double)c[k].pods);
		cJSON_AddNumberToObject(x, "completed", (double)c[k].completed);
		cJSON_AddNumberToObject(x, "evicted", (double)c[k].evicted);
		cJSON_AddNumberToObject(x, "running", (double)c[k].running);
		cJSON_AddNumberToObject(x, "terminating", (double)c[k].terminating);
		cJSON_AddNumberToObject(x, "neverScheduled", (double)c[k].never);
		cJSON *w = cJSON_AddObjectToObject(x, "waitSeconds");
		cJSON_AddNumberToObject(w, "p50", (double)percentile(c[k].waits, c[k].nwaits, 50));
		cJSON_AddNumberToObject(w, "p95", (double)percentile(c[k].waits, c[k].nwaits, 95));
		cJSON_AddNumberToObject(w, "max", (double)(c[k].nwaits ? c[k].waits[c[k].nwaits - 1] : 0));
		cJSON_AddNumberToObject(x, "lostPodSeconds", c[k].lost_pod_seconds);
		cJSON *lr = cJSON_AddObjectToObject(x, "lostResourceSeconds");
		for (int u = 0; u < r->nuse; u++)
			cJSON_AddNumberToObject(lr, r->use[u].name, c[k].lost_res[u]);
		cJSON_AddItemToArray(cls, x);
	}
	cJSON *use = cJSON_AddArrayToObject(j, "utilisation");
	double span = (double)(r->end - r->first);
	for (int u = 0; u < r->nuse; u++) {
		cJSON *x = cJSON_CreateObject();
		const pk_replay_use *ru = &r->use[u];
		cJSON_AddStringToObject(x, "resource", ru->name);
		cJSON_AddNumberToObject(x, "allocatable", ru->allocatable);
		double mean = span > 0 ? ru->area / span : ru->peak;
		cJSON_AddNumberToObject(x, "meanAllocated", round(mean * 1000) / 1000);
		cJSON_AddNumberToObject(x, "peakAllocated", ru->peak);
		cJSON_AddNumberToObject(x, "meanFraction", ru->allocatable > 0 ? round(mean / ru->allocatable * 1e4) / 1e4 : 0);
		cJSON_AddItemToArray(use, x);
	}
	cJSON *w = pk_cli_warnings_json(o->cli);
	if (cJSON_GetArraySize(w))
		cJSON_AddItemToObject(j, "warnings", w);
	else
		cJSON_Delete(w);
	return j;
}

/* The summary per class as -o table prints it, and -o html shows it. */
static void class_table(const replay_out *o, const class_sum *c, int n, pk_table *t)
{
	static const char *const head[] = { "CLASS", "PRIORITY", "PODS", "COMPLETED", "EVICTED", "RUNNING",
	                                    "NEVER-SCHEDULED", "WAIT-P50(s)", "WAIT-P95(s)", "WAIT-MAX(s)",
	                                    "LOST-POD-SECONDS" };
	enum { NC = sizeof head / sizeof head[0] };
	pk_table_init(t, NC);
	t->no_headers = o->cli->no_headers;
	pk_table_header(t, head);
	for (int k = 0; k < n; k++) {
		char v[NC][32];
		snprintf(v[1], 32, "%" PRId32, c[k].priority);
		snprintf(v[2], 32, "%ld", c[k].pods);
		snprintf(v[3], 32, "%ld", c[k].completed);
		snprintf(v[4], 32, "%ld", c[k].evicted);
		snprintf(v[5], 32, "%ld", c[k].running + c[k].terminating);
		snprintf(v[6], 32, "%ld", c[k].never);
		snprintf(v[7], 32, "%" PRId64, percentile(c[k].waits, c[k].nwaits, 50));
		snprintf(v[8], 32, "%" PRId64, percentile(c[k].waits, c[k].nwaits, 95));
		snprintf(v[9], 32, "%" PRId64, c[k].nwaits ? c[k].waits[c[k].nwaits - 1] : 0);
		snprintf(v[10], 32, "%.0f", c[k].lost_pod_seconds);
		const char *cells[NC] = { c[k].name, v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10] };
		pk_table_row(t, cells);
	}
}

static void write_table(const replay_out *o, const class_sum *c, int n)
{
	pk_table t;
	class_table(o, c, n, &t);
	pk_cli_table_warnings(o->cli, &t);
	char a[48], b[48];
	pk_table_footer(&t, "replayed %s to %s (%" PRId64 " s, %ld instant(s), %ld event(s)); %ld snapshot pod(s) "
	                "evicted", time_text(o->r->first, a, sizeof a), time_text(o->r->end, b, sizeof b),
	                o->r->end - o->r->first, o->r->instants, o->events, snapshot_evicted(o->r));
	pk_table_flush(&t, o->out);
}

/* -o html: the summary, the table and the series on one page (common/sched/report/replay_page.h). */
static void write_page(const replay_out *o, const class_sum *c, int n)
{
	cJSON *summary = summary_json(o, c, n), *series = pk_replay_series_json(o->series, o->r);
	pk_table t;
	class_table(o, c, n, &t);
	char release[16];
	pk_replay_page page = { .title = "preempt-plan --replay", .summary = summary, .series = series, .classes = &t,
	                        .release = pk_cli_k8s_version(o->cli, release, sizeof release) };
	pk_replay_page_write(&page, o->out);
	pk_table_free(&t);
	cJSON_Delete(summary);
	cJSON_Delete(series);
}

/* ---- the run ------------------------------------------------------------------ */

static void warn(pk_cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void warn(pk_cli *cli, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	pk_diag_warn_once(&cli->diag, msg, NULL, "%s", msg);
}

/* The snapshot's time: its latest creation or start (Unix s), or INT64_MIN. */
static int64_t snapshot_time(const pk_snapshot *s, long nsnap)
{
	int64_t t = INT64_MIN;
	for (long i = 0; i < nsnap && i < s->npods; i++) {
		const pk_pod *p = s->pods[i];
		if (p->created && p->created / NS_PER_S > t)
			t = p->created / NS_PER_S;
		if (p->has_start_time && p->start_time / NS_PER_S > t)
			t = p->start_time / NS_PER_S;
	}
	return t;
}

/* A trace pod whose name a running pod of the snapshot has: the snapshot
 * kept the trace's (read last), the running one shadowed. */
static const pk_pod *collision(const pk_snapshot *s, long nsnap)
{
	for (long i = 0; i < nsnap && i < s->npods; i++)
		if (s->pods[i]->shadowed && *s->pods[i]->node_name)
			return s->pods[i];
	return NULL;
}

static void say_assumptions(pp_replay_input *in, pk_cli *cli, long clamped, int64_t start)
{
	warn(cli, "--replay: pending pods are tried at every instant in PrioritySort order: the scheduler's "
	          "backoff and queueing hints are not modelled (upstream retries an unschedulable pod after a "
	          "backoff or when a cluster event may make it schedulable)");
	warn(cli, "--replay: every feasible node is scored (upstream samples percentageOfNodesToScore of the "
	          "nodes above 100 nodes)");
	if (in->no_run_time)
		warn(cli, "--replay: %ld trace pod(s) without an observed run time (first: %s) run until the end of the "
		          "replay: a run time is the latest containerStatuses[].state.terminated.finishedAt minus "
		          "status.startTime%s",
		     in->no_run_time, in->first_no_run ? in->first_no_run : "?",
		     in->args.run_time_from ? ", here the --run-time-from annotation" : ", or --run-time-from ANNOTATION");
	if (in->no_creation)
		warn(cli, "--replay: %ld trace pod(s) without metadata.creationTimestamp skipped (their arrival is "
		          "unknown; --strict makes this an error)", in->no_creation);
	if (in->not_pods)
		warn(cli, "--replay: %ld object(s) of the trace are not pods: a trace is pods; left out", in->not_pods);
	if (clamped) {
		char buf[48];
		warn(cli, "--replay: %ld trace pod(s) created before the snapshot (its latest pod time, %s) arrive at "
		          "its time instead", clamped, time_text(start, buf, sizeof buf));
	}
}

/* The snapshot's pods already terminating (deletionTimestamp, which the API
 * server sets to the deletion's time plus the grace period): a bound one
 * leaves its node at its deletionTimestamp, when the kubelet kills it, and
 * takes its room until then; a pending one is never scheduled (the
 * scheduler skips a pod being deleted). */
static void snapshot_departures(pp_replay_input *in, pk_cli *cli, pk_replay *r, const pk_snapshot *s, int64_t start)
{
	long bound = 0, past = 0, pending = 0;
	const pk_pod *first = NULL;
	for (long i = 0; i < in->nsnapshot_pods && i < s->npods; i++) {
		pk_pod *p = s->pods[i];
		if (!p->terminating || p->shadowed || pk_pod_is_terminal(p) ||
		    (*p->node_name && !pk_snapshot_node(s, p->node_name)))
			continue; /* bound to a node the snapshot lacks: it takes no room */
		first = first ? first : p;
		if (!*p->node_name) {
			pending++;
			continue;
		}
		int64_t t = i < in->cap && in->deleted[i] != INT64_MIN ? in->deleted[i] : start;
		past += t < start;
		bound++;
		pk_replay_leaves(r, p, t);
	}
	if (bound || pending)
		warn(cli, "--replay: %ld pod(s) of the snapshot are terminating (deletionTimestamp set; first: %s/%s): "
		          "%ld bound leave their node at their deletionTimestamp, when the kubelet kills them (Completed), "
		          "%ld of them past it already at the start; %ld pending are never scheduled (the scheduler "
		          "skips a pod being deleted). Upstream the object goes once the kubelet confirms the kill: a "
		          "finalizer or an unreachable node keeps it, and its room, longer",
		     bound + pending, first->namespace_, first->name, bound, past, pending);
}

int pp_replay_run(pp_replay_input *in, pk_cli *cli, pk_out *out, pk_sim *sim)
{
	pk_snapshot *s = sim->s;
	const pk_pod *twin = collision(s, in->nsnapshot_pods);
	if (twin) {
		pk_diag_report(&cli->diag, PK_SEV_ERROR, NULL, "trace pod %s/%s has the name of a pod running in the "
		               "snapshot (on node %s): a replay needs each pod once; rename it in the trace",
		               twin->namespace_, twin->name, twin->node_name);
		return PK_EXIT_TROUBLE;
	}
	if (in->strict_failed)
		return PK_EXIT_TROUBLE;
	/* the start: the first arrival, or the snapshot's time when later */
	int64_t snap_t = snapshot_time(s, in->nsnapshot_pods), first = INT64_MAX;
	for (long i = in->nsnapshot_pods; i < s->npods; i++)
		if (!s->pods[i]->shadowed && s->pods[i]->created / NS_PER_S < first)
			first = s->pods[i]->created / NS_PER_S;
	int64_t start = first == INT64_MAX ? (snap_t == INT64_MIN ? 0 : snap_t) : first;
	long clamped = 0;
	if (snap_t != INT64_MIN && snap_t > start) {
		for (long i = in->nsnapshot_pods; i < s->npods; i++)
			clamped += s->pods[i]->created / NS_PER_S < snap_t;
		start = snap_t;
	}
	pk_replay_opts ro = { .start = start, .until = INT64_MAX, .max_instants = in->args.max_instants,
	                      .grace_period = in->args.grace_period, .progress = on_progress };
	if (in->args.until && !parse_until(in->args.until, start, &ro.until)) {
		pk_diag_report(&cli->diag, PK_SEV_ERROR, NULL, "--until %s: want an RFC 3339 time "
		               "(2026-01-02T15:04:05Z) or a duration after the start (90s, 30m, 6h, 2d, 1h30m)",
		               in->args.until);
		return PK_EXIT_TROUBLE;
	}
	pk_replay r;
	pk_replay_init(&r, sim, &ro, in->grace);
	/* the snapshot's pending pods arrive at the start and run to the end */
	for (long i = 0; i < s->npods; i++) {
		pk_pod *p = s->pods[i];
		if (p->shadowed || *p->node_name || pk_pod_is_terminal(p) || p->terminating)
			continue;
		bool trace = i >= in->nsnapshot_pods;
		int64_t run = trace && i < in->cap ? in->run[i] : -1;
		if (trace && run < 0 && !in->no_run_time++)
			in->first_no_run = p->name;
		pk_replay_add(&r, p, trace ? p->created / NS_PER_S : start, run, i < in->cap ? in->grace[i] : 30);
	}
	/* pods an --apply creates arrive at the start and run to the end; an
	 * OrderedReady StatefulSet's one at a time */
	long applied = 0;
	for (long i = sim->head; i < sim->n; i++) {
		const pk_sim_unit *u = &sim->queue[i];
		if (!u->applied && !u->scaled)
			continue;
		applied += u->chain ? u->chain->n : u->npods;
		if (u->chain)
			pk_replay_add_chain(&r, u->chain, start);
		else
			for (int k = 0; k < u->npods; k++)
				pk_replay_add(&r, u->pods[k], start, -1, 30);
	}
	snapshot_departures(in, cli, &r, s, start);
	if (applied)
		warn(cli, "--replay: %ld pod(s) that --apply creates arrive at the start and run until the end of the "
		          "replay (an applied object has no observed run time); an OrderedReady StatefulSet's pods arrive "
		          "one at a time, each a second after the one before it is bound", applied);
	say_assumptions(in, cli, clamped, start);
	if (!r.ntrace) /* an empty answer is a note, in every tool */
		pk_diag_report(&cli->diag, PK_SEV_NOTE, NULL, "no pods in the trace and none pending: nothing to replay");
	replay_out o = { .in = in, .cli = cli, .out = out, .r = &r, .records = cli->format == PK_FMT_JSON,
	                 .series = cli->format == PK_FMT_HTML ? pk_replay_series_new() : NULL,
	                 .tty_progress = isatty(STDERR_FILENO) && !in->args.progress };
	pk_replay_run(&r, on_event, &o);
	if (o.tty_progress && r.instants >= 1000)
		fputc('\n', stderr);
	if (r.max_instants_hit)
		warn(cli, "--replay stopped after --max-instants %ld instant(s) at %s: later events are not played "
		          "(a pod recreated and evicted again and again never ends; raise --max-instants)",
		     in->args.max_instants, time_text(r.end, (char[48]){0}, 48));
	int n;
	class_sum *c = class_sums(&r, &n);
	if (o.records) {
		for (long i = 0; i < r.npods; i++)
			if (!r.pods[i].from_snapshot && r.pods[i].state != PK_RP_WAITING) {
				cJSON *j = pod_json(&o, &r.pods[i]);
				pk_out_json(out, j);
				cJSON_Delete(j);
			}
		cJSON *j = summary_json(&o, c, n);
		pk_out_json(out, j);
		cJSON_Delete(j);
	} else if (o.series) {
		write_page(&o, c, n);
	} else {
		write_table(&o, c, n);
	}
	pk_replay_series_free(o.series);
	long never = 0;
	for (int k = 0; k < n; k++)
		never += c[k].never;
	class_sums_free(c, n);
	pk_replay_free(&r);
	return never ? PK_EXIT_FINDING : PK_EXIT_OK;
}
