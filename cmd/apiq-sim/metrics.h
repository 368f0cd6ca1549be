/* Metrics of timed mode: upstream's Prometheus histograms and counters,
 * plus log-bucketed latency distributions for percentiles (bounded memory:
 * no per-call history). */
#ifndef APIQ_METRICS_H
#define APIQ_METRICS_H

#include <stddef.h>
#include <stdio.h>

#define APIQ_HIST_MAX 24

typedef struct apiq_hist {
	double le[APIQ_HIST_MAX];
	int nb;
	long cnt[APIQ_HIST_MAX + 1];  /* per bucket, last = +Inf; cumulated at export */
	double sum;
	long count;
} apiq_hist;

/* A float as Prometheus' Go client writes it (strconv 'g', -1): "0.04",
 * "1e+06", "+Inf". Returns buf. */
const char *apiq_format_float(double v, char *buf, size_t size);

/* prometheus.ExponentialBuckets(start, factor, count). */
void apiq_hist_init_exp(apiq_hist *h, double start, double factor, int count);
void apiq_hist_observe(apiq_hist *h, double v);
/* name_bucket{labels,le="…"} lines (cumulative), name_sum, name_count. */
void apiq_hist_write(FILE *f, const char *name, const char *labels, const apiq_hist *h);

/* Percentiles within 1 % relative error, 1 µs to ~10^6 s. */
#define APIQ_PCT_BUCKETS 2800
typedef struct apiq_pct {
	long cnt[APIQ_PCT_BUCKETS];
	long n;
	double max;
} apiq_pct;

void apiq_pct_add(apiq_pct *p, double v);
double apiq_pct_quantile(const apiq_pct *p, double q);

#endif
