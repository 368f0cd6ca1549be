/* Encoding and decoding of victims' NDJSON records; see records.h. */
#include "sched/report/records.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/emit.h"
#include "k8s/gates.h"
#include "k8s/json.h"
#include "k8s/profile.h"
#include "k8s/quantity.h"
#include "k8s/release.h"
#include "sched/engine/filter/volumes.h"
#include "sched/engine/filter/dra.h"
#include "sched/engine/workers.h"
#include "base/alloc.h"

/* ---- result names ----------------------------------------------------------------- */

static const char *const result_names[] = {
	[PK_PLAN_NO_PREEMPTION_NEEDED] = "NoPreemptionNeeded",
	[PK_PLAN_PREEMPT] = "Preempt",
	[PK_PLAN_NOT_ELIGIBLE] = "NotEligible",
	[PK_PLAN_UNSCHEDULABLE] = "Unschedulable",
	[PK_PLAN_PREEMPTION_IN_PROGRESS] = "PreemptionInProgress",
};

const char *pk_plan_result_name(pk_plan_result r)
{
	return r <= PK_PLAN_PREEMPTION_IN_PROGRESS ? result_names[r] : "Unknown";
}

bool pk_plan_result_parse(const char *name, pk_plan_result *out)
{
	for (size_t i = 0; i < sizeof result_names / sizeof result_names[0]; i++)
		if (strcmp(name, result_names[i]) == 0) {
			*out = (pk_plan_result)i;
			return true;
		}
	/* victims' names before they were these */
	if (strcmp(name, "FitsWithoutPreemption") == 0)
		*out = PK_PLAN_NO_PREEMPTION_NEEDED;
	else if (strcmp(name, "NeedsPreemption") == 0)
		*out = PK_PLAN_PREEMPT;
	else
		return false;
	return true;
}

pk_plan_result pk_plan_result_of(pk_pre_status s)
{
	switch (s) {
	case PK_PRE_FITS: return PK_PLAN_NO_PREEMPTION_NEEDED;
	case PK_PRE_NEEDS_PREEMPTION: return PK_PLAN_PREEMPT;
	case PK_PRE_NOT_ELIGIBLE: return PK_PLAN_NOT_ELIGIBLE;
	default: return PK_PLAN_UNSCHEDULABLE;
	}
}

/* Days since 1970-01-01 to a civil date (proleptic Gregorian), as in
 * Howard Hinnant's chrono-compatible low-level date algorithms. */
static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	unsigned doe = (unsigned)(z - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static char *two_digits(char *p, unsigned v)
{
	p[0] = (char)('0' + v / 10);
	p[1] = (char)('0' + v % 10);
	return p + 2;
}

/* Without gmtime_r and strftime: a Candidate record has a start time per
 * victim, printed on several threads at once, and gmtime_r takes the time
 * zone lock. Nanoseconds in an int64_t span the years 1677 to 2262, so
 * the year always has four digits. */
int64_t pk_adjusted_sum_text(long nvictims, int64_t priority_sum, char *buf, size_t size)
{
	snprintf(buf, size, "%ldx2^31%c%lld", nvictims, priority_sum < 0 ? '-' : '+',
	         (long long)(priority_sum < 0 ? -priority_sum : priority_sum));
	return (int64_t)nvictims * ((int64_t)INT32_MAX + 1) + priority_sum;
}

void pk_format_time(int64_t ns, char *buf, size_t size)
{
	int64_t sec = ns / 1000000000, frac = ns % 1000000000;
	if (frac < 0) {
		frac += 1000000000;
		sec--;
	}
	int64_t days = sec / 86400, rem = sec % 86400;
	if (rem < 0) {
		rem += 86400;
		days--;
	}
	int64_t y;
	unsigned m, d;
	civil_from_days(days, &y, &m, &d);
	char t[40], *p = t;
	p = two_digits(p, (unsigned)(y / 100));
	p = two_digits(p, (unsigned)(y % 100));
	*p++ = '-';
	p = two_digits(p, m);
	*p++ = '-';
	p = two_digits(p, d);
	*p++ = 'T';
	p = two_digits(p, (unsigned)(rem / 3600));
	*p++ = ':';
	p = two_digits(p, (unsigned)(rem / 60 % 60));
	*p++ = ':';
	p = two_digits(p, (unsigned)(rem % 60));
	if (frac) {    /* nine digits, trailing zeros dropped */
		*p++ = '.';
		int n = 9;
		for (int i = 8; i >= 0; i--, frac /= 10)
			p[i] = (char)('0' + frac % 10);
		while (p[n - 1] == '0')
			n--;
		p += n;
	}
	*p++ = 'Z';
	*p = '\0';
	snprintf(buf, size, "%s", t);
}

static void pod_ref_emit(pk_emit *e, const char *key, const pk_pod *p, bool full)
{
	pk_emit_object(e, key);
	pk_emit_string(e, "namespace", p->namespace_);
	pk_emit_string(e, "name", p->name);
	pk_emit_string(e, "uid", p->uid);
	pk_emit_number(e, "priority", p->priority);
	if (full) {
		pk_emit_string(e, "preemptionPolicy", pk_preemption_policy_name(p->policy));
		pk_emit_string(e, "priorityClassName", p->class_name);
		pk_emit_string(e, "schedulerName", p->scheduler_name);
		if (*p->nominated_node)
			pk_emit_string(e, "nominatedNodeName", p->nominated_node);
	}
	pk_emit_end(e);
}

cJSON *pk_pod_ref_json(const pk_pod *p, bool full)
{
	pk_emit e;
	pk_emit_tree(&e);
	pod_ref_emit(&e, NULL, p, full);
	return pk_emit_tree_done(&e);
}

void pk_victim_ref_emit(pk_emit *e, const char *key, const pk_victim_ref *v)
{
	pk_emit_object(e, key);
	pk_emit_string(e, "namespace", v->namespace_);
	pk_emit_string(e, "name", v->name);
	pk_emit_string(e, "uid", v->uid);
	pk_emit_string(e, "node", v->node ? v->node : "");
	pk_emit_number(e, "priority", v->priority);
	if (v->has_start_time) {
		char t[64];
		pk_format_time(v->start_time, t, sizeof t);
		pk_emit_string(e, "startTime", t);
	} else {
		pk_emit_null(e, "startTime");
	}
	if (v->violating)
		pk_emit_bool(e, "pdbViolation", true);
	if (v->terminating)
		pk_emit_bool(e, "terminating", true);
	if (v->class_name && *v->class_name)
		pk_emit_string(e, "priorityClassName", v->class_name);
	if (v->owner_kind && *v->owner_kind) {
		pk_emit_object(e, "owner");
		const char *name = v->owner_name ? v->owner_name : "";
		size_t n = strlen(name);
		if (v->owner_trim && v->owner_trim < n) { /* a Deployment's ReplicaSet: the Deployment */
			pk_emit_string(e, "kind", "Deployment");
			pk_emit_string_n(e, "name", name, n - v->owner_trim);
		} else {
			pk_emit_string(e, "kind", v->owner_kind);
			pk_emit_string(e, "name", name);
		}
		pk_emit_end(e);
	}
	if (v->pod_group && *v->pod_group)
		pk_emit_string(e, "podGroup", v->pod_group);
	if (v->pdb && *v->pdb)
		pk_emit_string(e, "pdb", v->pdb);
	pk_victim_devices_emit(e, v);
	pk_emit_end(e);
}

cJSON *pk_victim_ref_json(const pk_victim_ref *v)
{
	pk_emit e;
	pk_emit_tree(&e);
	pk_victim_ref_emit(&e, NULL, v);
	return pk_emit_tree_done(&e);
}

/* A member's string, interned; NULL when it is missing or no string. */
static const char *interned_or_null(pk_strtab *strs, const cJSON *v)
{
	return cJSON_IsString(v) ? pk_intern(strs, v->valuestring) : NULL;
}

static const char *interned_or_empty(pk_strtab *strs, const cJSON *v)
{
	return pk_intern(strs, cJSON_IsString(v) ? v->valuestring : "");
}

/* A copy of a member's string that is the ref's own ("" when missing):
 * names and uids are one per pod, and interning millions of them (victims'
 * output at 65,000 nodes) made the table's probes most of a plan's time.
 * As for a pod's own (pk_pod.name, .uid), nothing compares them by address. */
static const char *own_or_empty(pk_strtab *strs, const cJSON *v)
{
	const char *s = cJSON_IsString(v) ? v->valuestring : "";
	return pk_strtab_keep(strs, s, strlen(s));
}

/* A victim ref's members, read in one pass over the object: a plan reads
 * every victim of every candidate. */
enum { REF_NAMESPACE, REF_NAME, REF_UID, REF_NODE, REF_PRIORITY, REF_START, REF_PDB_VIOLATION, REF_TERMINATING,
       REF_CLASS, REF_OWNER, REF_POD_GROUP, REF_PDB, REF_COUNT };
static const char *const ref_members[REF_COUNT + 1] = {
	"namespace", "name", "uid", "node", "priority", "startTime", "pdbViolation", "terminating",
	"priorityClassName", "owner", "podGroup", "pdb", NULL,
};

/* What node choice reads of a victim ref, from its members m. */
static void ref_times(const cJSON *const *m, pk_victim_ref *out)
{
	int64_t p = 0;
	pk_num_int64(m[REF_PRIORITY], &p);
	out->priority = (int32_t)p;
	out->has_start_time = cJSON_IsString(m[REF_START]) && pk_parse_time(m[REF_START]->valuestring, &out->start_time);
}

bool pk_victim_ref_from_json(const cJSON *o, pk_strtab *strs, pk_victim_ref *out)
{
	const cJSON *m[REF_COUNT];

	memset(out, 0, sizeof *out);
	if (!cJSON_IsObject(o))
		return false;
	pk_get_members(o, ref_members, m);
	out->namespace_ = interned_or_empty(strs, m[REF_NAMESPACE]);
	out->name = own_or_empty(strs, m[REF_NAME]);
	out->uid = own_or_empty(strs, m[REF_UID]);
	out->node = interned_or_empty(strs, m[REF_NODE]);
	ref_times(m, out);
	out->violating = cJSON_IsTrue(m[REF_PDB_VIOLATION]);
	out->terminating = cJSON_IsTrue(m[REF_TERMINATING]);
	out->class_name = interned_or_null(strs, m[REF_CLASS]);
	out->owner_kind = interned_or_null(strs, pk_get(m[REF_OWNER], "kind"));
	out->owner_name = interned_or_null(strs, pk_get(m[REF_OWNER], "name"));
	out->pod_group = interned_or_null(strs, m[REF_POD_GROUP]);
	out->pdb = interned_or_null(strs, m[REF_PDB]);
	return true;
}

/* ---- pod-group disruptions --------------------------------------------------------- */

void pk_disruption_mode_emit(pk_emit *e, const char *key, bool whole, int k8s_minor)
{
	if (pk_release_disruption_mode_string(k8s_minor)) {
		pk_emit_string(e, key, whole ? "PodGroup" : "Pod");
		return;
	}
	pk_emit_object(e, key);
	pk_emit_object(e, whole ? "all" : "single");
	pk_emit_end(e);
	pk_emit_end(e);
}

void pk_group_disruptions_emit(pk_emit *e, int num, const pk_group_disruption *d, int n, int k8s_minor)
{
	pk_emit_number(e, "numPodGroupDisruptions", num);
	pk_emit_array(e, "podGroupDisruptions");
	for (int i = 0; i < n; i++) {
		pk_emit_object(e, NULL);
		pk_emit_string(e, "kind", d[i].composite ? "CompositePodGroup" : "PodGroup");
		pk_emit_string(e, "namespace", d[i].namespace_);
		pk_emit_string(e, "name", d[i].name);
		pk_disruption_mode_emit(e, "disruptionMode", d[i].whole, k8s_minor);
		pk_emit_number(e, "disruptions", d[i].units);
		pk_emit_number(e, "pods", d[i].pods);
		pk_emit_end(e);
	}
	pk_emit_end(e);
}

void pk_group_disruptions_from_json(const cJSON *o, pk_strtab *strs, pk_group_disruption *d, int max, int *num,
                                    int *n)
{
	int64_t v = 0;
	*num = pk_int64(o, "numPodGroupDisruptions", &v) && v > 0 && v <= INT32_MAX ? (int)v : 0;
	*n = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, pk_get(o, "podGroupDisruptions")) {
		if (!cJSON_IsObject(it) || *n >= max)
			continue;
		pk_group_disruption *x = &d[(*n)++];
		memset(x, 0, sizeof *x);
		x->composite = strcmp(pk_str_or(it, "kind", "PodGroup"), "CompositePodGroup") == 0;
		x->namespace_ = pk_intern(strs, pk_str_or(it, "namespace", ""));
		x->name = pk_intern(strs, pk_str_or(it, "name", ""));
		pk_pg_decode_disruption_mode(pk_get(it, "disruptionMode"), &x->whole);
		x->units = pk_int64(it, "disruptions", &v) && v > 0 && v <= INT32_MAX ? (int)v : 1;
		x->pods = pk_int64(it, "pods", &v) && v > 0 && v <= INT32_MAX ? (int)v : 0;
	}
}

/* ---- node resources ---------------------------------------------------------------- */

static void quantity_emit(pk_emit *e, const char *name, int64_t milli)
{
	char q[32];
	pk_qty_format(milli, q, sizeof q);
	pk_emit_string(e, name, q);
}

/* A ResourceList: cpu, memory and pods always, the others when not zero. */
static void resource_list_emit(pk_emit *e, const char *key, const pk_res *r)
{
	pk_emit_object(e, key);
	quantity_emit(e, "cpu", r->cpu);
	quantity_emit(e, "memory", r->memory);
	quantity_emit(e, "pods", r->pods);
	if (r->ephemeral)
		quantity_emit(e, "ephemeral-storage", r->ephemeral);
	for (int i = 0; i < r->nscalar; i++)
		if (r->scalar[i].milli)
			quantity_emit(e, r->scalar[i].name, r->scalar[i].milli);
	pk_emit_end(e);
}

static void res_pods(pk_res *r, const pk_pod *const *pods, int n, int sign)
{
	for (int i = 0; i < n; i++) {
		pk_res_add(r, &pods[i]->requests, sign);
		r->pods += sign * 1000;
	}
}

static bool among(const pk_pod *p, const pk_pod *const *pods, int n)
{
	for (int i = 0; i < n; i++)
		if (pods[i] == p)
			return true;
	return false;
}

void pk_node_resources_emit(pk_emit *e, const char *key, const pk_nodeinfo *ni, const pk_pod *const *gone, int ngone,
                            const pk_pod *const *added, int nadded)
{
	/* the pods bound there, and those nominated there: the scheduler
	 * holds room for them (a plan's own preemptor counts once, after) */
	pk_res before = {0}, after = {0};
	pk_res_add(&before, &ni->requested, 1);
	before.pods = (int64_t)ni->npods * 1000;
	for (int i = 0; i < ni->nnominated; i++)
		if (!among(ni->nominated[i], added, nadded))
			res_pods(&before, (const pk_pod *const *)&ni->nominated[i], 1, 1);
	pk_res_add(&after, &before, 1);
	after.pods = before.pods;
	res_pods(&after, gone, ngone, -1);
	res_pods(&after, added, nadded, 1);
	pk_emit_object(e, key);
	pk_emit_string(e, "node", ni->node->name);
	resource_list_emit(e, "allocatable", &ni->node->allocatable);
	resource_list_emit(e, "requested", &before);
	resource_list_emit(e, "requestedAfter", &after);
	pk_emit_end(e);
	free(before.scalar);
	free(after.scalar);
}

cJSON *pk_node_resources_json(const pk_nodeinfo *ni, const pk_pod *const *gone, int ngone,
                              const pk_pod *const *added, int nadded)
{
	pk_emit e;
	pk_emit_tree(&e);
	pk_node_resources_emit(&e, NULL, ni, gone, ngone, added, nadded);
	return pk_emit_tree_done(&e);
}

/* The pods of ni that c's victims name (malloc'd, *n of them). */
static const pk_pod **victim_pods(const pk_nodeinfo *ni, const pk_candidate *c, int *n)
{
	const pk_pod **pods = pk_xmalloc(sizeof *pods * (size_t)(c->nvictims + 1));
	*n = 0;
	for (int i = 0; i < c->nvictims; i++) {
		const pk_pod *p = pk_nodeinfo_find_pod(ni, &c->victims[i]);
		if (p)
			pods[(*n)++] = p;
	}
	return pods;
}

static void candidate_resources_emit(pk_emit *e, const pk_snapshot *s, const pk_pod *preemptor,
                                     const pk_candidate *c)
{
	const pk_nodeinfo *ni = pk_snapshot_node(s, c->node);
	if (!ni)
		return;
	int ngone;
	const pk_pod **gone = victim_pods(ni, c, &ngone);
	/* a bound preemptor is a Deferred resize (KEP-5836): its own entry on
	 * the node, at what the scheduler's cache counts, gives way to it */
	for (int i = 0; *preemptor->node_name && *preemptor->uid && i < ni->npods; i++)
		if (ni->pods[i] != preemptor && strcmp(ni->pods[i]->uid, preemptor->uid) == 0) {
			gone[ngone++] = ni->pods[i];
			break;
		}
	pk_node_resources_emit(e, "nodeResources", ni, gone, ngone, &preemptor, 1);
	free(gone);
}

/* The candidate's victims, with the devices each frees under
 * --dra-preemption=kep-5690 when s is given (read here: threads). */
static void candidate_victims_emit(pk_emit *e, const pk_snapshot *s, const pk_pod *preemptor, const pk_candidate *c)
{
	pk_victim_ref *v = NULL;
	pk_victim_device *devices = NULL;
	if (s && s->dra_kep5690 && c->nvictims) {
		v = pk_xmalloc(sizeof *v * (size_t)c->nvictims);
		memcpy(v, c->victims, sizeof *v * (size_t)c->nvictims);
		devices = pk_dra_victims_devices(s, preemptor, c->node, v, c->nvictims);
	}
	pk_emit_array(e, "victims");
	for (int i = 0; i < c->nvictims; i++)
		pk_victim_ref_emit(e, NULL, v ? &v[i] : &c->victims[i]);
	pk_emit_end(e);
	free(devices);
	free(v);
}

/* release: "1.37", pk_k8s_version_text's, made once per evaluation. */
static void candidate_emit(pk_emit *e, const pk_snapshot *s, const pk_pod *preemptor, const pk_candidate *c,
                           const char *release, int k8s_minor)
{
	pk_emit_object(e, NULL);
	pk_emit_string(e, "kind", "Candidate");
	pk_emit_string(e, PK_K8S_VERSION_KEY, release);
	pod_ref_emit(e, "preemptor", preemptor, false);
	pk_emit_string(e, "node", c->node);
	candidate_victims_emit(e, s, preemptor, c);
	pk_emit_number(e, "numPDBViolations", c->num_pdb_violations);
	if (c->num_pod_group_disruptions)
		pk_group_disruptions_emit(e, c->num_pod_group_disruptions, pk_candidate_disruptions(c), c->ndisruptions,
		                          k8s_minor);
	pk_emit_array(e, "nominatedPodsToClear");
	for (int i = 0; i < c->nclear; i++)
		pk_victim_ref_emit(e, NULL, &c->clear_nominations[i]);
	pk_emit_end(e);
	if (s)
		candidate_resources_emit(e, s, preemptor, c);
	else
		pk_emit_item(e, "nodeResources", c->node_resources);
	pk_emit_end(e);
}

cJSON *pk_candidate_json(const pk_snapshot *s, const pk_pod *preemptor, const pk_candidate *c, int k8s_minor)
{
	char release[16];
	pk_emit e;
	pk_emit_tree(&e);
	candidate_emit(&e, s, preemptor, c, pk_k8s_version_text(k8s_minor, release, sizeof release), k8s_minor);
	return pk_emit_tree_done(&e);
}

static char *candidate_text(const pk_snapshot *s, const pk_pod *preemptor, const pk_candidate *c,
                            const char *release, int k8s_minor)
{
	pk_emit e;
	pk_emit_text(&e);
	candidate_emit(&e, s, preemptor, c, release, k8s_minor);
	return pk_emit_text_done(&e);
}

char *pk_candidate_text(const pk_snapshot *s, const pk_pod *preemptor, const pk_candidate *c, int k8s_minor)
{
	char release[16];
	return candidate_text(s, preemptor, c, pk_k8s_version_text(k8s_minor, release, sizeof release), k8s_minor);
}

/* Candidates [from, from + n) of a job, printed into text[0..n). */
typedef struct candidates_job {
	pk_snapshot *s;
	const pk_pod *preemptor;
	const pk_candidate *c;
	const char *release;      /* what the records name: "1.37" */
	int k8s_minor;            /* and the release itself */
	char **text;
	int from, n;
} candidates_job;

/* A candidate whose victims the evaluation left out (victims_of_best_only)
 * has them listed again here, on this thread. */
static char *candidate_text_listing(pk_snapshot *s, const pk_pod *preemptor, const pk_candidate *c,
                                    const char *release, int k8s_minor)
{
	if (c->victims || c->nvictims == 0 || !s)
		return candidate_text(s, preemptor, c, release, k8s_minor);
	pk_arena arena;
	pk_arena_init(&arena);
	pk_candidate full;
	if (!pk_candidate_list_victims(s, preemptor, c, &arena, &full)) {
		fprintf(stderr, "internal error: the victims of candidate node %s came out otherwise\n", c->node);
		abort();
	}
	char *text = candidate_text(s, preemptor, &full, release, k8s_minor);
	pk_arena_free(&arena);
	return text;
}

static void print_candidates(void *ctx, int part, int nparts)
{
	candidates_job *j = ctx;
	for (int i = j->n * part / nparts; i < j->n * (part + 1) / nparts; i++)
		j->text[i] = candidate_text_listing(j->s, j->preemptor, &j->c[j->from + i], j->release, j->k8s_minor);
}

int pk_write_candidates(pk_out *out, pk_snapshot *s, const pk_evaluation *e, int threads)
{
	enum { CHUNK = 256 };    /* records in memory at once */
	int n = e->ncandidates, rc = 0;
	pk_workers *w = n > 64 ? pk_workers_new(pk_workers_wanted(threads)) : NULL;
	char **text = pk_xmalloc(sizeof *text * CHUNK);
	char release[16];
	candidates_job job = { .s = s, .preemptor = e->preemptor->pod, .c = e->candidates, .text = text,
	                       .release = pk_k8s_version_text(e->k8s_minor, release, sizeof release),
	                       .k8s_minor = e->k8s_minor };
	for (job.from = 0; job.from < n; job.from += CHUNK) {
		job.n = n - job.from < CHUNK ? n - job.from : CHUNK;
		pk_workers_run(w, print_candidates, &job);
		for (int i = 0; i < job.n; i++) {
			if (rc == 0 && pk_out_record_text(out, text[i]) < 0)
				rc = -1;
			free(text[i]);
		}
	}
	free(text);
	pk_workers_free(w);
	return rc;
}

/* extra: disruptions to make room for after the refs (engine.h) */
static pk_victim_ref *refs_from_json(const cJSON *arr, pk_strtab *strs, pk_arena *a, int *n, int extra)
{
	int cnt = cJSON_IsArray(arr) ? cJSON_GetArraySize(arr) : 0;
	*n = 0;
	pk_victim_ref *v = pk_arena_alloc(a, pk_candidate_disruptions_room(cnt, extra));
	const cJSON *it;
	cJSON_ArrayForEach(it, arr)
		if (pk_victim_ref_from_json(it, strs, &v[*n])) {
			pk_victim_devices_from_json(it, strs, a, &v[*n]); /* --dra-preemption=kep-5690's */
			(*n)++;
		}
	return v;
}

/* A victim ref's priority and start time only. */
static void victim_ref_times(const cJSON *o, pk_victim_ref *out)
{
	const cJSON *m[REF_COUNT];
	memset(out, 0, sizeof *out);
	pk_get_members(o, ref_members, m);
	ref_times(m, out);
}

bool pk_candidate_summary_from_json(const cJSON *o, pk_strtab *strs, pk_candidate *out)
{
	memset(out, 0, sizeof *out);
	const char *node = pk_str(o, "node");
	if (!node)
		return false;
	out->node = pk_intern(strs, node);
	int64_t v = 0;
	pk_int64(o, "numPDBViolations", &v);
	out->num_pdb_violations = (int)v;
	/* the victims' times, for pk_candidate_summarize, then dropped */
	const cJSON *arr = pk_get(o, "victims"), *it;
	int cnt = cJSON_IsArray(arr) ? cJSON_GetArraySize(arr) : 0;
	pk_victim_ref *refs = pk_xmalloc(sizeof *refs * (size_t)(cnt ? cnt : 1));
	cJSON_ArrayForEach(it, arr)
		if (cJSON_IsObject(it))    /* as refs_from_json counts them */
			victim_ref_times(it, &refs[out->nvictims++]);
	out->victims = refs;
	pk_candidate_summarize(out);
	out->victims = NULL;
	free(refs);
	return true;
}

bool pk_candidate_from_json(cJSON *o, pk_strtab *strs, pk_arena *a, pk_candidate *out)
{
	memset(out, 0, sizeof *out);
	const char *node = pk_str(o, "node");
	if (!node)
		return false;
	out->node = pk_intern(strs, node);
	int nd = cJSON_GetArraySize(pk_get(o, "podGroupDisruptions"));
	nd = nd > UINT16_MAX ? UINT16_MAX : nd;
	out->victims = refs_from_json(pk_get(o, "victims"), strs, a, &out->nvictims, nd);
	out->clear_nominations = refs_from_json(pk_get(o, "nominatedPodsToClear"), strs, a, &out->nclear, 0);
	int64_t v = 0;
	pk_int64(o, "numPDBViolations", &v);
	out->num_pdb_violations = (int)v;
	/* after the refs that were read, in the room made for every listed one */
	int got;
	pk_group_disruptions_from_json(o, strs, (pk_group_disruption *)(void *)(out->victims + out->nvictims), nd,
	                               &out->num_pod_group_disruptions, &got);
	out->ndisruptions = (uint16_t)got;
	const cJSON *res = pk_get(o, "nodeResources");
	if (cJSON_IsObject(res))
		out->node_resources = cJSON_DetachItemViaPointer(o, (cJSON *)res);
	pk_candidate_summarize(out);
	return true;
}

/* The Preemptor record of e, into em. */
static void preemptor_emit(pk_emit *em, const pk_evaluation *e, const pk_placement *pl)
{
	const pk_preemptor *p = e->preemptor;
	char release[16];
	pk_emit_object(em, NULL);
	pk_emit_string(em, "kind", "Preemptor");
	pk_emit_string(em, PK_K8S_VERSION_KEY, pk_k8s_version_text(e->k8s_minor, release, sizeof release));
	pod_ref_emit(em, "preemptor", p->pod, true);
	pk_emit_string(em, "source", p->source ? p->source : "Pod");
	pk_emit_string(em, "status", pk_plan_result_name(pk_plan_result_of(e->status)));
	pk_emit_string(em, "message", e->message);
	pk_emit_number(em, "nodes", (double)e->nnodes);
	pk_emit_array(em, "fitsNodes");
	for (long i = 0; i < e->nnodes; i++)
		if (e->nodes[i].filter->code == PK_CODE_SUCCESS)
			pk_emit_string(em, NULL, e->nodes[i].ni->node->name);
	pk_emit_end(em);
	pk_emit_number(em, "potentialNodes", (double)e->npotential);
	pk_emit_number(em, "numCandidates", (double)e->num_candidates);
	pk_emit_number(em, "offset", (double)e->offset);
	pk_emit_number(em, "candidates", e->ncandidates);
	pk_emit_array(em, "warnings");
	if (p->pod->unmodelled) {
		char names[256], msg[400];
		pk_unmodelled_names(p->pod->unmodelled, names, sizeof names);
		snprintf(msg, sizeof msg, "not modelled, ignored when filtering: %s", names);
		pk_emit_string(em, NULL, msg);
	}
	const cJSON *it;
	cJSON_ArrayForEach(it, p->warnings)
		pk_emit_item(em, NULL, it);
	if (pk_volumes_assumption(p->pod))
		pk_emit_string(em, NULL, pk_volumes_assumption(p->pod));
	for (int i = 0; pk_dra_assumption(p->pod, i); i++)
		pk_emit_string(em, NULL, pk_dra_assumption(p->pod, i));
	/* the status first: the note is made on demand, and only a pod that
	 * stays pending has one */
	if (e->status != PK_PRE_FITS && e->status != PK_PRE_NEEDS_PREEMPTION && pk_dra_held_devices_note(p->pod))
		pk_emit_string(em, NULL, pk_dra_held_devices_note(p->pod));
	if (pl)
		pk_emit_string(em, NULL, pl->assumes);
	pk_emit_end(em);
	if (p->gate_message && e->status == PK_PRE_NOT_ELIGIBLE) {
		pk_emit_object(em, "postFilter");
		pk_emit_string(em, "gate", p->gate);
		pk_emit_string(em, "status", p->gate_message);
		pk_emit_end(em);
	}
	if (e->pre_enqueue)
		pk_pre_enqueue_emit(em, "preEnqueue", e);
	else if (e->status == PK_PRE_NOT_ELIGIBLE || e->status == PK_PRE_UNSCHEDULABLE)
		pk_diagnosis_emit(em, "diagnosis", e, NULL);
	pk_emit_item(em, "pod", p->object);
	if (pl)
		pk_placement_emit(em, "placement", pl);
	pk_emit_end(em);
}

cJSON *pk_preemptor_json(const pk_evaluation *e, const pk_placement *pl)
{
	pk_emit em;
	pk_emit_tree(&em);
	preemptor_emit(&em, e, pl);
	return pk_emit_tree_done(&em);
}

char *pk_preemptor_text(const pk_evaluation *e, const pk_placement *pl)
{
	pk_emit em;
	pk_emit_text(&em);
	preemptor_emit(&em, e, pl);
	return pk_emit_text_done(&em);
}

const pk_status *pk_node_status_of(const pk_evaluation *e, long i, const char **stage, const char **preemption)
{
	const pk_node_eval *ne = &e->nodes[i];
	*stage = *preemption = NULL;
	if (ne->candidate >= 0)
		return NULL;
	const pk_status *st = ne->dry ? ne->dry : ne->filter;
	*stage = ne->dry ? "DryRun" : "Filter";
	/* A node that failed the filters in a way preemption cannot fix is
	 * never dry-run: say so, as the FitError does. */
	if (!ne->dry && st->code == PK_CODE_UNSCHEDULABLE_UNRESOLVABLE && e->status != PK_PRE_FITS)
		*preemption = "Preemption is not helpful for scheduling";
	else if (!ne->dry && st->code == PK_CODE_UNSCHEDULABLE && e->status == PK_PRE_NEEDS_PREEMPTION)
		*preemption = "not evaluated (enough candidates found)";
	return st;
}

const char *pk_taint_text(const char *key, const char *value, const char *effect, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s:%s", key, value && *value ? "=" : "", value ? value : "", effect);
	return buf;
}

/* The taint TaintToleration stopped node i at, or NULL. */
static const pk_taint *node_taint(const pk_evaluation *e, long i)
{
	const pk_status *st = e->nodes[i].filter;
	if (!st || !st->plugin || strcmp(st->plugin, "TaintToleration") != 0)
		return NULL;
	return pk_untolerated_taint(e->preemptor->pod, e->nodes[i].ni->node);
}

const char *pk_node_taint_text(const pk_evaluation *e, long i, char *buf, size_t size)
{
	const pk_taint *t = node_taint(e, i);
	return t ? pk_taint_text(t->key, t->value, pk_taint_effect_name(t->effect), buf, size) : NULL;
}

/* The NodeStatus record of node i of e (st: pk_node_status_of's), into em. */
static void node_status_emit(pk_emit *em, const pk_evaluation *e, long i, const pk_status *st, const char *stage,
                             const char *preemption)
{
	char release[16];
	pk_emit_object(em, NULL);
	pk_emit_string(em, "kind", "NodeStatus");
	pk_emit_string(em, PK_K8S_VERSION_KEY, pk_k8s_version_text(e->k8s_minor, release, sizeof release));
	pod_ref_emit(em, "preemptor", e->preemptor->pod, false);
	pk_emit_string(em, "node", e->nodes[i].ni->node->name);
	pk_emit_string(em, "stage", stage);
	pk_emit_string(em, "code", pk_code_name(st->code));
	pk_emit_string(em, "plugin", st->plugin ? st->plugin : "");
	pk_emit_array(em, "reasons");
	for (int k = 0; k < st->nreasons; k++)
		pk_emit_string(em, NULL, st->reasons[k]);
	pk_emit_end(em);
	pk_emit_string(em, "preemption", preemption);
	const pk_taint *t = node_taint(e, i);
	if (t) {
		pk_emit_object(em, "untoleratedTaint");
		pk_emit_string(em, "key", t->key);
		pk_emit_string(em, "value", t->value);
		pk_emit_string(em, "effect", pk_taint_effect_name(t->effect));
		pk_emit_end(em);
	}
	pk_dra_detail_emit(em, e, i, st);
	pk_emit_end(em);
}

cJSON *pk_node_status_json(const pk_evaluation *e, long i)
{
	const char *stage, *preemption;
	const pk_status *st = pk_node_status_of(e, i, &stage, &preemption);
	if (!st)
		return NULL;
	pk_emit em;
	pk_emit_tree(&em);
	node_status_emit(&em, e, i, st, stage, preemption);
	return pk_emit_tree_done(&em);
}

char *pk_node_status_text(const pk_evaluation *e, long i)
{
	const char *stage, *preemption;
	const pk_status *st = pk_node_status_of(e, i, &stage, &preemption);
	if (!st)
		return NULL;
	pk_emit em;
	pk_emit_text(&em);
	node_status_emit(&em, e, i, st, stage, preemption);
	return pk_emit_text_done(&em);
}

void pk_node_groups_add(pk_node_groups *gs, const char *node, const char *stage, const char *code,
                        const char *plugin, const char *const *reasons, int nreasons, const char *preemption,
                        const char *taint, const char *detail)
{
	char what[700];
	size_t w = (size_t)snprintf(what, sizeof what, "%s: ", plugin && *plugin ? plugin : stage);
	for (int k = 0; k < nreasons && w < sizeof what; k++)
		w += (size_t)snprintf(what + w, sizeof what - w, "%s%s", k ? ", " : "", reasons[k]);
	if (w < sizeof what)
		snprintf(what + w, sizeof what - w, " (%s %s%s%s%s%s)", stage, code, preemption ? "; " : "",
		         preemption ? preemption : "", taint ? "; untolerated: " : "", taint ? taint : "");
	long j = 0;
	if (!detail)
		detail = "";
	while (j < gs->n && (strcmp(gs->g[j].what, what) != 0 || strcmp(gs->g[j].detail, detail) != 0))
		j++;
	if (j == gs->n) {
		gs->g = pk_xrealloc(gs->g, (size_t)gs->n + 1, sizeof *gs->g);
		memset(&gs->g[j], 0, sizeof *gs->g);
		snprintf(gs->g[j].what, sizeof gs->g[j].what, "%s", what);
		snprintf(gs->g[j].detail, sizeof gs->g[j].detail, "%s", detail);
		gs->n++;
	}
	pk_node_group *x = &gs->g[j];
	if ((gs->all_names || x->count < 3) && x->nodes_len + strlen(node) + 2 < sizeof x->nodes)
		x->nodes_len += (size_t)snprintf(x->nodes + x->nodes_len, sizeof x->nodes - x->nodes_len, "%s%s",
		                                 x->count ? "," : "", node);
	else
		x->more = true;
	x->count++;
}

void pk_node_groups_flush(pk_node_groups *gs, pk_node_group_row_fn fn, void *ctx)
{
	for (long j = 0; j < gs->n; j++) {
		char nodes[440], reason[2600];
		snprintf(nodes, sizeof nodes, "%s%s", gs->g[j].nodes, gs->g[j].more ? ",..." : "");
		snprintf(reason, sizeof reason, "%ld node(s): %s%s%s", gs->g[j].count, gs->g[j].what,
		         *gs->g[j].detail ? "; preemptkit's detail: " : "", gs->g[j].detail);
		fn(ctx, &gs->g[j], nodes, reason);
	}
	free(gs->g);
	gs->g = NULL;
	gs->n = 0;
}

const char *pk_fits_text(const char *const *nodes, int nshown, long n, char *buf, size_t size)
{
	size_t w = (size_t)snprintf(buf, size, "fits without preemption on %ld node(s)", n);
	for (int k = 0; k < nshown && w < size; k++)
		w += (size_t)snprintf(buf + w, size - w, "%s%s", k ? ", " : ": ", nodes[k]);
	if (n > nshown && w < size)
		snprintf(buf + w, size - w, ", ...");
	return buf;
}

void pk_preemptor_key(const cJSON *ref, char *buf, size_t size)
{
	const char *uid = pk_str_or(ref, "uid", "");
	if (*uid)
		snprintf(buf, size, "uid:%s", uid);
	else
		snprintf(buf, size, "%s/%s", pk_str_or(ref, "namespace", ""), pk_str_or(ref, "name", ""));
}

/* ---- placement ------------------------------------------------------------------- */

#define PK_PLACEMENT_RULE                                                                                          \
	"the highest weighted sum of the default score plugins; of equal sums the lowest node name (upstream "      \
	"picks one at random)"

void pk_placement_emit(pk_emit *e, const char *key, const pk_placement *pl)
{
	pk_emit_object(e, key);
	pk_emit_string(e, "node", pl->node ? pl->node->node->name : "");
	pk_emit_number(e, "score", (double)pl->score);
	pk_emit_number(e, "scoredNodes", (double)pl->nscored);
	pk_emit_number(e, "tiedNodes", (double)pl->ntop);
	pk_emit_bool(e, "tieBroken", pl->ntop > 1);
	pk_emit_string(e, "rule", PK_PLACEMENT_RULE);
	pk_emit_object(e, "plugins");
	for (int i = 0; i < PK_SCORE_NPLUGINS; i++) {
		pk_emit_object(e, pk_score_plugin_name(i));
		pk_emit_number(e, "score", pl->plugin[i]);
		pk_emit_number(e, "weight", pk_score_plugin_weight(i));
		pk_emit_end(e);
	}
	pk_emit_end(e);
	pk_emit_string(e, "assumes", pl->assumes);
	pk_emit_end(e);
}

static const char *describe(const char *node, int64_t score, long nscored, long ntop, char *buf, size_t size)
{
	int w = snprintf(buf, size, "placed on %s: score %lld, the highest of %ld node(s)", node, (long long)score,
	                 nscored);
	if (ntop > 1 && w > 0 && (size_t)w < size)
		snprintf(buf + w, size - (size_t)w, ", tied with %ld other(s): the lowest name taken (upstream: at random)",
		         ntop - 1);
	return buf;
}

const char *pk_placement_text(const pk_placement *pl, char *buf, size_t size)
{
	if (!pl->node) {
		snprintf(buf, size, "no node to place on");
		return buf;
	}
	return describe(pl->node->node->name, pl->score, pl->nscored, pl->ntop, buf, size);
}

const char *pk_placement_json_text(const cJSON *placement, char *buf, size_t size)
{
	const cJSON *node = cJSON_GetObjectItemCaseSensitive(placement, "node");
	const cJSON *score = cJSON_GetObjectItemCaseSensitive(placement, "score");
	const cJSON *scored = cJSON_GetObjectItemCaseSensitive(placement, "scoredNodes");
	const cJSON *tied = cJSON_GetObjectItemCaseSensitive(placement, "tiedNodes");
	if (!cJSON_IsString(node) || !*node->valuestring || !cJSON_IsNumber(score) || !cJSON_IsNumber(scored) ||
	    !cJSON_IsNumber(tied))
		return NULL;
	return describe(node->valuestring, (int64_t)score->valuedouble, (long)scored->valuedouble,
	                (long)tied->valuedouble, buf, size);
}
