/* The record callback: decode-level problems, kind dispatch, per-object rules,
 * and the facts the set-level rules need. */
#include "pcv.h"
#include "k8s/release.h"
#include "io/nonobject.h"
#include "base/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Workload-controller kinds whose pod template carries priority fields. */
static const struct {
	const char *api_version, *kind, *spec_path;
} pod_kinds[] = {
	{"v1", "Pod", "spec"},
	{"v1", "PodTemplate", "template.spec"},
	{"apps/v1", "Deployment", "spec.template.spec"},
	{"apps/v1", "StatefulSet", "spec.template.spec"},
	{"apps/v1", "DaemonSet", "spec.template.spec"},
	{"apps/v1", "ReplicaSet", "spec.template.spec"},
	{"v1", "ReplicationController", "spec.template.spec"},
	{"batch/v1", "Job", "spec.template.spec"},
	{"batch/v1", "CronJob", "spec.jobTemplate.spec.template.spec"},
};

static bool eq(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

const char *pcv_pod_spec_path(const char *api_version, const char *kind)
{
	for (size_t i = 0; i < sizeof pod_kinds / sizeof pod_kinds[0]; i++)
		if (eq(kind, pod_kinds[i].kind) && eq(api_version, pod_kinds[i].api_version))
			return pod_kinds[i].spec_path;
	return NULL;
}

static void split_api_version(const char *av, char *group, size_t gsize, const char **version)
{
	const char *slash = strchr(av, '/');
	if (slash) {
		snprintf(group, gsize, "%.*s", (int)(slash - av), av);
		*version = slash + 1;
	} else {
		group[0] = '\0';
		*version = av;
	}
}

/* ---- what the reader says about a document, held for its object ---- */

/* A warning given back: a duplicate key is a finding (of the object it is
 * in, when known), anything else a warning on stderr. */
static void held_warning(void *ctx, const pk_record *rec)
{
	pcv_ctx *c = ctx;
	if (rec->err_type != PK_ERR_DUPLICATE_FIELD) {
		pk_diag_report(&c->cli->diag, PK_SEV_WARNING, &rec->origin, "%s", rec->message ? rec->message : "");
		return;
	}
	char msg[1200];
	snprintf(msg, sizeof msg, "strict decoding error: duplicate field \"%s\"", rec->field ? rec->field : "");
	const pcv_obj *o = c->held_for;
	pcv_ident id = {0};
	if (o)
		id = (pcv_ident){(char *)o->api_version, (char *)o->kind, (char *)o->ns, (char *)o->name};
	pcv_add_finding(&c->findings, pcv_intern_file(&c->findings, rec->origin.file), rec->origin.line,
	                rec->origin.col, PK_SEV_ERROR, o ? &id : NULL, rec->field, PCV_DUPLICATE_FIELD, msg);
}

/* Give the held warnings back, as findings of o (NULL: no object). */
static void release_held_for(pcv_ctx *c, const pcv_obj *o)
{
	c->held_for = o;
	pk_held_release(&c->held, held_warning, c);
	c->held_for = NULL;
}

void pcv_release_held(pcv_ctx *c)
{
	release_held_for(c, NULL);
}

/* Go's name for a JSON value in "cannot unmarshal <type> into ...". */
static const char *go_json_type(const cJSON *v)
{
	return cJSON_IsArray(v) ? "array" : cJSON_IsString(v) ? "string" : cJSON_IsNumber(v) ? "number"
	       : cJSON_IsBool(v) ? "bool" : "object";
}

/* kubectl decodes every document into an object before anything else
 * (cli-runtime's mapper, apimachinery's unstructured decoder): a document
 * that is a sequence or a scalar fails there with this error. The reader
 * hands out a sequence's elements one by one; it is one finding per
 * document, at its first element. */
static void not_an_object(pcv_ctx *c, const pk_record *rec, int file, const char *go_type)
{
	if (rec->in_sequence) {
		go_type = "array";
		pk_stats_reject(&c->stats, "(top-level sequence)");
		if (file == c->seq_file && rec->origin.doc == c->seq_doc)
			return;
		c->seq_file = file;
		c->seq_doc = rec->origin.doc;
	} else {
		pk_stats_reject(&c->stats, "(not a mapping)");
	}
	char msg[1300];
	snprintf(msg, sizeof msg, "unable to decode \"%s\": json: cannot unmarshal %s into Go value of type "
	         "unstructured.detector", pk_strtab_str(c->findings.files, (uint32_t)file), go_type);
	pcv_finding *d = pcv_add_finding(&c->findings, file, rec->origin.line, rec->origin.col, PK_SEV_ERROR, NULL,
	                                 NULL, PCV_PARSE_ERROR, msg);
	pcv_set_rule(d, NULL, "notAnObject");
}

/* Existing objects (--cluster, --against) are a side input: unreadable
 * --cluster input is trouble; an old version that does not parse any more
 * is only said (it cannot be compared), and only for a file the inputs
 * replace. */
static void existing_problem(pcv_ctx *c, const pk_record *rec)
{
	pk_origin at = rec->origin;
	if (c->loading_name)
		at.file = c->loading_name;
	const char *what = rec->message ? rec->message : "cannot parse";
	if (c->against_soft) {
		/* said for the old version of a file being changed; a committed
		 * file that stays is none of this commit's business */
		if (rec->type == PK_REC_ERROR && c->against_replaced)
			pk_diag_report(&c->cli->diag, PK_SEV_WARNING, &at, "--against: %s (not compared)", what);
		return;
	}
	pk_diag_report(&c->cli->diag, PK_SEV_ERROR, &at, "--cluster: %s", what);
	if (rec->type == PK_REC_ERROR)
		c->trouble = true;
}

static void reader_problem(pcv_ctx *c, pk_record *rec, int file)
{
	if (rec->err_type == PK_ERR_IO) {
		pk_diag_report(&c->cli->diag, PK_SEV_ERROR, &rec->origin, "%s", rec->message ? rec->message : "I/O error");
		c->trouble = true;
		return;
	}
	if (c->loading_cluster) {
		existing_problem(c, rec);
		return;
	}
	if (rec->type == PK_REC_WARNING) {
		pk_held_add(&c->held, rec, held_warning, c);
		return;
	}
	/* the document failed: what was held for it is said as it is */
	pcv_release_held(c);
	if (rec->obj) {
		c->stats.read++;
		not_an_object(c, rec, file, go_json_type(rec->obj));
		return;
	}
	pcv_type t = rec->err_type == PK_ERR_DUPLICATE_FIELD ? PCV_DUPLICATE_FIELD
	             : rec->err_type == PK_ERR_TYPE          ? PCV_TYPE_ERROR
	                                                     : PCV_PARSE_ERROR;
	pcv_add_finding(&c->findings, file, rec->origin.line, rec->origin.col, PK_SEV_ERROR, NULL, NULL, t,
	                rec->message ? rec->message : "cannot parse");
	c->stats.errors++;
}

/* kind / apiVersion present and strings; MissingKind otherwise. */
static bool check_type_meta(pcv_obj *o)
{
	const cJSON *k = pk_get(o->root, "kind"), *av = pk_get(o->root, "apiVersion");
	bool ok = true;
	if (k && !cJSON_IsString(k) && !cJSON_IsNull(k)) {
		pcv_report(o, PK_SEV_ERROR, PCV_TYPE_ERROR, "kind", "json: cannot unmarshal %s into Go struct field TypeMeta.kind of type string",
		           cJSON_IsNumber(k) ? "number" : cJSON_IsBool(k) ? "bool" : "object");
		ok = false;
	} else if (!*o->kind) {
		pcv_report(o, PK_SEV_ERROR, PCV_MISSING_KIND, "kind", "Object 'Kind' is missing: kind not set");
		ok = false;
	}
	if (av && !cJSON_IsString(av) && !cJSON_IsNull(av)) {
		pcv_report(o, PK_SEV_ERROR, PCV_TYPE_ERROR, "apiVersion",
		           "json: cannot unmarshal %s into Go struct field TypeMeta.apiVersion of type string",
		           cJSON_IsNumber(av) ? "number" : cJSON_IsBool(av) ? "bool" : "object");
		ok = false;
	} else if (!*o->api_version) {
		pcv_report(o, PK_SEV_ERROR, PCV_MISSING_KIND, "apiVersion", "Object 'apiVersion' is missing: apiVersion not set");
		ok = false;
	}
	return ok;
}

/* A known kind in a version the apiserver does not serve (removed, or not
 * yet): kubectl's "no matches for kind", and the field to fix is apiVersion.
 * For the kinds whose versions differ by release, the versions the release
 * answered for does serve are said too. */
/* resource.k8s.io/v1beta1 and v1beta2: beta group versions a default
 * apiserver does not serve (release.c). */
static bool beta_off_by_default(const pcv_obj *o)
{
	return eq(o->group, "resource.k8s.io") && (eq(o->version, "v1beta1") || eq(o->version, "v1beta2"));
}

static void unknown_version(pcv_obj *o)
{
	int minor = o->ctx->cli->engine.release.minor;
	char list[256];
	pk_release_served_list(minor, o->group, o->kind, list, sizeof list);
	if (!pk_release_knows_kind(o->group, o->kind))
		pcv_report(o, PK_SEV_ERROR, PCV_UNKNOWN_KIND, "apiVersion", "no matches for kind \"%s\" in version \"%s\"",
		           o->kind, o->api_version);
	else
		pcv_report(o, PK_SEV_ERROR, PCV_UNKNOWN_KIND, "apiVersion",
		           "no matches for kind \"%s\" in version \"%s\" (Kubernetes 1.%d serves %s%s)", o->kind,
		           o->api_version, minor, *list ? list : "no version of it",
		           beta_off_by_default(o)                                  ? "; its beta versions only when --runtime-config enables them"
		           : eq(o->kind, "DeviceTaintRule") && eq(o->version, "v1alpha3") /* 1.35's, off by default */
		                   ? "; its alpha version only when --runtime-config enables it"
		                   : "");
}

static bool dispatch_scheduling(pcv_obj *o)
{
	const char *v = o->version, *k = o->kind;
	if (!pk_release_knows_kind(o->group, k))
		return false;  /* not ours */
	if (!pk_release_serves(o->ctx->cli->engine.release.minor, o->group, k, v)) {
		unknown_version(o);
		return true;
	}
	/* a value that cannot be decoded stops the request before validation */
	if (pcv_schema_check(o), o->type_errors)
		return true;
	if (eq(k, "PriorityClass")) {
		pcv_rules_priorityclass(o);
		pcv_cross_priorityclass(o);
	} else if (eq(k, "CompositePodGroup")) {
		pcv_rules_composite_podgroup(o);
		pcv_update_rules(o);
	} else {
		if (eq(k, "PodGroup"))
			pcv_rules_podgroup(o);
		else if (eq(v, "v1alpha1"))
			pcv_rules_workload_v1alpha1(o);
		else
			pcv_rules_workload(o);
		pcv_update_rules(o);
	}
	return true;
}

/* A pod kind in its own group (or, for the apps kinds, in extensions, which
 * served them until 1.16) but another version: apps/v1beta2 Deployment,
 * batch/v1beta1 CronJob (removed in 1.25). A kind of that name in another
 * group (batch.volcano.sh Job) is someone else's. */
static bool removed_pod_kind_version(const pcv_obj *o, const char *api_version)
{
	size_t glen = strcspn(api_version, "/");
	const char *own = api_version[glen] ? api_version : "";
	if (!api_version[glen])
		glen = 0;
	if (strlen(o->group) == glen && strncmp(o->group, own, glen) == 0)
		return true;
	return eq(o->group, "extensions") &&
	       (eq(o->kind, "Deployment") || eq(o->kind, "DaemonSet") || eq(o->kind, "ReplicaSet"));
}

/* resource.k8s.io: the DRA kinds a user writes (DeviceTaintRule too). ResourceSlices,
 * which drivers publish, are not validated (skipped like any other kind),
 * but a version the release does not serve is said for them too. */
static bool dispatch_resource(pcv_obj *o)
{
	if (!pk_release_knows_kind(o->group, o->kind))
		return false;
	if (!pk_release_serves(o->ctx->cli->engine.release.minor, o->group, o->kind, o->version)) {
		unknown_version(o);
		return true;
	}
	if (eq(o->kind, "ResourceSlice"))
		return false;
	if (pcv_schema_check(o), o->type_errors)
		return true;
	pcv_rules_dra(o);
	return true;
}

static bool dispatch(pcv_obj *o)
{
	if (eq(o->group, "scheduling.k8s.io"))
		return dispatch_scheduling(o);
	if (eq(o->group, "resource.k8s.io"))
		return dispatch_resource(o);
	for (size_t i = 0; i < sizeof pod_kinds / sizeof pod_kinds[0]; i++) {
		if (!eq(o->kind, pod_kinds[i].kind))
			continue;
		if (eq(o->api_version, pod_kinds[i].api_version)) {
			pcv_rules_podspec(o, pod_kinds[i].spec_path, eq(o->kind, "Pod"));
			if (eq(o->kind, "Pod") && !o->type_errors)
				pcv_update_rules(o);
			return true;
		}
		if (removed_pod_kind_version(o, pod_kinds[i].api_version)) {
			unknown_version(o);
			return true;
		}
	}
	return false;
}

static void check_object(pcv_ctx *c, pk_record *rec, int file)
{
	const cJSON *obj = rec->obj;
	c->stats.read++;
	if (rec->in_sequence || !cJSON_IsObject(obj) || !pk_held_for(&c->held, rec))
		pcv_release_held(c);
	if (rec->in_sequence || !cJSON_IsObject(obj)) {
		not_an_object(c, rec, file, go_json_type(obj));
		return;
	}
	const char *other = pk_nonobject_document(obj);
	if (other) {
		/* config YAML, a values file: not an object, not a finding;
		 * what the reader said about it (a duplicate key) goes too */
		pk_held_drop(&c->held);
		pk_stats_skip(&c->stats, "(no apiVersion, no kind)");
		c->skipped_docs++;
		if (!c->staged)
			pk_diag_report(&c->cli->diag, PK_SEV_NOTE, &rec->origin, "skipped: %s", other);
		return;
	}
	pcv_obj o = {.ctx = c, .rec = rec, .root = obj, .file = file};
	o.api_version = pk_api_version(obj);
	o.kind = pk_kind(obj);
	o.ns = pk_namespace(obj);
	o.name = pk_name(obj);
	char group[256];
	split_api_version(o.api_version, group, sizeof group, &o.version);
	o.group = group;
	release_held_for(c, &o);

	if (!check_type_meta(&o)) {
		c->objects_checked++;
		pk_stats_reject(&c->stats, *o.kind ? o.kind : "(no kind)");
		return;
	}
	pcv_cross_lookup(&o);
	if (dispatch(&o)) {
		c->objects_checked++;
		c->stats.used++;
		pcv_cross_definition(&o);
	} else {
		pk_stats_skip(&c->stats, o.kind);
	}
}

/* An input on disk that a kustomization applies as a patch: its records
 * are dropped, the file said once (skip_file's note). */
static bool input_is_patch(pcv_ctx *c, const char *file)
{
	if (c->staged || !file)
		return false;  /* --staged: decided where the index is read */
	if (c->patch_file && strcmp(c->patch_file, file) == 0)
		return c->patch_by != NULL;
	free(c->patch_file);
	c->patch_file = pk_xstrdup(file);
	c->patch_by = pk_kpatches_find_file(&c->kpatches, file);
	if (c->patch_by)
		pcv_skip_file(c, file, PK_NONOBJECT_KPATCH, c->patch_by);
	return c->patch_by != NULL;
}

int pcv_on_record(void *ctx, pk_record *rec)
{
	pcv_ctx *c = ctx;
	if (c->loading_cluster) {
		if (rec->type != PK_REC_OBJECT) {
			reader_problem(c, rec, 0);
			return 0;
		}
		if (cJSON_IsObject(rec->obj)) {
			if (c->against_local && !c->against_replaced)
				pcv_cross_committed_refs(c, rec);
			pcv_cross_add_cluster(c, rec->obj, &rec->origin);
			rec->obj = NULL;  /* taken */
		}
		return 0;
	}
	if (rec->err_type != PK_ERR_IO && input_is_patch(c, rec->origin.file))
		return 0;
	int file = pcv_intern_file(&c->findings, rec->origin.file);
	c->records_in_file++;
	if (rec->type != PK_REC_OBJECT)
		reader_problem(c, rec, file);
	else
		check_object(c, rec, file);
	return 0;
}

void pcv_skip_file(pcv_ctx *c, const char *file, const char *why, const char *by)
{
	if (c->loading_cluster)
		return;  /* an existing file of another kind: nothing to compare */
	char note[1600], reason[200];
	snprintf(reason, sizeof reason, "(%s)", why);
	pk_stats_skip(&c->stats, reason);
	c->skipped_files++;
	c->records_in_file++;  /* accounted for: not a file without documents */
	c->skipped_renderable |= pk_nonobject_renders(why);
	if (c->staged)
		return;  /* the hook's run: counted, said once at the end */
	pk_nonobject_note(why, file, by, c->cli->prog, note, sizeof note);
	pk_origin at = {.file = file};
	pk_diag_report(&c->cli->diag, PK_SEV_NOTE, &at, "%s", note);
}

void pcv_on_skip_file(void *ctx, const char *file, const char *why)
{
	pcv_skip_file(ctx, file, why, NULL);
}

void pcv_on_file_done(void *ctx, const char *file)
{
	pcv_ctx *c = ctx;
	(void)file;
	if (c->loading_cluster)
		return;
	pcv_release_held(c);
	c->files++;
	if (c->records_in_file == 0)
		c->empty_files++;
	c->records_in_file = 0;
}
