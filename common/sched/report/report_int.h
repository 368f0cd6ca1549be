/* The report's model: what report.c gathers from the records and
 * report_page.c and report_detail.c write. Internal to common/sched. */
#ifndef PK_SCHED_REPORT_INT_H
#define PK_SCHED_REPORT_INT_H

#include <stdbool.h>
#include <stdint.h>
#include "io/html.h"
#include "sched/engine/filter/pairmap.h"
#include "sched/report/report.h"

/* API calls of a plan, by what they do. */
enum { RP_CALL_DISRUPTION, RP_CALL_DELETE, RP_CALL_NOMINATE, RP_CALL_CLEAR, RP_CALL_OTHER, RP_NCALLS };

/* Unit indices, each once (consecutive repeats are dropped). */
typedef struct rp_list {
	long *v;
	long n, cap;
} rp_list;

typedef struct rp_unit {
	cJSON *plan;              /* owned; "actions" removed */
	const char *id;           /* anchor, unique in the page (interned) */
	const char *kind, *ns, *name, *result;   /* interned */
	const char *label;        /* before namespace/name: "podgroup ", "compositepodgroup ", "" (a pod) */
	bool group;               /* a PodGroup's or a CompositePodGroup's plan */
	long calls[RP_NCALLS];
	long victims;
} rp_unit;

/* A workload that loses pods. */
typedef struct rp_owner {
	const char *ns, *kind, *name;
	long pods;
	const char *classes[4];   /* PriorityClass names, first seen */
	int nclasses;
	bool more_classes;
	int32_t pmin, pmax;       /* victims' priorities */
	rp_list units;            /* the units that evict them */
} rp_owner;

typedef struct rp_node {
	const char *name;
	const cJSON *alloc, *before, *after;  /* borrowed from plans: first before, last after */
	long victims;
	rp_list victim_units, placed_units;
} rp_node;

/* A PodDisruptionBudget or a PodGroup that loses pods. */
typedef struct rp_named {
	const char *ns, *name;
	long victims;
	rp_list units;
} rp_named;

typedef struct rp_nameds {
	rp_named *v;
	long n, cap;
} rp_nameds;

typedef struct rp_reason {
	const char *stage, *text;
	long units, nodes;
	rp_list examples;
} rp_reason;

/* A warning of the run, once however many records carry it. */
typedef struct rp_warning {
	const char *text;         /* interned */
	long units;               /* plans that carry it */
	long applied;             /* applied objects that carry it */
	long times;               /* how often the run said it (pk_report_run_warnings), 0: the run did not */
	long last_unit;           /* while counting: the last plan counted, so that a plan counts once */
} rp_warning;

struct pk_report {
	pk_report_opts o;
	pk_strtab *strs;
	rp_unit *units;
	long nunits, capunits;
	cJSON *summary;           /* the SimulationSummary, or NULL */
	cJSON *applied;           /* AppliedObject records */
	cJSON *extra;             /* other records, and the NodeChoice */
	const cJSON *choice;      /* the NodeChoice in extra, or NULL */
	pk_pair_map ids;          /* anchors in use */

	/* gathered by pk_report_write */
	rp_owner *owners;
	long nowners, capowners;
	rp_node *nodes;
	long nnodes, capnodes;
	rp_nameds pdbs, groups;
	rp_reason *reasons;
	long nreasons, capreasons;
	pk_pair_map index;        /* (tag, key) -> index + 1 for the arrays above */
	pk_pair_map evicted_by;   /* victim (namespace, name) -> unit + 1 */
	pk_pair_map group_evicted_by; /* (namespace, PodGroup) of a victim -> the first unit + 1 */
	long victims, pdb_violations, recreated, cascades;
	rp_warning *warnings;     /* in the order first met: the run's, then the plans', the applied objects' */
	long nwarnings, capwarnings;
};

/* Interned strings of the report. */
const char *rp_str(pk_report *r, const char *s);

void rp_list_add(rp_list *l, long unit);
/* qsort for arrays that may be empty (and NULL). */
void rp_sort(void *base, long n, size_t size, int (*cmp)(const void *, const void *));

/* Sections (report_page.c, then report_detail.c), in page order. */
void rp_write_warnings(pk_report *r, pk_html *h);
void rp_write_summary(pk_report *r, pk_html *h);
void rp_write_applied(pk_report *r, pk_html *h);
void rp_write_choice(pk_report *r, pk_html *h);
void rp_write_owners(pk_report *r, pk_html *h);
void rp_write_pdbs(pk_report *r, pk_html *h);
void rp_write_gangs(pk_report *r, pk_html *h);
void rp_write_cascades(pk_report *r, pk_html *h);
void rp_write_reasons(pk_report *r, pk_html *h);
void rp_write_nodes(pk_report *r, pk_html *h);
void rp_write_units(pk_report *r, pk_html *h);

/* Pieces the sections share. */
void rp_unit_link(pk_report *r, pk_html *h, long unit);
/* Links to the units of l, the first max of them, then "and N more";
 * a table cell shows RP_MAX_LINKS. */
enum { RP_MAX_LINKS = 3 };
void rp_unit_links(pk_report *r, pk_html *h, const rp_list *l, long max);
/* <td> with a number, sortable as one. */
void rp_td_num(pk_html *h, long v);
void rp_section_start(pk_html *h, const char *id, const char *title);
void rp_none(pk_html *h, const char *text);
/* <p class="note" id="id">, formatted and escaped: what a bound left out. */
void rp_note(pk_html *h, const char *id, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void rp_section_end(pk_html *h);
/* A section, or when empty its title and the line none; false when empty. */
bool rp_section_or_none(pk_html *h, const char *id, const char *title, bool empty, const char *none);
void rp_td_text(pk_html *h, const char *text);
/* A record's number at path, 0 when absent. */
long rp_num(const cJSON *o, const char *path);
/* A sortable table with its column titles (NULL-ended), in a box of its own width. */
void rp_table_start(pk_html *h, const char *id, const char *const *cols);
void rp_table_end(pk_html *h);
/* The node-choice criterion that chose the plan's node (decidedBy), or NULL. */
const char *rp_criterion_text(const cJSON *plan);
/* The strings of arr, the first max of them, then how many more. */
void rp_string_list(pk_html *h, const cJSON *arr, long max);
/* What a record says it assumed: its warnings array, after the rest. */
void rp_record_warnings(pk_html *h, const cJSON *w);

#endif
