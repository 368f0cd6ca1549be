#include "metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* strconv.FormatFloat(v, 'g', -1, 64), which Prometheus' Go client uses for
 * every float of the text format: the fewest digits that read back as v,
 * in %e form when the exponent is below -4 or at least 6 (Go's shortest
 * 'g' takes 6 as the precision for that choice, whatever the digits). */
const char *apiq_format_float(double v, char *buf, size_t size)
{
	if (isnan(v))
		snprintf(buf, size, "NaN");
	else if (isinf(v))
		snprintf(buf, size, v > 0 ? "+Inf" : "-Inf");
	else {
		char e[40];
		int digits = 1;
		for (; digits < 17; digits++) {
			snprintf(e, sizeof e, "%.*e", digits - 1, v);
			if (strtod(e, NULL) == v)
				break;
		}
		snprintf(e, sizeof e, "%.*e", digits - 1, v);
		int exp = atoi(strchr(e, 'e') + 1);
		if (exp < -4 || exp >= 6)
			snprintf(buf, size, "%s", e);
		else
			snprintf(buf, size, "%.*f", digits - 1 - exp > 0 ? digits - 1 - exp : 0, v);
	}
	return buf;
}

void apiq_hist_init_exp(apiq_hist *h, double start, double factor, int count)
{
	memset(h, 0, sizeof(*h));
	if (count > APIQ_HIST_MAX)
		count = APIQ_HIST_MAX;
	h->nb = count;
	for (int i = 0; i < count; i++, start *= factor)
		h->le[i] = start;
}

void apiq_hist_observe(apiq_hist *h, double v)
{
	int i = 0;
	while (i < h->nb && v > h->le[i])
		i++;
	h->cnt[i]++;
	h->sum += v;
	h->count++;
}

void apiq_hist_write(FILE *f, const char *name, const char *labels, const apiq_hist *h)
{
	const char *sep = labels && *labels ? "," : "";
	char num[40];
	long cum = 0;
	for (int i = 0; i < h->nb; i++) {
		cum += h->cnt[i];
		fprintf(f, "%s_bucket{%s%sle=\"%s\"} %ld\n", name, labels ? labels : "", sep,
		        apiq_format_float(h->le[i], num, sizeof num), cum);
	}
	cum += h->cnt[h->nb];
	fprintf(f, "%s_bucket{%s%sle=\"+Inf\"} %ld\n", name, labels ? labels : "", sep, cum);
	apiq_format_float(h->sum, num, sizeof num);
	if (labels && *labels) {
		fprintf(f, "%s_sum{%s} %s\n", name, labels, num);
		fprintf(f, "%s_count{%s} %ld\n", name, labels, h->count);
	} else {
		fprintf(f, "%s_sum %s\n%s_count %ld\n", name, num, name, h->count);
	}
}

static const double pct_base = 1e-6, pct_growth = 1.01;

void apiq_pct_add(apiq_pct *p, double v)
{
	int i = 0;
	if (v > pct_base)
		i = (int)(log(v / pct_base) / log(pct_growth)) + 1;
	if (i >= APIQ_PCT_BUCKETS)
		i = APIQ_PCT_BUCKETS - 1;
	p->cnt[i]++;
	p->n++;
	if (v > p->max)
		p->max = v;
}

/* The upper bound of the bucket holding the q-quantile (never above max). */
double apiq_pct_quantile(const apiq_pct *p, double q)
{
	if (p->n == 0)
		return 0;
	long rank = (long)ceil(q * (double)p->n), seen = 0;
	if (rank < 1)
		rank = 1;
	for (int i = 0; i < APIQ_PCT_BUCKETS; i++) {
		seen += p->cnt[i];
		if (seen >= rank) {
			double upper = i == 0 ? pct_base : pct_base * pow(pct_growth, i);
			return upper < p->max ? upper : p->max;
		}
	}
	return p->max;
}
