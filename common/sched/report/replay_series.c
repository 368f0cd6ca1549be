/* The resources allocated per PriorityClass over a replay, in windows;
 * see replay_page.h.
 *
 * Kept in milli-units as the snapshot keeps requests, by PriorityClass
 * (name and priority, as the summary groups pods): the state now (cur),
 * moved by the events that bind a pod (Scheduled) or take it off its node
 * (Completed, Evicted); at the end of each instant it is checked against
 * the nodes' requested totals and, should an event the series does not
 * know of have moved a pod, counted again from the nodes' pods. The state
 * held since the previous instant (held) is integrated over the windows
 * it spans. */
#include "sched/report/replay_page.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "sched/report/records.h"

#define NS_PER_S 1000000000LL
#define MAXW PK_REPLAY_SERIES_WINDOWS

enum { MAX_EXAMPLES = 3 };

typedef struct series_class {
	const char *name;         /* "" when none */
	int32_t priority;
} series_class;

typedef struct evictions {
	long n;
	int64_t first, last;      /* instants (Unix s) */
	const pk_pod *pod[MAX_EXAMPLES];
	const char *preemptor[MAX_EXAMPLES];
} evictions;

struct pk_replay_series {
	bool started;
	int64_t first;            /* the replay's first instant: window 0 starts there */
	int64_t width;            /* seconds per window */
	long last_window;         /* the highest window touched */
	int nres;
	const char **res;         /* the replay's resources (r->use's names) */
	series_class *cls;
	int ncls;
	int64_t *cur, *held;      /* [class * nres + res], milli-units */
	int64_t held_since;
	double *area;             /* [(class * nres + res) * MAXW + window]: milli-unit seconds */
	int64_t *peak;            /* [res * MAXW + window]: the largest total, milli-units */
	evictions *ev;            /* [window] */
	long resyncs;             /* counts from the nodes' pods after the first */
};

pk_replay_series *pk_replay_series_new(void)
{
	return pk_xcalloc(1, sizeof(pk_replay_series));
}

void pk_replay_series_free(pk_replay_series *s)
{
	if (!s)
		return;
	free(s->res);
	free(s->cls);
	free(s->cur);
	free(s->held);
	free(s->area);
	free(s->peak);
	free(s->ev);
	free(s);
}

/* ---- classes and amounts --------------------------------------------------------- */

static int class_of(pk_replay_series *s, const pk_pod *p)
{
	for (int k = 0; k < s->ncls; k++)
		if (s->cls[k].priority == p->priority && strcmp(s->cls[k].name, p->class_name) == 0)
			return k;
	int k = s->ncls++, nch = s->ncls * s->nres;
	s->cls = pk_xrealloc(s->cls, (size_t)s->ncls, sizeof *s->cls);
	s->cls[k] = (series_class){ p->class_name, p->priority };
	s->cur = pk_xrealloc(s->cur, (size_t)nch, sizeof *s->cur);
	s->held = pk_xrealloc(s->held, (size_t)nch, sizeof *s->held);
	s->area = pk_xrealloc(s->area, (size_t)nch * MAXW, sizeof *s->area);
	for (int u = 0; u < s->nres; u++) {
		s->cur[k * s->nres + u] = s->held[k * s->nres + u] = 0;
		memset(&s->area[(size_t)(k * s->nres + u) * MAXW], 0, sizeof *s->area * MAXW);
	}
	return k;
}

static int64_t amount(const pk_replay_series *s, const pk_res *q, int u)
{
	if (u == 0)
		return q->cpu;
	if (u == 1)
		return q->memory;
	return pk_res_scalar(q, s->res[u]);
}

static void add_pod(pk_replay_series *s, const pk_pod *p, int sign)
{
	int k = class_of(s, p);
	for (int u = 0; u < s->nres; u++)
		s->cur[k * s->nres + u] += sign * amount(s, &p->requests, u);
}

/* The state counted from every node's pods. */
static void count_nodes(pk_replay_series *s, const pk_snapshot *snap)
{
	for (int i = 0; i < s->ncls * s->nres; i++)
		s->cur[i] = 0;
	for (long i = 0; i < snap->nnodes; i++)
		for (int k = 0; k < snap->infos[i].npods; k++)
			add_pod(s, snap->infos[i].pods[k], 1);
}

/* Does the state add up to the nodes' requested totals? */
static bool adds_up(const pk_replay_series *s, const pk_snapshot *snap)
{
	for (int u = 0; u < s->nres; u++) {
		int64_t nodes = 0, classes = 0;
		for (long i = 0; i < snap->nnodes; i++)
			nodes += amount(s, &snap->infos[i].requested, u);
		for (int k = 0; k < s->ncls; k++)
			classes += s->cur[k * s->nres + u];
		if (nodes != classes)
			return false;
	}
	return true;
}

/* The state now is the one held from here on. */
static void hold(pk_replay_series *s)
{
	if (s->ncls) /* no class yet: nothing to copy (and no array) */
		memcpy(s->held, s->cur, sizeof *s->cur * (size_t)(s->ncls * s->nres));
}

/* The first call: the resources the replay counts and the pods on the
 * nodes now (the snapshot's: nothing of the replay is bound yet). */
static void start(pk_replay_series *s, const pk_replay *r)
{
	s->started = true;
	s->first = s->held_since = r->first;
	s->width = 1;
	s->nres = r->nuse;
	s->res = pk_xcalloc((size_t)s->nres + 1, sizeof *s->res);
	for (int u = 0; u < s->nres; u++)
		s->res[u] = r->use[u].name;
	s->peak = pk_xcalloc((size_t)s->nres * MAXW + 1, sizeof *s->peak);
	s->ev = pk_xcalloc(MAXW, sizeof *s->ev);
	count_nodes(s, r->m->s);
	hold(s);
}

/* ---- windows ----------------------------------------------------------------------- */

/* a's evictions, then b's (a is the earlier window) */
static void merge_evictions(evictions *dst, const evictions *a, const evictions *b)
{
	evictions m = a->n ? *a : *b;
	if (a->n && b->n) {
		m.n = a->n + b->n;
		m.last = b->last;
		int k = a->n < MAX_EXAMPLES ? (int)a->n : MAX_EXAMPLES;
		for (int i = 0; k < MAX_EXAMPLES && i < MAX_EXAMPLES && i < b->n; i++, k++) {
			m.pod[k] = b->pod[i];
			m.preemptor[k] = b->preemptor[i];
		}
	}
	*dst = m;
}

/* Windows twice as wide, half as many. */
static void coarsen(pk_replay_series *s)
{
	for (int ch = 0; ch < s->ncls * s->nres; ch++) {
		double *a = &s->area[(size_t)ch * MAXW];
		for (long i = 0; i < MAXW / 2; i++)
			a[i] = a[2 * i] + a[2 * i + 1];
		memset(&a[MAXW / 2], 0, sizeof *a * (MAXW / 2));
	}
	for (int u = 0; u < s->nres; u++) {
		int64_t *p = &s->peak[(size_t)u * MAXW];
		for (long i = 0; i < MAXW / 2; i++)
			p[i] = p[2 * i] > p[2 * i + 1] ? p[2 * i] : p[2 * i + 1];
		memset(&p[MAXW / 2], 0, sizeof *p * (MAXW / 2));
	}
	for (long i = 0; i < MAXW / 2; i++)
		merge_evictions(&s->ev[i], &s->ev[2 * i], &s->ev[2 * i + 1]);
	memset(&s->ev[MAXW / 2], 0, sizeof *s->ev * (MAXW / 2));
	s->width *= 2;
	s->last_window /= 2;
}

/* The window of instant t, the windows made wide enough to hold it. */
static long window_of(pk_replay_series *s, int64_t t)
{
	while ((t - s->first) / s->width >= MAXW)
		coarsen(s);
	long w = (long)((t - s->first) / s->width);
	if (w > s->last_window)
		s->last_window = w;
	return w;
}

static void note_peak(pk_replay_series *s, long w, const int64_t *state)
{
	for (int u = 0; u < s->nres; u++) {
		int64_t total = 0;
		for (int k = 0; k < s->ncls; k++)
			total += state[k * s->nres + u];
		if (total > s->peak[(size_t)u * MAXW + w])
			s->peak[(size_t)u * MAXW + w] = total;
	}
}

/* The held state over [held_since, t): its area in each window it spans. */
static void integrate(pk_replay_series *s, int64_t t)
{
	if (t <= s->held_since)
		return;
	window_of(s, t - 1);   /* the windows wide enough first: coarsening moves them */
	for (int64_t a = s->held_since; a < t;) {
		long w = window_of(s, a);
		int64_t b = s->first + (int64_t)(w + 1) * s->width;
		if (b > t)
			b = t;
		for (int ch = 0; ch < s->ncls * s->nres; ch++)
			s->area[(size_t)ch * MAXW + w] += (double)s->held[ch] * (double)(b - a);
		note_peak(s, w, s->held);
		a = b;
	}
	s->held_since = t;
}

/* ---- feeding ---------------------------------------------------------------------- */

void pk_replay_series_event(pk_replay_series *s, const pk_replay *r, const pk_replay_event *ev)
{
	bool counted = !s->started;  /* counted from the nodes at the start: this event is in it already */
	if (!s->started)
		start(s, r);
	const pk_pod *p = ev->pod->pod;
	switch (counted ? PK_REPLAY_ARRIVED : ev->kind) {
	case PK_REPLAY_SCHEDULED:
		add_pod(s, p, 1);
		break;
	case PK_REPLAY_COMPLETED:
	case PK_REPLAY_EVICTED:
		add_pod(s, p, -1);
		break;
	default:
		break;
	}
	if (ev->kind == PK_REPLAY_EVICTED) {
		integrate(s, ev->t);   /* the windows as they are at t */
		evictions *e = &s->ev[window_of(s, ev->t)];
		if (!e->n)
			e->first = ev->t;
		e->last = ev->t;
		if (e->n < MAX_EXAMPLES) {
			e->pod[e->n] = p;
			e->preemptor[e->n] = ev->preemptor;
		}
		e->n++;
	}
}

void pk_replay_series_instant(pk_replay_series *s, const pk_replay *r, int64_t t)
{
	if (!s->started)
		start(s, r);
	integrate(s, t);
	if (!adds_up(s, r->m->s)) {
		count_nodes(s, r->m->s);
		s->resyncs++;
	}
	hold(s);
	note_peak(s, window_of(s, t), s->held);
}

/* ---- the record --------------------------------------------------------------------- */

/* Six significant digits: the page draws them, the data stays small. */
static double sig6(double v)
{
	if (v == 0 || !isfinite(v))
		return 0;
	double m = pow(10, 5 - floor(log10(fabs(v))));
	return round(v * m) / m;
}

static const char *unit_of(const char *res)
{
	return strcmp(res, "cpu") == 0 ? "cores" : strcmp(res, "memory") == 0 ? "bytes" : "";
}

static int class_cmp(const void *a, const void *b)
{
	const series_class *x = a, *y = b;
	if (x->priority != y->priority)
		return x->priority > y->priority ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void add_time(cJSON *o, const char *key, int64_t t)
{
	char buf[48];
	pk_format_time(t * NS_PER_S, buf, sizeof buf);
	cJSON_AddStringToObject(o, key, buf);
}

static cJSON *evictions_json(const pk_replay_series *s, long nwin)
{
	cJSON *arr = cJSON_CreateArray();
	for (long w = 0; w < nwin; w++) {
		const evictions *e = &s->ev[w];
		if (!e->n)
			continue;
		cJSON *x = cJSON_CreateObject();
		cJSON_AddNumberToObject(x, "window", (double)w);
		cJSON_AddNumberToObject(x, "count", (double)e->n);
		add_time(x, "first", e->first);
		cJSON_AddNumberToObject(x, "firstOffsetSeconds", (double)(e->first - s->first));
		cJSON_AddNumberToObject(x, "lastOffsetSeconds", (double)(e->last - s->first));
		cJSON *pods = cJSON_AddArrayToObject(x, "pods");
		for (int i = 0; i < MAX_EXAMPLES && e->pod[i]; i++) {
			cJSON *p = cJSON_CreateObject();
			cJSON_AddStringToObject(p, "namespace", e->pod[i]->namespace_);
			cJSON_AddStringToObject(p, "name", e->pod[i]->name);
			if (e->preemptor[i])
				cJSON_AddStringToObject(p, "preemptor", e->preemptor[i]);
			cJSON_AddItemToArray(pods, p);
		}
		cJSON_AddItemToArray(arr, x);
	}
	return arr;
}

cJSON *pk_replay_series_json(pk_replay_series *s, const pk_replay *r)
{
	if (!s->started)
		start(s, r);
	integrate(s, r->end);
	int64_t span = r->end - s->first;
	long nwin = span > 0 ? (long)((span + s->width - 1) / s->width) : 1;
	if (s->last_window == nwin) { /* the last instant on a window's edge: its state is the last window's */
		for (int u = 0; u < s->nres; u++) {
			int64_t *pk = &s->peak[(size_t)u * MAXW];
			if (pk[nwin] > pk[nwin - 1])
				pk[nwin - 1] = pk[nwin];
		}
		merge_evictions(&s->ev[nwin - 1], &s->ev[nwin - 1], &s->ev[nwin]);
	}
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "kind", "ReplaySeries");
	add_time(j, "start", s->first);
	cJSON_AddNumberToObject(j, "durationSeconds", (double)span);
	cJSON_AddNumberToObject(j, "windowSeconds", (double)s->width);
	cJSON_AddNumberToObject(j, "windows", (double)nwin);
	/* instants after which the series was counted again from the nodes (an event it does not follow): 0 */
	cJSON_AddNumberToObject(j, "recounts", (double)s->resyncs);
	cJSON *res = cJSON_AddArrayToObject(j, "resources");
	for (int u = 0; u < s->nres; u++) {
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "resource", s->res[u]);
		cJSON_AddStringToObject(x, "unit", unit_of(s->res[u]));
		cJSON_AddNumberToObject(x, "allocatable", r->use[u].allocatable);
		cJSON *pk = cJSON_AddArrayToObject(x, "peakAllocated");
		for (long w = 0; w < nwin; w++)
			cJSON_AddItemToArray(pk, cJSON_CreateNumber(sig6((double)s->peak[(size_t)u * MAXW + w] / 1000.0)));
		cJSON_AddItemToArray(res, x);
	}
	/* classes highest first; the windows' means of each */
	int *order = pk_xcalloc((size_t)s->ncls + 1, sizeof *order);
	series_class *sorted = pk_xcalloc((size_t)s->ncls + 1, sizeof *sorted);
	if (s->ncls)
		memcpy(sorted, s->cls, sizeof *sorted * (size_t)s->ncls);
	if (s->ncls > 1)
		qsort(sorted, (size_t)s->ncls, sizeof *sorted, class_cmp);
	for (int i = 0; i < s->ncls; i++)
		for (int k = 0; k < s->ncls; k++)
			if (s->cls[k].name == sorted[i].name && s->cls[k].priority == sorted[i].priority)
				order[i] = k;
	cJSON *cls = cJSON_AddArrayToObject(j, "classes");
	for (int i = 0; i < s->ncls; i++) {
		int k = order[i];
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "priorityClassName", *s->cls[k].name ? s->cls[k].name : "(none)");
		cJSON_AddNumberToObject(x, "priority", s->cls[k].priority);
		cJSON *alloc = cJSON_AddObjectToObject(x, "allocated");
		for (int u = 0; u < s->nres; u++) {
			cJSON *v = cJSON_AddArrayToObject(alloc, s->res[u]);
			const double *a = &s->area[(size_t)(k * s->nres + u) * MAXW];
			for (long w = 0; w < nwin; w++) {
				int64_t len = w + 1 < nwin ? s->width : span - (int64_t)w * s->width;
				/* a replay of one instant: the state at it */
				double mean = len > 0 ? a[w] / (double)len : (double)s->held[k * s->nres + u];
				cJSON_AddItemToArray(v, cJSON_CreateNumber(sig6(mean / 1000.0)));
			}
		}
		cJSON_AddItemToArray(cls, x);
	}
	free(order);
	free(sorted);
	cJSON_AddItemToObject(j, "evictions", evictions_json(s, nwin));
	return j;
}
