/* timed mode: a discrete-event simulation of kube-scheduler's loop, its
 * binding goroutines, the preemption goroutines (KEP-4832), the API
 * dispatcher (KEP-5229) and the apiserver behind client-go's token bucket,
 * run once per gate setting (--compare: all four). The model is in sim.h
 * and the files it names; here, the runs and their options. */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

/* Runs one gate setting; returns its summary (caller owns). */
static cJSON *run_one(pk_cli *cli, const apiq_types *types, const apiq_run_opts *o,
                      const sim_plan *plans, size_t nplans, bool write_extras, int *status)
{
	sim s;
	sim_init(&s, o, types);
	pk_out tl;
	FILE *tlf = NULL;
	if (write_extras && o->timeline_path) {
		tlf = strcmp(o->timeline_path, "-") ? fopen(o->timeline_path, "w") : stdout;
		if (!tlf) {
			pk_diag_report(&cli->diag, PK_SEV_ERROR, NULL, "%s: cannot write timeline: %m", o->timeline_path);
			*status = PK_EXIT_TROUBLE;
		} else {
			pk_out_init(&tl, tlf);
			s.tl_out = &tl;
		}
	}
	if (o->writer->plots_series)
		s.series = apiq_series_new();
	sim_simulate(&s, plans, nplans);
	cJSON *sum = sim_summary_json(&s);
	pk_cli_add_k8s_version(cli, sum);
	if (s.series) {
		cJSON_AddItemToObject(sum, "series", apiq_series_json(s.series, types, s.now));
		apiq_series_free(s.series);
	}
	if (write_extras && o->metrics_path && sim_write_metrics_file(cli, o->metrics_path, &s) < 0)
		*status = PK_EXIT_TROUBLE;
	if (tlf && tlf != stdout && fclose(tlf) != 0)
		*status = PK_EXIT_TROUBLE;
	else if (tlf == stdout)
		fflush(stdout);
	sim_free(&s);
	return sum;
}

int apiq_run_main(pk_cli *cli, const apiq_types *types, const apiq_run_opts *o,
                  char *const *paths, size_t npaths)
{
	pk_stats stats;
	memset(&stats, 0, sizeof(stats));
	sim_plans plans = {0};
	/* plans from the operands, or from stdin unless a workload is generated */
	bool generated = o->pods > 0 || (o->churn > 0 && o->until > 0);
	bool from_plans = npaths > 0 || !generated;
	if (from_plans) {
		if (!sim_read_plans(cli, paths, npaths, &stats, &plans)) {
			free(plans.v);
			return PK_EXIT_TROUBLE;
		}
		if (plans.n == 0 && !generated) {
			pk_diag_report(&cli->diag, PK_SEV_ERROR, NULL, "no PreemptionPlan records and no --pods: nothing to simulate");
			free(plans.v);
			if (cli->stats)
				pk_stats_print(&stats, cli->prog, stderr);
			return PK_EXIT_TROUBLE;
		}
	}
	if (o->pods == 0 && o->churn > 0 && !(o->until > 0) && plans.n == 0) {
		free(plans.v);
		pk_cli_usage_error(cli, "--churn without measured pods needs --until");
	}
	int status = PK_EXIT_OK;
	pk_out out;
	pk_out_init(&out, stdout);
	apiq_run_opts variants[4];
	int n = 1;
	variants[0] = *o;
	if (o->compare) {
		/* the baseline (both gates off) first, then each gate, then both */
		n = 4;
		for (int i = 0; i < 4; i++) {
			variants[i] = *o;
			variants[i].gates.async_preemption = i & 1;
			variants[i].gates.async_api_calls = (i >> 1) & 1;
		}
	}
	cJSON *sums[4];
	for (int i = 0; i < n; i++) {
		bool mine = !o->compare || (variants[i].gates.async_preemption == o->gates.async_preemption &&
		                            variants[i].gates.async_api_calls == o->gates.async_api_calls);
		sums[i] = run_one(cli, types, &variants[i], plans.v, plans.n, mine, &status);
	}
	o->writer->write(cli, &out, sums, n, o->compare);
	pk_cli_stream_end(cli, &out); /* the plans were read whole (sim_read_plans) */
	for (int i = 0; i < n; i++)
		cJSON_Delete(sums[i]);
	free(plans.v);
	if (cli->stats)
		pk_stats_print(&stats, cli->prog, stderr);
	int st = pk_out_finish(&out, &cli->diag);
	return st != PK_EXIT_OK ? st : status;
}

void apiq_run_opts_default(apiq_run_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->preemptor_share = 0.1;
	o->victims = 3;
	o->cycle_cost = 0.001;
	o->preempt_cost = 0.002;
	o->latency = 0.005;
	o->qps = 50;        /* KubeSchedulerConfiguration clientConnection defaults */
	o->burst = 100;
	o->informer_delay = 0.001;
	o->backoff_initial = 1;   /* podInitialBackoffSeconds */
	o->backoff_max = 10;      /* podMaxBackoffSeconds */
	o->patch_change = 1;
	o->seed = 1;
}

double apiq_parse_duration(const char *s)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || !(v >= 0) || v > 1e12)
		return -1;
	if (!*end || !strcmp(end, "s")) return v;
	if (!strcmp(end, "ms")) return v / 1e3;
	if (!strcmp(end, "us")) return v / 1e6;
	if (!strcmp(end, "ns")) return v / 1e9;
	if (!strcmp(end, "m")) return v * 60;
	if (!strcmp(end, "h")) return v * 3600;
	return -1;
}

