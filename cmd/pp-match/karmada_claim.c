/* Claims as the detector records them on a template (karmada pkg/detector
 * claim.go, policy.go propagateResource; karmada.md section E):
 *   PP  (v1.10+): label permanent-id + annotations namespace and name
 *   CPP (v1.10+): label permanent-id + annotation name
 *   pre-1.10:     labels propagationpolicy.karmada.io/{namespace,name} or
 *                 clusterpropagationpolicy.karmada.io/name
 * The current forms are checked first, PP before CPP, as upstream does. */
#include "karmada.h"

#include <string.h>

#include "k8s/json.h"

const char *pp_meta_string(const cJSON *map, const char *key)
{
	const cJSON *v = pk_get(map, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A non-empty string value of key in a labels/annotations map, else NULL. */
static const char *meta_value(const cJSON *map, const char *key)
{
	const char *v = pp_meta_string(map, key);
	return v && *v ? v : NULL;
}

pp_claim pp_claim_read(const pp_template *t)
{
	pp_claim c = {.form = PP_CLAIM_NONE};
	const char *id, *ns, *name;

	id = meta_value(t->labels, PP_PP_ID_LABEL);
	ns = meta_value(t->annotations, PP_PP_NS_KEY);
	name = meta_value(t->annotations, PP_PP_NAME_KEY);
	if (id && ns && name)
		return (pp_claim){PP_CLAIM_PP, PP_PROPAGATION_POLICY, ns, name, id};

	id = meta_value(t->labels, PP_CPP_ID_LABEL);
	name = meta_value(t->annotations, PP_CPP_NAME_KEY);
	if (id && name)
		return (pp_claim){PP_CLAIM_CPP, PP_CLUSTER_PROPAGATION_POLICY, "", name, id};

	ns = meta_value(t->labels, PP_PP_NS_KEY);
	name = meta_value(t->labels, PP_PP_NAME_KEY);
	if (ns && name)
		return (pp_claim){PP_CLAIM_PP_LEGACY, PP_PROPAGATION_POLICY, ns, name, NULL};

	name = meta_value(t->labels, PP_CPP_NAME_KEY);
	if (name)
		return (pp_claim){PP_CLAIM_CPP_LEGACY, PP_CLUSTER_PROPAGATION_POLICY, "", name, NULL};
	return c;
}

const pp_policy *pp_claim_find(const pp_world *w, const pp_claim *c)
{
	const pp_policy *found = NULL;

	if (c->form == PP_CLAIM_NONE)
		return NULL;
	for (long i = 0; i < w->npolicies; i++) {
		const pp_policy *p = &w->policies[i];
		if (p->kind != c->kind || strcmp(p->name, c->name) != 0)
			continue;
		if (c->kind == PP_PROPAGATION_POLICY && strcmp(p->namespace, c->namespace) != 0)
			continue;
		/* With duplicates in the input, prefer one the webhook would admit. */
		if (!found || (!found->admitted && p->admitted))
			found = p;
	}
	return found;
}

static void set_string(cJSON *map, const char *key, const char *value)
{
	cJSON_DeleteItemFromObjectCaseSensitive(map, key);
	cJSON_AddStringToObject(map, key, value);
}

/* Merge-patch removal (null) of key, only if the template carries it. */
static void remove_if_present(cJSON *map, const cJSON *current, const char *key)
{
	if (pk_get(current, key) && !pk_get(map, key))
		cJSON_AddNullToObject(map, key);
}

cJSON *pp_claim_patch(const pp_template *t, const pp_policy *owner)
{
	cJSON *patch = cJSON_CreateObject();
	cJSON *labels = cJSON_AddObjectToObject(patch, "labels");
	cJSON *annotations = cJSON_AddObjectToObject(patch, "annotations");

	if (!labels || !annotations) {
		cJSON_Delete(patch);
		return NULL;
	}
	if (owner && owner->kind == PP_PROPAGATION_POLICY) {
		/* Without a permanent-id (un-admitted YAML) the webhook would mint
		 * one; we cannot know it, so the label is left out. */
		if (owner->permanent_id)
			set_string(labels, PP_PP_ID_LABEL, owner->permanent_id);
		set_string(annotations, PP_PP_NS_KEY, owner->namespace);
		set_string(annotations, PP_PP_NAME_KEY, owner->name);
	} else if (owner) {
		if (owner->permanent_id)
			set_string(labels, PP_CPP_ID_LABEL, owner->permanent_id);
		set_string(annotations, PP_CPP_NAME_KEY, owner->name);
	}
	/* Everything else that records a claim goes: the other kind's keys (a PP
	 * taking over from a CPP strips them, excludeClusterPolicy) and the
	 * pre-1.10 labels, now superseded by the current form. */
	remove_if_present(labels, t->labels, PP_PP_ID_LABEL);
	remove_if_present(annotations, t->annotations, PP_PP_NS_KEY);
	remove_if_present(annotations, t->annotations, PP_PP_NAME_KEY);
	remove_if_present(labels, t->labels, PP_CPP_ID_LABEL);
	remove_if_present(annotations, t->annotations, PP_CPP_NAME_KEY);
	remove_if_present(labels, t->labels, PP_PP_NS_KEY);
	remove_if_present(labels, t->labels, PP_PP_NAME_KEY);
	remove_if_present(labels, t->labels, PP_CPP_NAME_KEY);
	return patch;
}

cJSON *pp_claim_ref(const pp_claim *c, const pp_policy *found)
{
	cJSON *ref = cJSON_CreateObject();

	cJSON_AddStringToObject(ref, "kind", pp_policy_kind_name(c->kind));
	if (c->kind == PP_PROPAGATION_POLICY)
		cJSON_AddStringToObject(ref, "namespace", c->namespace);
	cJSON_AddStringToObject(ref, "name", c->name);
	if (found)
		cJSON_AddNumberToObject(ref, "priority", found->priority);
	if (c->permanent_id)
		cJSON_AddStringToObject(ref, "permanentID", c->permanent_id);
	if (c->form == PP_CLAIM_PP_LEGACY || c->form == PP_CLAIM_CPP_LEGACY)
		cJSON_AddBoolToObject(ref, "legacy", true);
	return ref;
}
