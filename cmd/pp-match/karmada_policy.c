/* Policy and template objects as pp-match holds them. Strings point into the
 * owned cJSON trees; label selectors are compiled once per selector. */
#include "karmada.h"

#include <stdlib.h>
#include <string.h>

#include "k8s/json.h"
#include "base/alloc.h"

const char *pp_policy_kind_name(pp_policy_kind k)
{
	return k == PP_PROPAGATION_POLICY ? "PropagationPolicy" : "ClusterPropagationPolicy";
}

static int32_t explicit_priority(const cJSON *obj)
{
	int64_t v;

	/* Absent or null -> 0 (CRD default). Out-of-range values are reported by
	 * validation; the policy then takes no part, so the value is moot. */
	if (pk_int64(obj, "spec.priority", &v) && v >= INT32_MIN && v <= INT32_MAX)
		return (int32_t)v;
	return 0;
}

static void init_selector(pp_rsel *s, const cJSON *js, const pp_policy *p)
{
	char err[256];

	memset(s, 0, sizeof *s);
	s->api_version = pk_str_or(js, "apiVersion", "");
	s->kind = pk_str_or(js, "kind", "");
	s->namespace = pk_str_or(js, "namespace", "");
	s->name = pk_str_or(js, "name", "");
	/* The PP mutating webhook fills an empty selector namespace with the
	 * policy's own (karmada.md R11). */
	if (p->kind == PP_PROPAGATION_POLICY && !*s->namespace)
		s->namespace = p->namespace;
	const cJSON *ls = pk_get(js, "labelSelector");
	s->has_label_selector = ls && !cJSON_IsNull(ls);
	if (s->has_label_selector)
		s->label_selector_ok = pk_selector_compile(ls, &s->label_selector, err, sizeof err) == 0;
}

int pp_policy_init(pp_policy *p, cJSON *obj, const pk_origin *origin, const char *default_ns)
{
	memset(p, 0, sizeof *p);
	p->obj = obj;
	p->origin = *origin;
	p->kind = strcmp(pk_kind(obj), "ClusterPropagationPolicy") == 0 ? PP_CLUSTER_PROPAGATION_POLICY
	                                                                 : PP_PROPAGATION_POLICY;
	p->name = pk_name(obj);
	if (p->kind == PP_PROPAGATION_POLICY)
		p->namespace = *pk_namespace(obj) ? pk_namespace(obj) : default_ns;
	else
		p->namespace = "";
	const cJSON *labels = pk_getp(obj, "metadata.labels");
	p->permanent_id = pp_meta_string(labels, p->kind == PP_PROPAGATION_POLICY ? PP_PP_ID_LABEL : PP_CPP_ID_LABEL);
	p->priority = explicit_priority(obj);
	const char *preemption = pk_str(obj, "spec.preemption");
	p->preempt_always = preemption && strcmp(preemption, "Always") == 0;
	const cJSON *dts = pk_getp(obj, "metadata.deletionTimestamp");
	p->deleting = dts && !cJSON_IsNull(dts);
	p->admitted = true;

	const cJSON *sels = pk_getp(obj, "spec.resourceSelectors");
	int n = cJSON_IsArray(sels) ? cJSON_GetArraySize(sels) : 0;
	if (n > 0)
		p->sels = pk_xcalloc((size_t)n, sizeof *p->sels);
	const cJSON *js;
	if (n > 0)
		cJSON_ArrayForEach(js, sels)
			init_selector(&p->sels[p->nsels++], js, p);
	return 0;
}

void pp_policy_free(pp_policy *p)
{
	for (int i = 0; i < p->nsels; i++)
		if (p->sels[i].has_label_selector)
			pk_selector_free(&p->sels[i].label_selector);
	free(p->sels);
	cJSON_Delete(p->obj);
	memset(p, 0, sizeof *p);
}

/* Keep only what matching needs: identity, labels, annotations. Templates can
 * be large (full Deployments with status), and all of them are held at once
 * because policies may come after them in the input. */
static void trim_template(cJSON *obj)
{
	cJSON *item = obj->child;
	while (item) {
		cJSON *next = item->next;
		if (!item->string || (strcmp(item->string, "apiVersion") != 0 && strcmp(item->string, "kind") != 0 &&
		                      strcmp(item->string, "metadata") != 0))
			cJSON_Delete(cJSON_DetachItemViaPointer(obj, item));
		item = next;
	}
	cJSON *meta = cJSON_GetObjectItemCaseSensitive(obj, "metadata");
	if (cJSON_IsObject(meta)) {
		cJSON_DeleteItemFromObjectCaseSensitive(meta, "managedFields");
		cJSON *ann = cJSON_GetObjectItemCaseSensitive(meta, "annotations");
		if (cJSON_IsObject(ann))
			cJSON_DeleteItemFromObjectCaseSensitive(ann, "kubectl.kubernetes.io/last-applied-configuration");
	}
}

int pp_template_init(pp_template *t, cJSON *obj, const pk_origin *origin, const char *default_ns,
                     const char *skipped)
{
	memset(t, 0, sizeof *t);
	if (skipped && !(t->skipped = pk_xstrdup(skipped)))
		return -1;
	trim_template(obj);
	t->obj = obj;
	t->origin = *origin;
	t->api_version = pk_api_version(obj);
	t->kind = pk_kind(obj);
	t->name = pk_name(obj);
	t->namespace = pp_effective_namespace(obj, default_ns);
	t->namespace_defaulted = *t->namespace && !*pk_namespace(obj);
	t->labels = pk_getp(obj, "metadata.labels");
	t->annotations = pk_getp(obj, "metadata.annotations");
	return 0;
}

void pp_template_free(pp_template *t)
{
	cJSON_Delete(t->obj);
	free(t->skipped);
	memset(t, 0, sizeof *t);
}
