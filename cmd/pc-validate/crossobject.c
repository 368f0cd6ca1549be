/* Set-level rules: facts are collected while streaming (never whole trees of
 * the inputs), checked with hash lookups so 10,000 manifests stay linear.
 * Only --cluster objects keep their trees, for the update rules. */
#include "pcv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

/* Room for one more element in an array of n (capacity *cap). */
static bool room_for_one(void **v, size_t n, size_t *cap, size_t size)
{
	*v = pk_grow(*v, cap, n + 1, size); /* out of memory ends the run */
	return true;
}

static void free_json(void *p)
{
	cJSON_Delete(p);
}

void pcv_cross_init(pcv_ctx *c)
{
	pk_pclass_set_init(&c->classes);
	pk_strmap_init(&c->pcfacts);
	pk_strmap_init(&c->workloads);
	pk_strmap_init(&c->cluster_objs);
	pk_strmap_init(&c->seen_inputs);
	c->defaults = NULL;
	c->ndefaults = c->capdefaults = 0;
	c->refs = NULL;
	c->nrefs = c->caprefs = 0;
}

static void free_pcfact(void *p)
{
	pcv_pcfact *f = p;
	free(f->at.file);
	free(f);
}

void pcv_cross_free(pcv_ctx *c)
{
	pk_pclass_set_free(&c->classes);
	pk_strmap_free(&c->pcfacts, free_pcfact);
	pk_strmap_free(&c->workloads, free);
	pk_strmap_free(&c->cluster_objs, free_json);
	pk_strmap_free(&c->seen_inputs, free);
	for (size_t i = 0; i < c->ndefaults; i++)
		free(c->defaults[i]);
	free(c->defaults);
	for (size_t i = 0; i < c->nrefs; i++) {
		pcv_ident_free(&c->refs[i].obj);
		free(c->refs[i].field);
		free(c->refs[i].target);
		free(c->refs[i].target2);
		free(c->refs[i].ns);
	}
	free(c->refs);
	for (size_t i = 0; i < c->ncrefs; i++) {
		pcv_ident_free(&c->crefs[i].obj);
		free(c->crefs[i].target);
		free(c->crefs[i].file);
		free(c->crefs[i].field);
	}
	free(c->crefs);
}

static const char *group_of(const char *api_version)
{
	const char *slash = strchr(api_version, '/');
	return slash ? api_version : "";
}

/* group is compared without the version: "scheduling.k8s.io/v1alpha3" ->
 * "scheduling.k8s.io". */
char *pcv_identity_key(const char *group, const char *kind, const char *ns, const char *name)
{
	size_t glen = strcspn(group, "/");
	size_t n = glen + strlen(kind) + strlen(ns) + strlen(name) + 4;
	char *k = pk_xmalloc(n);
	if (k)
		snprintf(k, n, "%.*s/%s/%s/%s", (int)glen, group, kind, ns, name);
	return k;
}

static bool namespaced_kind(const char *kind)
{
	return strcmp(kind, "PriorityClass") != 0 && strcmp(kind, "DeviceClass") != 0 &&
	       strcmp(kind, "DeviceTaintRule") != 0;
}

static char *obj_key(const cJSON *obj)
{
	const char *kind = pk_kind(obj);
	const char *ns = namespaced_kind(kind) ? pk_namespace(obj) : "";
	if (namespaced_kind(kind) && !*ns)
		ns = "default";
	return pcv_identity_key(group_of(pk_api_version(obj)), kind, ns, pk_name(obj));
}

/* ---- PriorityClass facts and the one-default rule ---- */

static pk_preemption_policy policy_of(const cJSON *pc)
{
	pk_preemption_policy p = PK_PREEMPT_LOWER;
	const char *s = pk_str(pc, "preemptionPolicy");
	if (s)
		pk_parse_preemption_policy(s, &p);
	return p;
}

static int32_t value_of(const cJSON *pc)
{
	int64_t v = 0;
	if (!pk_int64(pc, "value", &v) || v < INT32_MIN || v > INT32_MAX)
		v = 0;
	return (int32_t)v;
}

static const char *other_default(const pcv_ctx *c, const char *name)
{
	for (size_t i = 0; i < c->ndefaults; i++)
		if (strcmp(c->defaults[i], name) != 0)
			return c->defaults[i];
	return NULL;
}

static void set_default(pcv_ctx *c, const char *name, bool on)
{
	for (size_t i = 0; i < c->ndefaults; i++) {
		if (strcmp(c->defaults[i], name) != 0)
			continue;
		if (!on) {
			free(c->defaults[i]);
			c->defaults[i] = c->defaults[--c->ndefaults];
		}
		return;
	}
	if (!on)
		return;
	c->defaults = pk_grow(c->defaults, &c->capdefaults, c->ndefaults + 1, sizeof *c->defaults);
	c->defaults[c->ndefaults++] = pk_xstrdup(name);
}

static void record_pclass(pcv_ctx *c, const cJSON *pc, bool existing, bool allow_default, const pcv_place *at)
{
	const char *name = pk_name(pc);
	if (!*name)
		return;
	pcv_pcfact *f = pk_strmap_get(&c->pcfacts, name);
	if (!f) {
		f = pk_xcalloc(1, sizeof *f);
		if (pk_strmap_put(&c->pcfacts, name, f) == f) {
			free(f);
			return;
		}
	}
	f->value = value_of(pc);
	f->global_default = allow_default && pk_bool(pc, "globalDefault");
	f->policy = policy_of(pc);
	f->existing = existing;
	f->replaced = false;
	free(f->at.file);
	f->at = (pcv_place){ at->file ? pk_xstrdup(at->file) : NULL, at->line, at->col, NULL };
	set_default(c, name, f->global_default);
	pk_pclass_set_add(&c->classes, pc);
}

/* "in.yaml:3:1", or "HEAD:deploy/classes.yaml:3:1" for --against */
static void format_place(const pcv_place *p, char *buf, size_t size)
{
	if (p->line > 0 && p->col > 0)
		snprintf(buf, size, "%s:%ld:%ld", p->file ? p->file : "-", p->line, p->col);
	else if (p->line > 0)
		snprintf(buf, size, "%s:%ld", p->file ? p->file : "-", p->line);
	else
		snprintf(buf, size, "%s", p->file ? p->file : "-");
}

/* Where an input object starts (its fields would cost a scan of JSON text). */
static pcv_place input_place(const pcv_obj *o)
{
	return (pcv_place){ (char *)pk_strtab_str(o->ctx->findings.files, (uint32_t)o->file), o->rec->origin.line, o->rec->origin.col, NULL };
}

/* Update rules apply against an existing object only (--cluster, --against):
 * a second definition among the inputs is reported by pcv_cross_definition. */
static void priorityclass_update(pcv_obj *o, const pcv_pcfact *old)
{
	pcv_finding *d;
	if (value_of(o->root) != old->value) {
		d = pcv_forbidden(o, "value", "may not be changed in an update.");
		pcv_set_rule(d, "value", "immutable");
		pcv_set_related(d, old->at.file, old->at.line, old->at.col, "existing object");
	}
	pk_preemption_policy np = policy_of(o->root);
	if (np != old->policy) {
		d = pcv_invalid_str(o, "preemptionPolicy", pk_preemption_policy_name(np), "field is immutable");
		pcv_set_rule(d, "preemptionPolicy", "immutable");
		pcv_set_related(d, old->at.file, old->at.line, old->at.col, "existing object");
	}
}

/* AD-01: the message is admission's; where the other default is defined
 * goes after it, and into the finding's related place. */
static bool check_one_default(pcv_obj *o)
{
	pcv_ctx *c = o->ctx;
	const char *other = other_default(c, o->name);
	if (!other)
		return true;
	const pcv_pcfact *f = pk_strmap_get(&c->pcfacts, other);
	char where[1200] = "", msg[1600];
	if (f && f->at.file)
		format_place(&f->at, where, sizeof where);
	if (*where)
		snprintf(msg, sizeof msg,
		         "PriorityClass %s is already marked as default. Only one default can exist (%s %s at %s)", other,
		         other, f->existing ? "exists" : "is defined", where);
	else
		snprintf(msg, sizeof msg, "PriorityClass %s is already marked as default. Only one default can exist",
		         other);
	pk_origin at = pk_record_path_origin(o->rec, "globalDefault");
	pcv_ident id = {(char *)o->api_version, (char *)o->kind, NULL, (char *)o->name};
	pcv_finding *d = pcv_add_finding(&c->findings, o->file, at.line, at.col, PK_SEV_ERROR, &id, NULL, PCV_FORBIDDEN,
	                                 msg);
	pcv_set_rule(d, "globalDefault", "onlyOneDefault");
	if (f)
		pcv_set_related(d, f->at.file, f->at.line, f->at.col, "the default");
	return false;
}

void pcv_cross_priorityclass(pcv_obj *o)
{
	pcv_ctx *c = o->ctx;
	const char *name = o->name;
	if (!name || !*name)
		return;  /* generateName: a new object, no identity to compare */
	long before = c->findings.seq;  /* counts findings over --max-findings too */
	pcv_pcfact *old = pk_strmap_get(&c->pcfacts, name);
	if (old)
		old->replaced = false;  /* an input defines it: it stays */
	if (old && !old->existing)
		old = NULL;
	if (old)
		priorityclass_update(o, old);
	bool default_ok = !pk_bool(o->root, "globalDefault") || check_one_default(o);
	/* A rejected update does not change what exists. */
	if (c->findings.seq == before || !old) {
		pcv_place at = input_place(o);
		record_pclass(c, o->root, false, default_ok, &at);
	}
}

/* ---- Workloads ---- */

static char *workload_key(const char *ns, const char *name)
{
	size_t n = strlen(ns) + strlen(name) + 2;
	char *k = pk_xmalloc(n);
	snprintf(k, n, "%s/%s", ns, name);
	return k;
}

/* The value is a state byte ('L' live, 'T' terminating) followed by the
 * template names, each '\0'-terminated, and a final '\0'. */
static void store_workload(pcv_ctx *c, const char *ns, const char *name, bool terminating, const char *names,
                           size_t len)
{
	char *key = workload_key(*ns ? ns : "default", name);
	char *copy = pk_xmalloc(len + 3);
	copy[0] = terminating ? 'T' : 'L';
	memcpy(copy + 1, names, len);
	copy[len + 1] = copy[len + 2] = '\0';
	void *prev = pk_strmap_put(&c->workloads, key, copy);
	if (prev == copy)
		free(copy);
	else
		free(prev);
	free(key);
}

void pcv_cross_workload(pcv_obj *o, const char *names, size_t len)
{
	if (o->name && *o->name)
		store_workload(o->ctx, o->ns ? o->ns : "", o->name, false, names, len);
}

/* Template names of a Workload tree ("\0"-separated). */
static void collect_names(const cJSON *list, char **buf, size_t *len, size_t *cap)
{
	for (const cJSON *t = cJSON_IsArray(list) ? list->child : NULL; t; t = t->next) {
		const char *n = pk_str(t, "name");
		if (n && *n && !pk_get(t, "podGroupTemplates") && !pk_get(t, "compositePodGroupTemplates")) {
			size_t l = strlen(n) + 1;
			*buf = pk_grow(*buf, cap, *len + l + 1, 1);
			memcpy(*buf + *len, n, l);
			*len += l;
		}
		collect_names(pk_get(t, "podGroupTemplates"), buf, len, cap);
		collect_names(pk_get(t, "compositePodGroupTemplates"), buf, len, cap);
	}
}

void pcv_cross_add_cluster(pcv_ctx *c, cJSON *obj, const pk_origin *at)
{
	const char *kind = pk_kind(obj);
	if (strcmp(kind, "PriorityClass") == 0) {
		pcv_place where = { (char *)(c->loading_name ? c->loading_name : at->file), at->line, at->col, NULL };
		/* a class in a replaced file counts as a default only if an
		 * input says so again */
		record_pclass(c, obj, true, !c->against_replaced, &where);
		pcv_pcfact *f = pk_strmap_get(&c->pcfacts, pk_name(obj));
		if (f && c->against_replaced)
			f->replaced = true;
	}
	if (strcmp(kind, "Workload") == 0) {
		char *buf = NULL;
		size_t len = 0, cap = 0;
		const cJSON *spec = pk_get(obj, "spec");
		collect_names(pk_get(spec, "podGroups"), &buf, &len, &cap);
		collect_names(pk_get(spec, "podGroupTemplates"), &buf, &len, &cap);
		collect_names(pk_get(spec, "compositePodGroupTemplates"), &buf, &len, &cap);
		bool terminating = pk_str(pk_get(obj, "metadata"), "deletionTimestamp") != NULL;
		store_workload(c, pk_namespace(obj), pk_name(obj), terminating, buf ? buf : "", len);
		free(buf);
	}
	if (strcmp(kind, "Pod") == 0) {
		/* keep only what the pod-update rule compares: a cluster dump
		 * of every pod should not be held whole */
		cJSON *spec = cJSON_GetObjectItemCaseSensitive(obj, "spec");
		for (cJSON *f = spec ? spec->child : NULL; f;) {
			cJSON *next = f->next;
			if (!f->string || (strcmp(f->string, "priorityClassName") != 0 && strcmp(f->string, "priority") != 0 &&
			                   strcmp(f->string, "preemptionPolicy") != 0))
				cJSON_Delete(cJSON_DetachItemViaPointer(spec, f));
			f = next;
		}
		cJSON_DeleteItemFromObjectCaseSensitive(obj, "status");
	} else if (strcmp(kind, "PriorityClass") != 0 && strcmp(kind, "Workload") != 0 && strcmp(kind, "PodGroup") != 0 &&
	           strcmp(kind, "CompositePodGroup") != 0 && strcmp(kind, "ResourceClaim") != 0 &&
	           strcmp(kind, "ResourceClaimTemplate") != 0 && strcmp(kind, "DeviceClass") != 0 &&
	           strcmp(kind, "DeviceTaintRule") != 0) {
		cJSON_Delete(obj);  /* nothing of other kinds is needed */
		return;
	}
	char *key = obj_key(obj);
	if (!key) {
		cJSON_Delete(obj);
		return;
	}
	void *prev = pk_strmap_put(&c->cluster_objs, key, obj);
	if (prev == obj)
		cJSON_Delete(obj);
	else if (prev)
		cJSON_Delete(prev);
	free(key);
}

/* ---- --against: classes this change deletes ---- */

static void add_committed_ref(pcv_ctx *c, const pk_record *rec, const char *field, const char *target)
{
	if (!target || !*target)
		return;
	if (!room_for_one((void **)&c->crefs, c->ncrefs, &c->capcrefs, sizeof *c->crefs))
		return;
	pk_origin at = pk_record_path_origin(rec, field);
	pcv_committed_ref *r = &c->crefs[c->ncrefs++];
	*r = (pcv_committed_ref){ pk_xstrdup(target), pk_xstrdup(c->against_local), at.line, at.col, {0}, pk_xstrdup(field) };
	pcv_ident_set(&r->obj, pk_api_version(rec->obj), pk_kind(rec->obj), pk_namespace(rec->obj), pk_name(rec->obj));
}

void pcv_cross_committed_refs(pcv_ctx *c, const pk_record *rec)
{
	const cJSON *obj = rec->obj;
	const char *kind = pk_kind(obj), *av = pk_api_version(obj);
	const char *spec_path = pcv_pod_spec_path(av, kind);
	char field[PCV_PATH_MAX];
	if (spec_path) {
		pcv_path(field, "%s.priorityClassName", spec_path);
		add_committed_ref(c, rec, field, pk_str(obj, field));
		return;
	}
	if (strncmp(av, "scheduling.k8s.io/", 18) != 0)
		return;
	const cJSON *spec = pk_get(obj, "spec");
	if (strcmp(kind, "PodGroup") == 0)
		add_committed_ref(c, rec, "spec.priorityClassName", pk_str(spec, "priorityClassName"));
	if (strcmp(kind, "Workload") != 0)
		return;
	const cJSON *templates = pk_get(spec, "podGroupTemplates");
	int i = 0;
	for (const cJSON *t = cJSON_IsArray(templates) ? templates->child : NULL; t; t = t->next, i++) {
		pcv_path(field, "spec.podGroupTemplates[%d].priorityClassName", i);
		add_committed_ref(c, rec, field, pk_str(t, "priorityClassName"));
	}
}

/* A class of the existing state that this change deletes (--against). */
static const pcv_pcfact *deleted_class(const pcv_ctx *c, const char *name)
{
	const pcv_pcfact *f = name && *name ? pk_strmap_get(&c->pcfacts, name) : NULL;
	return f && f->replaced ? f : NULL;
}

/* A class of the resulting state. */
static const pk_pclass *live_class(const pcv_ctx *c, const char *name)
{
	return deleted_class(c, name) ? NULL : pk_pclass_find(&c->classes, name);
}

/* A committed object that stays names a class the change deletes: the
 * apiserver would reject its pods. Reported at the object, naming where
 * the class was. */
static void check_committed_refs(pcv_ctx *c)
{
	for (size_t i = 0; i < c->ncrefs; i++) {
		const pcv_committed_ref *r = &c->crefs[i];
		const pcv_pcfact *f = deleted_class(c, r->target);
		if (!f)
			continue;
		char where[1200], msg[1600];
		format_place(&f->at, where, sizeof where);
		snprintf(msg, sizeof msg, "no PriorityClass with name %s was found: this change deletes it (it was at %s), and "
		         "this committed %s still names it (its pods would be rejected)", r->target, where, r->obj.kind);
		int file = pcv_intern_file(&c->findings, r->file);
		pcv_finding *d = pcv_add_finding(&c->findings, file, r->line, r->col, PK_SEV_ERROR, &r->obj, NULL,
		                                 PCV_FORBIDDEN, msg);
		pcv_set_rule(d, r->field, "exists");
		pcv_set_related(d, f->at.file, f->at.line, f->at.col, "the deleted class");
	}
}

void pcv_cross_lookup(pcv_obj *o)
{
	char *key = obj_key(o->root);
	if (!key)
		return;
	o->old = pk_strmap_get(&o->ctx->cluster_objs, key);
	o->update = o->old != NULL;
	free(key);
}

/* An identity is certain for cluster-scoped kinds and for objects that name
 * their namespace; without one, two files may well be meant for two
 * namespaces (kubectl apply -n). */
static bool identity_is_certain(const pcv_obj *o)
{
	return o->name && *o->name && (!namespaced_kind(o->kind) || (o->ns && *o->ns));
}

void pcv_cross_definition(pcv_obj *o)
{
	if (!identity_is_certain(o))
		return;
	pcv_ctx *c = o->ctx;
	char *key = obj_key(o->root);
	if (!key)
		return;
	const pcv_definition *first = pk_strmap_get(&c->seen_inputs, key);
	if (first) {
		pcv_place was = { (char *)pk_strtab_str(c->findings.files, (uint32_t)first->file), first->line, first->col, NULL };
		char where[1200];
		format_place(&was, where, sizeof where);
		pcv_finding *d = pcv_report(o, PK_SEV_ERROR, PCV_DUPLICATE_DEFINITION, NULL,
		                            "%s \"%s\" is defined more than once in the input set: also defined at %s", o->kind,
		                            o->name, where);
		pcv_set_related(d, was.file, was.line, was.col, "first definition");
	} else {
		pcv_definition *def = pk_xmalloc(sizeof *def);
		if (def) {
			*def = (pcv_definition){ o->file, o->rec->origin.line, o->rec->origin.col };
			if (pk_strmap_put(&c->seen_inputs, key, def) == def)
				free(def);
		}
	}
	free(key);
}

/* ---- references ---- */

/* "spec.template.spec.priorityClassName" -> "spec.template.spec.<name>" */
static void sibling_path(const char *field, const char *name, char *buf)
{
	const char *dot = strrchr(field, '.');
	pcv_path(buf, "%.*s%s", dot ? (int)(dot - field + 1) : 0, field, name);
}

void pcv_add_ref(pcv_obj *o, pcv_ref_kind kind, const char *field, const char *target,
                 const char *target2, const char *ns)
{
	pcv_ctx *c = o->ctx;
	if (!room_for_one((void **)&c->refs, c->nrefs, &c->caprefs, sizeof *c->refs))
		return;
	pcv_ref *r = &c->refs[c->nrefs++];
	memset(r, 0, sizeof *r);
	r->kind = kind;
	r->file = o->file;
	if (kind == REF_PCLASS) {
		r->sib[0] = "priority";
		r->sib[1] = "preemptionPolicy";
	} else if (kind == REF_WORKLOAD) {
		r->sib[0] = strstr(field, "podGroupTemplateRef") ? "podGroupTemplateName" : "templateName";
	}
	pk_origin at = o->rec->origin;
	if (o->rec->pos) {
		/* YAML: node positions are at hand */
		char sib[PCV_PATH_MAX];
		at = pk_record_path_origin(o->rec, field);
		for (int i = 0; i < 2 && r->sib[i]; i++) {
			sibling_path(field, r->sib[i], sib);
			pk_origin s = pk_record_path_origin(o->rec, sib);
			r->sline[i] = s.line, r->scol[i] = s.col;
		}
	} else {
		/* JSON: most references resolve; a failing one is looked up
		 * in the file then (ref_finding) */
		for (int i = 0; i < 2; i++)
			r->sline[i] = at.line, r->scol[i] = at.col;
		r->locate = o->rec->text != NULL;
	}
	r->line = at.line, r->col = at.col;
	pcv_ident_set(&r->obj, o->api_version, o->kind, o->ns, o->name);
	r->field = pk_xstrdup(field);
	r->target = pk_xstrdup(target ? target : "");
	r->target2 = target2 ? pk_xstrdup(target2) : NULL;
	r->ns = ns ? pk_xstrdup(ns) : NULL;
}

pcv_ref *pcv_last_ref(pcv_ctx *c)
{
	return c->nrefs ? &c->refs[c->nrefs - 1] : NULL;
}

/* The text of the file a failing reference came from, read again: the
 * reader's copy is gone by the time every object is known. Standard input
 * cannot be read twice; its findings keep the object's position. */
typedef struct file_text {
	int file;
	char *buf;
	size_t len;
	/* where the last object located starts: references come in input
	 * order, so each file is scanned once, not once per reference */
	size_t from;
	long line, col;
} file_text;

static file_text *file_text_of(pcv_ctx *c, file_text *ft, int file)
{
	if (ft->buf && ft->file == file)
		return ft;
	free(ft->buf);
	*ft = (file_text){ file, NULL, 0, 0, 1, 1 };
	const char *name = pk_strtab_str(c->findings.files, (uint32_t)file);
	FILE *fp = strcmp(name, "-") == 0 ? NULL : fopen(name, "rb");
	if (!fp)
		return NULL;
	size_t cap = 0;
	for (;;) {
		ft->buf = pk_grow(ft->buf, &cap, ft->len + 65536, 1);
		size_t n = fread(ft->buf + ft->len, 1, cap - ft->len, fp);
		ft->len += n;
		if (n == 0)
			break;
	}
	fclose(fp);
	return ft->buf ? ft : NULL;
}

/* A failing reference, reported at the reference field or at sibling
 * sib (0 or 1) of it; field is the finding's field path (admission gives
 * none). */
static pcv_finding *ref_finding(pcv_ctx *c, file_text *ft, const pcv_ref *r, int sib, pk_severity sev,
                               pcv_type type, const char *field, const char *rule, const char *msg)
{
	long line = r->line, col = r->col;
	char path[PCV_PATH_MAX];
	if (sib >= 0 && r->sib[sib]) {
		line = r->sline[sib], col = r->scol[sib];
		sibling_path(r->field, r->sib[sib], path);
	} else {
		pcv_path(path, "%s", r->field);
	}
	file_text *t = r->locate ? file_text_of(c, ft, r->file) : NULL;
	if (t && (r->line > t->line || (r->line == t->line && r->col >= t->col))) {
		pk_origin at = { .line = r->line, .col = r->col };
		t->from += pk_json_locate(t->buf + t->from, t->len - t->from, t->line, t->col, path, &at);
		t->line = r->line, t->col = r->col;
		line = at.line, col = at.col;
	}
	pcv_finding *d = pcv_add_finding(&c->findings, r->file, line, col, sev, &r->obj, field, type, msg);
	pcv_set_rule(d, path, rule);
	return d;
}

/* A class that exists nowhere: with a class of a name a typo away from
 * it ("did you mean ...?", where that one is defined), said in msg
 * after what. */
static void missing_class_message(const pcv_ctx *c, const char *name, const char *what, char *msg, size_t size)
{
	const char **names = pk_xcalloc((size_t)c->classes.n + 1, sizeof *names);
	size_t n = 0;
	for (int i = 0; i < c->classes.n; i++)
		if (!deleted_class(c, c->classes.items[i].name))
			names[n++] = c->classes.items[i].name;
	const char *near = pk_nearest_word(name, names, n);
	const pcv_pcfact *f = near ? pk_strmap_get(&c->pcfacts, near) : NULL;
	char where[1200] = "";
	if (f && f->at.file) {
		char place[1100];
		format_place(&f->at, place, sizeof place);
		snprintf(where, sizeof where, ", %s at %s", f->existing ? "which exists" : "defined", place);
	}
	if (near)
		snprintf(msg, size, "no PriorityClass with name %s was found (did you mean %s%s?)%s", name, near, where, what);
	else
		snprintf(msg, size, "no PriorityClass with name %s was found%s", name, what);
	free(names);
}

static void check_pclass_ref(pcv_ctx *c, file_text *ft, const pcv_ref *r)
{
	char msg[2900];
	const char *suffix = r->admission ? "" : " (pods created from this template would be rejected)";
	int32_t value = 0;
	pk_preemption_policy policy = PK_PREEMPT_LOWER;
	if (*r->target) {
		const pk_pclass *cls = live_class(c, r->target);
		const pcv_pcfact *gone = deleted_class(c, r->target);
		if (gone) {
			char where[1200];
			format_place(&gone->at, where, sizeof where);
			snprintf(msg, sizeof msg, "no PriorityClass with name %s was found: this change deletes it (it was at "
			         "%s)%s", r->target, where, suffix);
			pcv_finding *d = ref_finding(c, ft, r, -1, PK_SEV_ERROR, PCV_FORBIDDEN, NULL, "exists", msg);
			pcv_set_related(d, gone->at.file, gone->at.line, gone->at.col, "the deleted class");
			return;
		}
		if (!cls && !r->admission && !c->cluster_given && !c->require_class) {
			/* The apiserver takes the controller as it is; its pods
			 * fail later unless the cluster has the class, and only
			 * --cluster says what the cluster has. */
			missing_class_message(c, r->target,
			                      " (pods created from this template would be rejected unless the cluster has it: "
			                      "give its classes with --cluster, or --require-class when the repository holds "
			                      "every class)", msg, sizeof msg);
			ref_finding(c, ft, r, -1, PK_SEV_WARNING, PCV_FORBIDDEN, NULL, "exists", msg);
			return;
		}
		if (!cls) {
			missing_class_message(c, r->target, suffix, msg, sizeof msg);
			ref_finding(c, ft, r, -1, PK_SEV_ERROR, PCV_FORBIDDEN, NULL, "exists", msg);
			return;
		}
		value = cls->value;
		policy = cls->policy;
	} else {
		const pk_pclass *def = pk_pclass_default(&c->classes);
		if (def) {
			value = def->value;
			policy = def->policy;
		}
	}
	char words[400];
	if (r->has_priority && r->priority != value) {
		pk_priority_conflict_message(r->priority, value, words, sizeof words);
		snprintf(msg, sizeof msg, "%s%s", words, suffix);
		ref_finding(c, ft, r, 0, PK_SEV_ERROR, PCV_FORBIDDEN, NULL, "computedByAdmission", msg);
	}
	if (r->has_policy && r->policy != policy) {
		pk_policy_conflict_message(r->policy, policy, words, sizeof words);
		snprintf(msg, sizeof msg, "%s%s", words, suffix);
		ref_finding(c, ft, r, 1, PK_SEV_ERROR, PCV_FORBIDDEN, NULL, "computedByAdmission", msg);
	}
}

static bool has_name(const char *names, const char *want)
{
	for (const char *p = names; *p; p += strlen(p) + 1)
		if (strcmp(p, want) == 0)
			return true;
	return false;
}

static void check_workload_ref(pcv_ctx *c, file_text *ft, const pcv_ref *r)
{
	char msg[700];
	char *key = workload_key(r->ns ? r->ns : "default", r->target);
	const char *names = key ? pk_strmap_get(&c->workloads, key) : NULL;
	free(key);
	if (!names) {
		snprintf(msg, sizeof msg, "PodGroup rejected: Workload \"%s\" not found", r->target);
		ref_finding(c, ft, r, -1, PK_SEV_ERROR, PCV_FORBIDDEN, NULL, "exists", msg);
	} else if (names[0] == 'T') {
		snprintf(msg, sizeof msg, "PodGroup rejected: Workload \"%s\" is being deleted", r->target);
		ref_finding(c, ft, r, -1, PK_SEV_ERROR, PCV_FORBIDDEN, NULL, "notBeingDeleted", msg);
	} else if (r->target2 && !has_name(names + 1, r->target2)) {
		snprintf(msg, sizeof msg, "PodGroup rejected: PodGroupTemplate \"%s\" not found in Workload \"%s\"",
		         r->target2, r->target);
		ref_finding(c, ft, r, 0, PK_SEV_ERROR, PCV_FORBIDDEN, NULL, "exists", msg);
	}
}

static void check_preemption_ref(pcv_ctx *c, file_text *ft, const pcv_ref *r)
{
	char msg[2900];
	const pk_pclass *pcls = live_class(c, r->target);
	if (!pcls) {
		missing_class_message(c, r->target, "", msg, sizeof msg);
		ref_finding(c, ft, r, -1, PK_SEV_ERROR, PCV_FORBIDDEN, NULL, "exists", msg);
		return;
	}
	const pk_pclass *scls = r->target2 && *r->target2 ? live_class(c, r->target2)
	                                                   : pk_pclass_default(&c->classes);
	int32_t sched = scls ? scls->value : 0;
	if (pcls->value < sched) {
		snprintf(msg, sizeof msg,
		         "Invalid value: \"%s\": preemption priority (%d) must not be below scheduling priority (%d)",
		         r->target, (int)pcls->value, (int)sched);
		ref_finding(c, ft, r, -1, PK_SEV_ERROR, PCV_INVALID, r->field, "notBelowSchedulingPriority", msg);
	}
}

void pcv_cross_finish(pcv_ctx *c)
{
	file_text ft = { -1, NULL, 0, 0, 1, 1 };
	for (size_t i = 0; i < c->nrefs; i++) {
		const pcv_ref *r = &c->refs[i];
		switch (r->kind) {
		case REF_PCLASS:
			check_pclass_ref(c, &ft, r);
			break;
		case REF_WORKLOAD:
			check_workload_ref(c, &ft, r);
			break;
		case REF_PREEMPTION_PCLASS:
			check_preemption_ref(c, &ft, r);
			break;
		}
	}
	free(ft.buf);
	check_committed_refs(c);
}

/* ---- update rules against a --cluster object ---- */

static bool same(const cJSON *a, const cJSON *b)
{
	bool na = !a || cJSON_IsNull(a), nb = !b || cJSON_IsNull(b);
	if (na || nb)
		return na && nb;
	return cJSON_Compare(a, b, true);
}

/* kubectl apply leaves fields absent from the manifest as they are, so only
 * fields the manifest sets can change. */
static void immutable(pcv_obj *o, const cJSON *nw, const cJSON *old, const char *key, const char *path)
{
	const cJSON *nv = pk_get(nw, key);
	if (!nv || cJSON_IsNull(nv))
		return;
	if (!same(nv, pk_get(old, key)))
		pcv_set_rule(pcv_invalid(o, path, nv, "field is immutable"), path, "immutable");
}

static const cJSON *find_by_name(const cJSON *list, const char *name)
{
	for (const cJSON *t = cJSON_IsArray(list) ? list->child : NULL; t; t = t->next)
		if (strcmp(pk_str_or(t, "name", ""), name) == 0)
			return t;
	return NULL;
}

/* schedulingPolicy at path: basic is immutable, gang cannot be set or
 * cleared (its minCount / minGroupCount may change). */
static void update_scheduling_policy(pcv_obj *o, const cJSON *np, const cJSON *op, const char *path)
{
	if (!np || cJSON_IsNull(np))
		return;
	char f[PCV_PATH_MAX];
	pcv_path(f, "%s.basic", path);
	if (!same(pk_get(np, "basic"), pk_get(op, "basic")))
		pcv_set_rule(pcv_invalid(o, f, pk_get(np, "basic"), "field is immutable"), f, "immutable");
	bool ng = pk_get(np, "gang") && !cJSON_IsNull(pk_get(np, "gang"));
	bool og = pk_get(op, "gang") && !cJSON_IsNull(pk_get(op, "gang"));
	pcv_path(f, "%s.gang", path);
	if (ng && !og)
		pcv_set_rule(pcv_invalid(o, f, pk_get(np, "gang"), "field cannot be set once created"), f, "noSet");
	else if (!ng && og)
		pcv_set_rule(pcv_invalid(o, f, NULL, "field cannot be cleared once set"), f, "noUnset");
}

static void update_templates(pcv_obj *o, const cJSON *nlist, const cJSON *olist, const char *path)
{
	static const char *const frozen[] = {"schedulingConstraints", "resourceClaims", "disruptionMode",
	                                     "priorityClassName", "priority", "preemptionPolicy"};
	if (!nlist || cJSON_IsNull(nlist))
		return;
	int i = 0;
	for (const cJSON *t = cJSON_IsArray(nlist) ? nlist->child : NULL; t; t = t->next, i++) {
		char p[PCV_PATH_MAX], f[PCV_PATH_MAX];
		pcv_path(p, "%s[%d]", path, i);
		const cJSON *ot = find_by_name(olist, pk_str_or(t, "name", ""));
		if (!ot) {
			pcv_set_rule(pcv_forbidden(o, p, "items may not be added to this list"), p, "noAddItem");
			continue;
		}
		pcv_path(f, "%s.schedulingPolicy", p);
		update_scheduling_policy(o, pk_get(t, "schedulingPolicy"), pk_get(ot, "schedulingPolicy"), f);
		for (size_t k = 0; k < sizeof frozen / sizeof frozen[0]; k++) {
			pcv_path(f, "%s.%s", p, frozen[k]);
			immutable(o, t, ot, frozen[k], f);
		}
	}
	for (const cJSON *ot = cJSON_IsArray(olist) ? olist->child : NULL; ot; ot = ot->next)
		if (!find_by_name(nlist, pk_str_or(ot, "name", ""))) {
			pcv_set_rule(pcv_forbidden(o, path, "items may not be removed from this list"), path, "noRemoveItem");
			break;
		}
}

/* A CompositePodGroup's spec is immutable but for the gang's
 * minGroupCount (TestStrategyUpdate at 06e67ba2). With PodGroupPreemptionPolicy
 * off a stored preemptionPolicy is kept, and changing it is also Forbidden
 * (declarative validation ratchets only an unchanged value). */
static void composite_update(pcv_obj *o, const cJSON *ns, const cJSON *os)
{
	static const char *const frozen[] = {"workloadRef", "parentCompositePodGroupName", "schedulingConstraints",
	                                     "disruptionMode", "priorityClassName", "priority", "preemptionPolicy"};
	update_scheduling_policy(o, pk_get(ns, "schedulingPolicy"), pk_get(os, "schedulingPolicy"),
	                         "spec.schedulingPolicy");
	const cJSON *pp = pk_get(ns, "preemptionPolicy");
	if (!o->ctx->release->pod_group_preemption_policy && pp && !cJSON_IsNull(pp) &&
	    !same(pp, pk_get(os, "preemptionPolicy")))
		pcv_set_rule(pcv_forbidden(o, "spec.preemptionPolicy", "Forbidden (feature gate PodGroupPreemptionPolicy is disabled)"),
		             "spec.preemptionPolicy", "ifDisabledForbidden");
	for (size_t k = 0; k < sizeof frozen / sizeof frozen[0]; k++) {
		char f[PCV_PATH_MAX];
		pcv_path(f, "spec.%s", frozen[k]);
		immutable(o, ns, os, frozen[k], f);
	}
}

void pcv_update_rules(pcv_obj *o)
{
	const cJSON *old = o->old;
	if (!old || strcmp(pk_api_version(old), o->api_version) != 0)
		return;  /* no stored object in this version: nothing to compare */
	const cJSON *ns = pk_get(o->root, "spec"), *os = pk_get(old, "spec");
	if (strcmp(o->kind, "Workload") == 0) {
		immutable(o, ns, os, "controllerRef", "spec.controllerRef");
		/* v1alpha1 and v1alpha2 freeze the whole list; v1alpha3 only
		 * forbids adding and removing templates. */
		if (strcmp(o->version, "v1alpha1") == 0) {
			immutable(o, ns, os, "podGroups", "spec.podGroups");
			return;
		}
		if (strcmp(o->version, "v1alpha2") == 0) {
			immutable(o, ns, os, "podGroupTemplates", "spec.podGroupTemplates");
			immutable(o, ns, os, "compositePodGroupTemplates", "spec.compositePodGroupTemplates");
			return;
		}
		update_templates(o, pk_get(ns, "podGroupTemplates"), pk_get(os, "podGroupTemplates"),
		                 "spec.podGroupTemplates");
		immutable(o, ns, os, "compositePodGroupTemplates", "spec.compositePodGroupTemplates");
	} else if (strcmp(o->kind, "Pod") == 0) {
		/* UP-14: the priority fields of a Pod cannot change. */
		static const char *const frozen[] = {"priorityClassName", "priority", "preemptionPolicy"};
		for (size_t k = 0; k < sizeof frozen / sizeof frozen[0]; k++) {
			const cJSON *nv = pk_get(ns, frozen[k]);
			if (!nv || cJSON_IsNull(nv) || same(nv, pk_get(os, frozen[k])))
				continue;
			char f[PCV_PATH_MAX];
			pcv_path(f, "spec.%s", frozen[k]);
			pcv_finding *d = pcv_forbidden(
				o, f, "pod updates may not change fields other than `spec.containers[*].image`, "
				      "`spec.initContainers[*].image`, `spec.activeDeadlineSeconds`, `spec.tolerations` "
				      "(only additions to existing tolerations), `spec.terminationGracePeriodSeconds` "
				      "(allow it to be set to 1 if it was previously negative)");
			pcv_set_rule(d, f, "immutable");
		}
	} else if (strcmp(o->kind, "CompositePodGroup") == 0) {
		composite_update(o, ns, os);
	} else if (strcmp(o->kind, "PodGroup") == 0) {
		static const char *const frozen[] = {"podGroupTemplateRef", "workloadRef", "parentCompositePodGroupName",
		                                     "schedulingPolicy", "schedulingConstraints", "resourceClaims",
		                                     "disruptionMode", "priorityClassName", "priority", "preemptionPolicy"};
		for (size_t k = 0; k < sizeof frozen / sizeof frozen[0]; k++) {
			char f[PCV_PATH_MAX];
			pcv_path(f, "spec.%s", frozen[k]);
			immutable(o, ns, os, frozen[k], f);
		}
	}
}
