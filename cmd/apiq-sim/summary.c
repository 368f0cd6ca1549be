/* timed mode's output: the Summary record of a run, the Comparison of
 * --compare, Prometheus text metrics (--metrics) with upstream's names
 * and buckets, and -o json. See sim.h. */
#include "sim.h"

#include <math.h>
#include <stdio.h>

#include "k8s/json.h"

static double r6(double v)
{
	return round(v * 1e6) / 1e6;
}

static cJSON *pct_json(const apiq_pct *p)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "count", (double)p->n);
	cJSON_AddNumberToObject(o, "p50", r6(apiq_pct_quantile(p, 0.5)));
	cJSON_AddNumberToObject(o, "p90", r6(apiq_pct_quantile(p, 0.9)));
	cJSON_AddNumberToObject(o, "p99", r6(apiq_pct_quantile(p, 0.99)));
	cJSON_AddNumberToObject(o, "max", r6(p->max));
	return o;
}

static cJSON *gates_json(const apiq_gates *g)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "SchedulerAsyncPreemption", g->async_preemption);
	cJSON_AddBoolToObject(o, "SchedulerAsyncAPICalls", g->async_api_calls);
	return o;
}

static double throughput(const sim *s)
{
	return s->last_bind > 0 ? (double)s->measured_bound / s->last_bind : 0;
}

cJSON *sim_summary_json(const sim *s)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", "Summary");
	cJSON_AddItemToObject(o, "featureGates", gates_json(&s->o->gates));
	cJSON_AddNumberToObject(o, "seed", (double)s->o->seed);
	cJSON_AddNumberToObject(o, "simulatedSeconds", r6(s->now));
	cJSON *pods = cJSON_AddObjectToObject(o, "pods");
	cJSON_AddNumberToObject(pods, "measured", (double)s->measured_total);
	cJSON_AddNumberToObject(pods, "bound", (double)s->measured_bound);
	cJSON_AddNumberToObject(pods, "preemptors", (double)s->preemptors_total);
	cJSON_AddNumberToObject(pods, "attempts", (double)s->attempts);
	cJSON_AddNumberToObject(pods, "peakLive", (double)s->peak_live_pods);
	cJSON_AddNumberToObject(o, "throughput", r6(throughput(s)));
	cJSON_AddItemToObject(o, "timeToNomination", pct_json(&s->ttn));
	cJSON_AddItemToObject(o, "timeToBind", pct_json(&s->ttb));
	cJSON_AddItemToObject(o, "preemptorTimeToBind", pct_json(&s->ttb_preemptor));
	cJSON *c = cJSON_AddObjectToObject(o, "calls");
	cJSON_AddNumberToObject(c, "added", (double)s->calls_added);
	cJSON_AddNumberToObject(c, "merged", (double)s->calls_merged);
	cJSON_AddNumberToObject(c, "skipped", (double)s->calls_skipped);
	cJSON_AddNumberToObject(c, "overwritten", (double)s->calls_overwritten);
	cJSON_AddNumberToObject(c, "executed", (double)s->calls_executed);
	cJSON_AddNumberToObject(c, "peakPending", (double)s->peak_pending);
	cJSON_AddNumberToObject(c, "peakInFlight", (double)s->peak_running);
	cJSON *r = cJSON_AddObjectToObject(o, "apiRequests");
	cJSON_AddNumberToObject(r, "total", (double)s->requests);
	cJSON_AddNumberToObject(r, "errors", (double)s->request_errors);
	cJSON_AddNumberToObject(r, "throttled", (double)s->requests_throttled);
	cJSON_AddNumberToObject(r, "throttledSeconds", r6(s->throttled_seconds));
	cJSON *p = cJSON_AddObjectToObject(o, "preemption");
	cJSON_AddNumberToObject(p, "attempts", (double)s->preempt_attempts);
	cJSON_AddNumberToObject(p, "goroutinesSucceeded", (double)s->goroutine_total[0]);
	cJSON_AddNumberToObject(p, "goroutinesFailed", (double)s->goroutine_total[1]);
	cJSON *dt = cJSON_AddArrayToObject(p, "disruptionTargets");
	for (int g = 0; g < 2; g++) {
		if (!s->disruption_targets[g])
			continue;
		char msg[160];
		apiq_disruption_message(msg, sizeof msg, NULL, g);
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "message", msg);
		cJSON_AddNumberToObject(e, "victims", (double)s->disruption_targets[g]);
		cJSON_AddItemToArray(dt, e);
	}
	return o;
}

static const char *const results[2] = {"success", "error"};

static void write_metrics(FILE *f, const sim *s)
{
	const apiq_types *ts = s->types;
	char labels[160];
	if (s->o->gates.async_api_calls) {
		fprintf(f, "# HELP scheduler_async_api_call_execution_total [ALPHA] Number of API calls executed by the dispatcher, by call type and result.\n"
		           "# TYPE scheduler_async_api_call_execution_total counter\n");
		for (int t = 0; t < ts->n; t++)
			for (int r = 0; r < 2; r++)
				if (s->exec_total[t][r])
					fprintf(f, "scheduler_async_api_call_execution_total{call_type=\"%s\",result=\"%s\"} %ld\n",
					        ts->t[t].name, results[r], s->exec_total[t][r]);
		fprintf(f, "# HELP scheduler_async_api_call_execution_duration_seconds [ALPHA] Duration of API call execution by the dispatcher, by call type and result.\n"
		           "# TYPE scheduler_async_api_call_execution_duration_seconds histogram\n");
		for (int t = 0; t < ts->n; t++)
			for (int r = 0; r < 2; r++)
				if (s->exec_total[t][r]) {
					snprintf(labels, sizeof(labels), "call_type=\"%s\",result=\"%s\"", ts->t[t].name, results[r]);
					apiq_hist_write(f, "scheduler_async_api_call_execution_duration_seconds", labels, &s->exec_dur[t][r]);
				}
		fprintf(f, "# HELP scheduler_pending_async_api_calls [ALPHA] Number of API calls waiting in the dispatcher's queue, by call type.\n"
		           "# TYPE scheduler_pending_async_api_calls gauge\n");
		for (int t = 0; t < ts->n; t++)
			fprintf(f, "scheduler_pending_async_api_calls{call_type=\"%s\"} %ld\n", ts->t[t].name, s->q.pending[t]);
	}
	fprintf(f, "# HELP scheduler_preemption_attempts_total [STABLE] Total preemption attempts in the cluster till now\n"
	           "# TYPE scheduler_preemption_attempts_total counter\n"
	           "scheduler_preemption_attempts_total %ld\n", s->preempt_attempts);
	fprintf(f, "# HELP scheduler_preemption_victims [STABLE] Number of selected preemption victims\n"
	           "# TYPE scheduler_preemption_victims histogram\n");
	apiq_hist_write(f, "scheduler_preemption_victims", "", &s->victims_hist);
	if (s->o->gates.async_preemption) {
		fprintf(f, "# HELP scheduler_preemption_goroutines_duration_seconds [ALPHA] Duration in seconds for running goroutines for the preemption.\n"
		           "# TYPE scheduler_preemption_goroutines_duration_seconds histogram\n");
		for (int r = 0; r < 2; r++) {
			snprintf(labels, sizeof(labels), "result=\"%s\"", results[r]);
			apiq_hist_write(f, "scheduler_preemption_goroutines_duration_seconds", labels, &s->goroutine_dur[r]);
		}
		fprintf(f, "# HELP scheduler_preemption_goroutines_execution_total [ALPHA] Number of preemption goroutines executed, by result.\n"
		           "# TYPE scheduler_preemption_goroutines_execution_total counter\n");
		for (int r = 0; r < 2; r++)
			fprintf(f, "scheduler_preemption_goroutines_execution_total{result=\"%s\"} %ld\n", results[r], s->goroutine_total[r]);
	}
}

int sim_write_metrics_file(pk_cli *cli, const char *path, const sim *s)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		pk_diag_report(&cli->diag, PK_SEV_ERROR, NULL, "%s: cannot write metrics: %m", path);
		return -1;
	}
	write_metrics(f, s);
	if (fclose(f) != 0) {
		pk_diag_report(&cli->diag, PK_SEV_ERROR, NULL, "%s: write error: %m", path);
		return -1;
	}
	return 0;
}

static cJSON *comparison_json(cJSON *const *sums, int n)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", "Comparison");
	cJSON_AddItemToObject(o, "baseline", cJSON_Duplicate(pk_get(sums[0], "featureGates"), 1));
	double base = pk_getp(sums[0], "throughput")->valuedouble;
	double base_p99 = pk_getp(sums[0], "timeToBind.p99")->valuedouble;
	cJSON *rows = cJSON_AddArrayToObject(o, "rows");
	for (int i = 0; i < n; i++) {
		cJSON *r = cJSON_CreateObject();
		cJSON_AddItemToObject(r, "featureGates", cJSON_Duplicate(pk_get(sums[i], "featureGates"), 1));
		double tp = pk_getp(sums[i], "throughput")->valuedouble;
		cJSON_AddNumberToObject(r, "throughput", tp);
		cJSON_AddNumberToObject(r, "throughputRatio", base > 0 ? r6(tp / base) : 0);
		cJSON_AddNumberToObject(r, "timeToBindP99Delta", r6(pk_getp(sums[i], "timeToBind.p99")->valuedouble - base_p99));
		cJSON_AddItemToArray(rows, r);
	}
	return o;
}

/* -o json: the Summary records (with this run's warnings), then with
 * --compare the Comparison. */
static void write_json(const pk_cli *cli, pk_out *out, cJSON *const *sums, int n, bool compare)
{
	for (int i = 0; i < n; i++) {
		if (cli->diag.ncauses)
			cJSON_AddItemToObject(sums[i], "warnings", pk_cli_warnings_json(cli));
		pk_out_json(out, sums[i]);
	}
	if (compare) {
		cJSON *cmp = comparison_json(sums, n);
		pk_cli_add_k8s_version(cli, cmp);
		pk_out_json(out, cmp);
		cJSON_Delete(cmp);
	}
}

const apiq_writer apiq_json_writer = { .ndjson = true, .write = write_json };
