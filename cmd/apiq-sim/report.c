/* apiq-sim run's tables (-o table, -o wide): one row per gate setting, from
 * the Summary records, through the common table writer. Column names say
 * their unit; milliseconds at a tenth below 100 ms and whole above,
 * seconds and pods per second at a tenth, counts whole. */
#include "timed.h"

#include <stdio.h>

#include "k8s/json.h"

static double number(const cJSON *sum, const char *path)
{
	const cJSON *v = pk_getp(sum, path);
	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static const char *gate(const cJSON *sum, const char *name)
{
	return pk_bool(pk_get(sum, "featureGates"), name) ? "true" : "false";
}

enum { CELL = 32, MAX_COLS = 17 };

typedef struct row {
	char cell[MAX_COLS][CELL];
	const char *ptr[MAX_COLS];
	int n;
} row;

/* v with the given number of decimals */
static void add(row *r, int decimals, double v)
{
	snprintf(r->cell[r->n], CELL, "%.*f", decimals, v);
	r->ptr[r->n] = r->cell[r->n];
	r->n++;
}

static void add_text(row *r, const char *s)
{
	snprintf(r->cell[r->n], CELL, "%s", s);
	r->ptr[r->n] = r->cell[r->n];
	r->n++;
}

/* Milliseconds from seconds: a tenth below 100 ms, whole above (a tenth of
 * a millisecond says nothing about a minute); "<none>" with no samples. */
static void add_ms(row *r, const cJSON *sum, const char *dist, const char *which)
{
	char path[64];
	snprintf(path, sizeof path, "%s.count", dist);
	if (number(sum, path) == 0) {
		add_text(r, "<none>");
		return;
	}
	snprintf(path, sizeof path, "%s.%s", dist, which);
	double ms = number(sum, path) * 1e3;
	add(r, ms < 100 ? 1 : 0, ms);
}

static const char *const table_header[] = {
	"ASYNC-PREEMPTION", "ASYNC-API-CALLS", "THROUGHPUT(pods/s)", "BIND-P99(ms)",
	"PREEMPTOR-BIND-P99(ms)", "NOMINATION-P99(ms)", "API-REQUESTS", "THROTTLE-WAIT(s)",
};
enum { TABLE_COLS = 8 };
static const char *const wide_header[] = {
	"BOUND", "SIMULATED(s)", "BIND-P50(ms)", "BIND-MAX(ms)", "CALLS-MERGED", "CALLS-SKIPPED",
	"PEAK-PENDING-CALLS", "API-ERRORS",
};
enum { WIDE_EXTRA = 8 };

static void fill_row(row *r, const cJSON *sum, bool wide, double baseline, bool compare)
{
	add_text(r, gate(sum, "SchedulerAsyncPreemption"));
	add_text(r, gate(sum, "SchedulerAsyncAPICalls"));
	add(r, 1, number(sum, "throughput"));
	add_ms(r, sum, "timeToBind", "p99");
	add_ms(r, sum, "preemptorTimeToBind", "p99");
	add_ms(r, sum, "timeToNomination", "p99");
	add(r, 0, number(sum, "apiRequests.total"));
	add(r, 1, number(sum, "apiRequests.throttledSeconds"));
	if (wide) {
		snprintf(r->cell[r->n], CELL, "%.0f/%.0f", number(sum, "pods.bound"), number(sum, "pods.measured"));
		r->ptr[r->n] = r->cell[r->n];
		r->n++;
		add(r, 1, number(sum, "simulatedSeconds"));
		add_ms(r, sum, "timeToBind", "p50");
		add_ms(r, sum, "timeToBind", "max");
		add(r, 0, number(sum, "calls.merged"));
		add(r, 0, number(sum, "calls.skipped"));
		add(r, 0, number(sum, "calls.peakPending"));
		add(r, 0, number(sum, "apiRequests.errors"));
	}
	if (compare)
		add(r, 2, baseline > 0 ? number(sum, "throughput") / baseline : 0);
}

static void write_table(const pk_cli *cli, pk_out *out, cJSON *const *sums, int n, bool compare, bool wide)
{
	row header = {.n = 0};
	for (int i = 0; i < TABLE_COLS; i++)
		add_text(&header, table_header[i]);
	for (int i = 0; wide && i < WIDE_EXTRA; i++)
		add_text(&header, wide_header[i]);
	if (compare)
		add_text(&header, "THROUGHPUT-RATIO");
	pk_table t;
	pk_cli_table_init(cli, &t, header.n, header.ptr);
	double baseline = n > 0 ? number(sums[0], "throughput") : 0;
	for (int i = 0; i < n; i++) {
		row r = {.n = 0};
		fill_row(&r, sums[i], wide, baseline, compare);
		pk_table_row(&t, r.ptr);
	}
	pk_table_footer(&t, "Percentiles are bucket upper bounds, within 1%%; THROTTLE-WAIT is the time requests waited for client-go's rate limiter, summed.");
	if (compare)
		pk_table_footer(&t, "THROUGHPUT-RATIO: throughput over the first row's (both gates off).");
	pk_cli_table_warnings(cli, &t);
	pk_table_flush(&t, out);
}

static void write_narrow(const pk_cli *cli, pk_out *out, cJSON *const *sums, int n, bool compare)
{
	write_table(cli, out, sums, n, compare, false);
}

static void write_wide(const pk_cli *cli, pk_out *out, cJSON *const *sums, int n, bool compare)
{
	write_table(cli, out, sums, n, compare, true);
}

const apiq_writer apiq_table_writer = { .write = write_narrow };
const apiq_writer apiq_wide_writer = { .write = write_wide };
