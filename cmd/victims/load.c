/* victims: reading the cluster snapshot and the preemptors. */
#include "victims.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/json.h"

static void push_preemptor(victims_run *r, const pk_preemptor *p)
{
	if (r->npreemptors == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 8;
		r->preemptors = realloc(r->preemptors, sizeof *r->preemptors * (size_t)r->cap);
		if (!r->preemptors)
			abort();
	}
	r->preemptors[r->npreemptors++] = *p;
}

/* ---- cluster input ---------------------------------------------------------- */

static int on_cluster_record(void *ctx, pk_record *rec)
{
	victims_run *r = ctx;
	if (!pk_cli_accept_record(r->cli, &r->stats, rec, &r->trouble))
		return 0;
	char err[512];
	bool take = false;
	const char *kind = pk_kind(rec->obj);
	switch (pk_snapshot_add(&r->snap, rec->obj, r->stats.read - 1, &take, err, sizeof err)) {
	case PK_ADD_USED:
		r->stats.used++;
		if (take)
			rec->obj = NULL; /* the snapshot keeps this pending pod's object */
		break;
	case PK_ADD_SKIPPED:
		pk_stats_skip(&r->stats, kind);
		break;
	case PK_ADD_REJECTED:
		pk_stats_reject(&r->stats, kind);
		pk_diag_report(&r->cli->diag, PK_SEV_WARNING, &rec->origin, "%s %s/%s rejected: %s", kind,
		               pk_namespace(rec->obj), pk_name(rec->obj), err);
		break;
	}
	return 0;
}

/* ---- preemptor files ------------------------------------------------------- */

typedef struct preemptor_ctx {
	victims_run *r;
	const char *file;
} preemptor_ctx;

/* The pod template of a workload, or NULL. */
static const cJSON *pod_template(const cJSON *obj, const char *kind)
{
	static const char *const with_template[] = {
		"Deployment", "StatefulSet", "ReplicaSet", "Job", "DaemonSet", "ReplicationController",
	};
	for (size_t i = 0; i < sizeof with_template / sizeof with_template[0]; i++)
		if (strcmp(kind, with_template[i]) == 0)
			return pk_getp(obj, "spec.template");
	if (strcmp(kind, "CronJob") == 0)
		return pk_getp(obj, "spec.jobTemplate.spec.template");
	return NULL;
}

/* A Pod object built from a workload's template: the workload's name and
 * namespace, the template's labels and spec. */
static cJSON *pod_from_template(const cJSON *workload, const cJSON *tmpl)
{
	cJSON *pod = cJSON_CreateObject();
	cJSON_AddStringToObject(pod, "apiVersion", "v1");
	cJSON_AddStringToObject(pod, "kind", "Pod");
	cJSON *meta = cJSON_AddObjectToObject(pod, "metadata");
	cJSON_AddStringToObject(meta, "name", pk_name(workload));
	if (*pk_namespace(workload))
		cJSON_AddStringToObject(meta, "namespace", pk_namespace(workload));
	const cJSON *labels = pk_getp(tmpl, "metadata.labels");
	if (labels)
		cJSON_AddItemToObject(meta, "labels", cJSON_Duplicate(labels, 1));
	const cJSON *spec = pk_get(tmpl, "spec");
	cJSON_AddItemToObject(pod, "spec", spec ? cJSON_Duplicate(spec, 1) : cJSON_CreateObject());
	return pod;
}

/* A manifest has no metadata.uid yet; the apiserver would assign one. The
 * plan's API calls are keyed by uid, so give the preemptor a stable one
 * derived from its namespace and name (FNV-1a, shaped like a UUID). */
static const char *made_up_uid(victims_run *r, const pk_pod *p)
{
	uint64_t h1 = 1469598103934665603ull, h2 = 0x9e3779b97f4a7c15ull;
	char key[600];
	snprintf(key, sizeof key, "%s/%s", p->namespace_, p->name);
	for (const char *c = key; *c; c++) {
		h1 = (h1 ^ (unsigned char)*c) * 1099511628211ull;
		h2 = (h2 ^ (unsigned char)*c) * 0x100000001b3ull + 7;
	}
	char uid[40];
	snprintf(uid, sizeof uid, "%08x-%04x-4%03x-8%03x-%012llx", (unsigned)(h1 >> 32), (unsigned)(h1 >> 16) & 0xffff,
	         (unsigned)h1 & 0xfff, (unsigned)(h2 >> 52) & 0xfff, (unsigned long long)(h2 & 0xffffffffffffull));
	return pk_intern(r->snap.strs, uid);
}

static int on_preemptor_record(void *ctx, pk_record *rec)
{
	preemptor_ctx *pc = ctx;
	victims_run *r = pc->r;
	if (pk_cli_report_record_problem(r->cli, rec)) {
		r->trouble++;
		return 0;
	}
	if (rec->type != PK_REC_OBJECT)
		return 0;
	const char *kind = pk_kind(rec->obj);
	cJSON *pod;
	if (strcmp(kind, "Pod") == 0) {
		pod = rec->obj;
		rec->obj = NULL;
	} else {
		const cJSON *tmpl = pod_template(rec->obj, kind);
		if (!tmpl) {
			pk_diag_report(&r->cli->diag, PK_SEV_ERROR, &rec->origin,
			               "--preemptor: a %s is neither a Pod nor a workload with a pod template",
			               *kind ? kind : "object without kind");
			r->trouble++;
			return 0;
		}
		pod = pod_from_template(rec->obj, tmpl);
	}
	pk_preemptor p = { .object = pod, .source = pk_intern(r->snap.strs, *kind ? kind : "Pod"),
	                   .file = pc->file };
	p.pod = pk_arena_alloc(&r->snap.arena, sizeof *p.pod);
	char err[512];
	if (pk_pod_decode(&r->snap.dec, pod, p.pod, err, sizeof err) < 0) {
		pk_diag_report(&r->cli->diag, PK_SEV_ERROR, &rec->origin, "--preemptor: %s", err);
		pk_pod_release(p.pod);
		cJSON_Delete(pod);
		r->trouble++;
		return 0;
	}
	p.pod->index = -1;
	if (!*p.pod->uid)
		p.pod->uid = made_up_uid(r, p.pod);
	push_preemptor(r, &p);
	return 0;
}

/* Priority and preemptionPolicy as admission sets them, now that every
 * PriorityClass of the input is known. */
static void resolve_preemptor(victims_run *r, pk_preemptor *p)
{
	pk_resolved_priority rp = pk_resolve_priority(&r->snap.classes, pk_get(p->object, "spec"));
	p->pod->priority = rp.value;
	p->pod->policy = rp.policy;
	p->class_missing = rp.class_missing && !rp.from_spec;
	if (!*p->pod->class_name && *rp.class_name)
		p->pod->class_name = pk_intern(r->snap.strs, rp.class_name);
}

static void add_pending(victims_run *r)
{
	pk_pod **pending;
	long n = pk_snapshot_pending(&r->snap, &pending);
	for (long i = 0; i < n; i++) {
		pk_preemptor p = { .pod = pending[i], .source = "Pod", .file = NULL };
		if (r->snap.pending_objects)
			p.object = r->snap.pending_objects[pending[i]->index];
		push_preemptor(r, &p);
	}
	free(pending);
}

int victims_load(victims_run *r, char **paths, int npaths)
{
	pk_snapshot_init(&r->snap);
	r->snap.keep_pending_objects = r->opts->pending;
	for (int i = 0; i < r->opts->npreemptor_files; i++) {
		preemptor_ctx pc = { r, r->opts->preemptor_files[i] };
		char *one[1] = { r->opts->preemptor_files[i] };
		long before = r->npreemptors;
		if (pk_read_paths(&r->cli->reader, one, 1, on_preemptor_record, &pc) < 0)
			return -1;
		if (r->npreemptors == before && !r->trouble) {
			pk_diag_report(&r->cli->diag, PK_SEV_ERROR, NULL, "%s: no pod or workload in --preemptor file",
			               one[0]);
			return -1;
		}
	}
	pk_reader_opts cluster_reader = r->cli->reader;
	cluster_reader.prune = pk_snapshot_unused_members;
	if (pk_read_paths(&cluster_reader, paths, (size_t)npaths, on_cluster_record, r) < 0)
		return -1;
	pk_snapshot_finish(&r->snap);
	for (long i = 0; i < r->npreemptors; i++)
		resolve_preemptor(r, &r->preemptors[i]);
	if (r->snap.duplicates)
		pk_diag_report(&r->cli->diag, PK_SEV_WARNING, NULL,
		               "%ld Node/Pod objects were read more than once; the last one read of each is used",
		               r->snap.duplicates);
	if (r->stats.read == 0)
		pk_diag_report(&r->cli->diag, PK_SEV_WARNING, NULL, "no objects in the input");
	else if (r->snap.nnodes == 0)
		pk_diag_report(&r->cli->diag, PK_SEV_WARNING, NULL, "no Node objects in the input");
	if (r->opts->pending) {
		long before = r->npreemptors;
		add_pending(r);
		if (r->npreemptors == before)
			pk_diag_report(&r->cli->diag, PK_SEV_WARNING, NULL, "--pending: no pending pods in the input");
	}
	return 0;
}

void victims_free(victims_run *r)
{
	for (long i = 0; i < r->npreemptors; i++) {
		pk_preemptor *p = &r->preemptors[i];
		if (p->pod->index < 0) { /* from --preemptor: owned here */
			pk_pod_release(p->pod);
			cJSON_Delete(p->object);
		}
	}
	free(r->preemptors);
	pk_snapshot_free(&r->snap);
}
