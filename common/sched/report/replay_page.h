/* preempt-plan --replay -o html: the timeline of a replay as one
 * self-contained page (the report style of report.h: no network, readable
 * with JavaScript off, SVG drawn here, dark mode, print styles).
 *
 * The series (replay_series.c): the resources allocated per PriorityClass
 * over the replay, sampled as the replay runs into at most
 * PK_REPLAY_SERIES_WINDOWS windows of equal width (1 s at first; when the
 * replay outgrows them, pairs merge and the width doubles), so a page's
 * size does not grow with the trace: per window and class the time-weighted
 * mean of each resource allocated (cpu, memory, and the extended resources
 * the nodes have), per window the peak of the total, and the evictions in
 * it. The series is fed by the replay's events and instants and kept apart
 * from the NDJSON answer; its record (ReplaySeries) is embedded in the page.
 *
 * The page (replay_page.c) is a view of the ReplaySummary record, the
 * ReplaySeries record and the table of classes -o table prints: warnings;
 * the summary per class; one chart per resource (stacked areas per class,
 * capacity, the peak per window, evictions marked); the waits per class on
 * a logarithmic axis; the records as data. */
#ifndef PK_SCHED_REPLAY_PAGE_H
#define PK_SCHED_REPLAY_PAGE_H

#include <cjson/cJSON.h>
#include "io/table.h"
#include "io/writer.h"
#include "sched/sim/replay.h"

enum { PK_REPLAY_SERIES_WINDOWS = 480 };

typedef struct pk_replay_series pk_replay_series;

pk_replay_series *pk_replay_series_new(void);
void pk_replay_series_free(pk_replay_series *s);
/* Each event of the replay, as its pk_replay_fn gets it. */
void pk_replay_series_event(pk_replay_series *s, const pk_replay *r, const pk_replay_event *ev);
/* The end of each instant t, as the replay's progress callback gets it. */
void pk_replay_series_instant(pk_replay_series *s, const pk_replay *r, int64_t t);
/* After pk_replay_run: the ReplaySeries record (the caller owns it). */
cJSON *pk_replay_series_json(pk_replay_series *s, const pk_replay *r);

typedef struct pk_replay_page {
	const char *title;        /* e.g. "preempt-plan --replay" */
	const cJSON *summary;     /* the ReplaySummary record */
	const cJSON *series;      /* the ReplaySeries record */
	const pk_table *classes;  /* the table -o table prints (header and rows; its footer is not shown) */
	const char *release;      /* the Kubernetes release answered for, "1.37" */
} pk_replay_page;

/* Write the page. Returns 0, or -1 when a write failed (out remembers it). */
int pk_replay_page_write(const pk_replay_page *p, pk_out *out);

#endif
