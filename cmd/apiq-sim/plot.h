/* apiq-sim run -o html: the timeline of a run as SVG plots on one page -
 * scheduling throughput, pending calls per call type, time to bind p50 and
 * p99, the client rate limiter's wait, the size of the preempting set -
 * each gate setting side by side with --compare.
 *
 * A run samples its state into windows of simulated time (apiq_series,
 * fed by timed.c); the series go into the run's Summary record as
 * "series", and the page is drawn from the Summary records alone. */
#ifndef APIQ_PLOT_H
#define APIQ_PLOT_H

#include <cjson/cJSON.h>
#include "calltypes.h"
#include "io/writer.h"

typedef struct apiq_series apiq_series;

apiq_series *apiq_series_new(void);
void apiq_series_free(apiq_series *s);
/* An event at simulated time t; the gauges as they were since the
 * previous one: calls pending in the dispatcher's queue per call type
 * (ntypes), calls in flight (dispatched, waiting for the rate limiter or
 * the apiserver), the preempting set. */
void apiq_series_at(apiq_series *s, double t, const long *pending, int ntypes, long in_flight, long preempting);
/* A measured pod bound, latency seconds after it was created. */
void apiq_series_bound(apiq_series *s, double latency);
/* An API request sent after wait seconds in the client's rate limiter. */
void apiq_series_request(apiq_series *s, double wait);
/* {"window":seconds,"t":[...],"throughput":[...],"pending":{type:[...]},"inFlight":[...],
 *  "bindP50":[...],"bindP99":[...],"rateLimiterWait":[...],"preempting":[...]}
 * up to simulated time end. */
cJSON *apiq_series_json(const apiq_series *s, const apiq_types *types, double end);

/* The page of n Summary records (one run, or the settings of --compare),
 * for Kubernetes `release` ("1.37"). */
void apiq_plot_write(pk_out *out, cJSON *const *sums, int n, const char *release);

#endif
