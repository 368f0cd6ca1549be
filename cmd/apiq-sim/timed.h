/* timed mode: the scheduling loop, the dispatcher and the apiserver over
 * simulated time (discrete events), with client-go's token bucket. */
#ifndef APIQ_TIMED_H
#define APIQ_TIMED_H

#include <stdbool.h>
#include <stdint.h>
#include "apiq.h"

typedef enum { APIQ_LAT_EXP, APIQ_LAT_CONST, APIQ_LAT_LOGNORMAL } apiq_lat_dist;

/* How run writes its Summary records (one per gate setting): chosen once at
 * start-up from -o (main.c); what is simulated is the same for every one. */
typedef struct apiq_writer {
	bool ndjson;               /* step mode's results may be written too */
	bool plots_series;         /* the page plots each run's timeline (series sampled) */
	void (*write)(const pk_cli *cli, pk_out *out, cJSON *const *sums, int n, bool compare);
} apiq_writer;

/* -o json (timed.c), table and wide (report.c), html (plot.c). */
extern const apiq_writer apiq_json_writer, apiq_table_writer, apiq_wide_writer, apiq_html_writer;

typedef struct apiq_run_opts {
	apiq_gates gates;
	const apiq_writer *writer; /* from -o */
	long long pods;            /* generated measured pods (0 with plan input) */
	double preemptor_share;    /* fraction of generated pods that preempt */
	int victims;               /* victims per generated preemptor */
	double churn;              /* unschedulable pods created per second */
	double arrival_rate;       /* generated pods created per second; 0 = all at t=0 */
	double cycle_cost;         /* seconds per scheduling attempt */
	double preempt_cost;       /* extra seconds for the preemption dry run */
	double latency;            /* mean apiserver latency, seconds */
	apiq_lat_dist latency_dist;
	double error_rate;         /* probability an API request fails */
	double qps;                /* client QPS shared by all calls; 0 = unlimited */
	int burst;
	int dispatcher_limit;      /* goroutine limit before #134154; 0 = none */
	double informer_delay;     /* watch delay of the victim's delete event */
	double backoff_initial, backoff_max;
	double patch_change;       /* probability a retry's status patch differs */
	double until;              /* stop at this simulated time; 0 = when done */
	uint64_t seed;
	const char *timeline_path;
	const char *metrics_path;
	bool compare;
} apiq_run_opts;

void apiq_run_opts_default(apiq_run_opts *o);
/* "5ms", "1.5s", "200us", "2m" or plain seconds; -1 if malformed. */
double apiq_parse_duration(const char *s);


int apiq_run_main(pk_cli *cli, const apiq_types *types, const apiq_run_opts *o,
                  char *const *paths, size_t npaths);

#endif
