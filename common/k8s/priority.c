#include "k8s/priority.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "k8s/json.h"
#include "k8s/pod.h"
#include "base/alloc.h"

static const struct { const char *name; int32_t value; } system_classes[] = {
	{"system-node-critical", PK_SYSTEM_NODE_CRITICAL},
	{"system-cluster-critical", PK_SYSTEM_CLUSTER_CRITICAL},
};

bool pk_is_system_class_name(const char *name)
{
	for (size_t i = 0; i < sizeof system_classes / sizeof system_classes[0]; i++)
		if (strcmp(name, system_classes[i].name) == 0)
			return true;
	return false;
}

bool pk_parse_preemption_policy(const char *s, pk_preemption_policy *out)
{
	if (s && strcmp(s, "PreemptLowerPriority") == 0) {
		*out = PK_PREEMPT_LOWER;
		return true;
	}
	if (s && strcmp(s, "Never") == 0) {
		*out = PK_PREEMPT_NEVER;
		return true;
	}
	return false;
}

const char *pk_preemption_policy_name(pk_preemption_policy p)
{
	return p == PK_PREEMPT_NEVER ? "Never" : "PreemptLowerPriority";
}

/* Name lookups go through the string map (base/strtab.h), values item
 * index + 1: a repository may hold thousands of classes, and a linear scan
 * per lookup made validation quadratic. */
static pk_pclass *find_mut(const pk_pclass_set *s, const char *name)
{
	intptr_t at = (intptr_t)pk_strmap_get(&s->index, name);
	return at ? &s->items[at - 1] : NULL;
}

static pk_pclass *append(pk_pclass_set *s, const char *name)
{
	s->items = pk_grow(s->items, &s->cap, (size_t)s->n + 1, sizeof *s->items);
	pk_pclass *c = &s->items[s->n];
	memset(c, 0, sizeof *c);
	c->name = pk_xstrdup(name);
	s->n++;
	pk_strmap_put(&s->index, c->name, (void *)(intptr_t)s->n);
	return c;
}

void pk_pclass_set_init(pk_pclass_set *s)
{
	s->items = NULL;
	s->n = s->cap = 0;
	pk_strmap_init(&s->index);
	s->evidence = NULL;
	s->nevidence = s->evidence_cap = 0;
	for (size_t i = 0; i < sizeof system_classes / sizeof system_classes[0]; i++) {
		pk_pclass *c = append(s, system_classes[i].name);
		if (!c)
			continue;
		c->value = system_classes[i].value;
		c->global_default = false;
		c->policy = PK_PREEMPT_LOWER;
		c->builtin = true;
	}
}

void pk_pclass_set_free(pk_pclass_set *s)
{
	for (int i = 0; i < s->nevidence; i++) {
		free(s->evidence[i].name);
		free((char *)s->evidence[i].min_pod);
		free((char *)s->evidence[i].max_pod);
	}
	free(s->evidence);
	s->evidence = NULL;
	s->nevidence = s->evidence_cap = 0;
	for (int i = 0; i < s->n; i++)
		free(s->items[i].name);
	free(s->items);
	pk_strmap_free(&s->index, NULL);
	s->items = NULL;
	s->n = s->cap = 0;
}

int pk_pclass_set_add(pk_pclass_set *s, const cJSON *pc)
{
	const char *name = pk_name(pc);
	int64_t value = 0;
	pk_preemption_policy policy = PK_PREEMPT_LOWER;
	const cJSON *v = pk_get(pc, "value");

	if (!*name)
		return -1;
	if (v && (!pk_num_int64(v, &value) || value < INT32_MIN || value > INT32_MAX))
		return -1;
	const char *pol = pk_str(pc, "preemptionPolicy");
	if (pol && !pk_parse_preemption_policy(pol, &policy))
		return -1;
	pk_pclass *c = find_mut(s, name);
	if (c && c->builtin) /* system classes are created by the apiserver; a document cannot change them */
		return (c->value == value && !pk_bool(pc, "globalDefault")) ? 0 : -1;
	if (!c && !(c = append(s, name)))
		return -1;
	c->value = (int32_t)value;
	c->global_default = pk_bool(pc, "globalDefault");
	c->policy = policy;
	c->builtin = false;
	c->inferred_from = 0;
	return 0;
}

static char *pod_key(const char *ns, const char *name)
{
	size_t n = strlen(ns) + strlen(name) + 2;
	char *k = pk_xmalloc(n);
	snprintf(k, n, "%s/%s", ns, name);
	return k;
}

const pk_class_evidence *pk_class_evidence_find(const pk_pclass_set *s, const char *class_name)
{
	for (int i = 0; i < s->nevidence; i++)
		if (strcmp(s->evidence[i].name, class_name) == 0)
			return &s->evidence[i];
	return NULL;
}

void pk_class_evidence_note(pk_pclass_set *s, const char *class_name, const char *ns, const char *name,
                            int32_t priority, const pk_preemption_policy *policy)
{
	pk_class_evidence *e = (pk_class_evidence *)pk_class_evidence_find(s, class_name);
	if (!e) {
		s->evidence = pk_grow(s->evidence, &s->evidence_cap, (size_t)s->nevidence + 1, sizeof *s->evidence);
		e = &s->evidence[s->nevidence++];
		memset(e, 0, sizeof *e);
		e->name = pk_xstrdup(class_name);
		e->min = e->max = priority;
		e->min_pod = pod_key(ns, name);
		e->max_pod = pod_key(ns, name);
		e->policy = policy ? *policy : PK_PREEMPT_LOWER;
	}
	if (priority < e->min) {
		e->min = priority;
		free((char *)e->min_pod);
		e->min_pod = pod_key(ns, name);
	}
	if (priority > e->max) {
		e->max = priority;
		free((char *)e->max_pod);
		e->max_pod = pod_key(ns, name);
	}
	e->policy_mixed |= (policy ? *policy : PK_PREEMPT_LOWER) != e->policy;
	e->pods++;
}

int pk_pclass_set_infer(pk_pclass_set *s)
{
	int added = 0;
	for (int i = 0; i < s->nevidence; i++) {
		const pk_class_evidence *e = &s->evidence[i];
		if (e->min != e->max || find_mut(s, e->name))
			continue;
		pk_pclass *c = append(s, e->name);
		if (!c)
			continue;
		c->value = e->min;
		c->global_default = false;
		c->policy = e->policy_mixed ? PK_PREEMPT_LOWER : e->policy;
		c->builtin = false;
		c->inferred_from = e->pods;
		added++;
	}
	return added;
}

const char *pk_class_evidence_text(const pk_class_evidence *e, char *buf, size_t size)
{
	if (e->min == e->max)
		snprintf(buf, size,
		         "PriorityClass \"%s\" is not in the input: taken at %d, the spec.priority of the %ld pod(s) "
		         "that name it (admission wrote the class's value there)%s",
		         e->name, e->min, e->pods,
		         e->policy_mixed ? "; their preemptionPolicy differs: PreemptLowerPriority assumed" : "");
	else
		snprintf(buf, size,
		         "PriorityClass \"%s\" is not in the input, and the %ld pod(s) that name it disagree on its "
		         "value (%d on %s, %d on %s): each keeps its spec.priority, and a pod without one cannot be "
		         "resolved (admission would reject it)",
		         e->name, e->pods, e->min, e->min_pod, e->max, e->max_pod);
	return buf;
}

const pk_pclass *pk_pclass_find(const pk_pclass_set *s, const char *name)
{
	return find_mut(s, name);
}

const pk_pclass *pk_pclass_default(const pk_pclass_set *s)
{
	const pk_pclass *best = NULL;
	for (int i = 0; i < s->n; i++)
		if (s->items[i].global_default && (!best || s->items[i].value < best->value))
			best = &s->items[i];
	return best;
}

pk_resolved_priority pk_resolve_priority_fields(const pk_pclass_set *s, const char *class_name,
                                                const int32_t *priority, const pk_preemption_policy *policy)
{
	pk_resolved_priority r = { .value = 0, .policy = PK_PREEMPT_LOWER, .class_name = "",
	                           .class_policy = PK_PREEMPT_LOWER };
	const pk_pclass *pc = NULL;

	if (class_name && *class_name) {
		r.class_name = class_name;
		pc = pk_pclass_find(s, class_name);
		r.class_missing = pc == NULL;
	} else if ((pc = pk_pclass_default(s)) != NULL) {
		r.class_name = pc->name;
	}
	if (pc) {
		r.has_class = true;
		r.class_value = pc->value;
		r.class_policy = pc->policy;
	}
	r.value = r.class_value;
	r.policy = r.class_policy;
	/* Without a class to name and no global default, admission computes 0
	 * and PreemptLowerPriority; that there is no default is known only
	 * when the input carried PriorityClass objects (beyond the two system
	 * classes every set starts with), so only then is a pod's own value
	 * judged against it. */
	bool judged = pc || (!r.class_missing && s->n > 2);
	if (priority) {
		r.value = *priority;
		r.from_spec = true;
		r.priority_conflict = judged && *priority != r.class_value;
	}
	if (policy) {
		r.policy = *policy;
		r.policy_conflict = judged && *policy != r.class_policy;
	}
	return r;
}

pk_resolved_priority pk_resolve_priority(const pk_pclass_set *s, const cJSON *spec)
{
	int64_t v;
	int32_t prio;
	pk_preemption_policy pol;
	bool has_prio = pk_int64(spec, "priority", &v) && v >= INT32_MIN && v <= INT32_MAX;
	if (has_prio)
		prio = (int32_t)v;
	bool has_pol = pk_parse_preemption_policy(pk_str(spec, "preemptionPolicy"), &pol);
	pk_resolved_priority r = pk_resolve_priority_fields(s, pk_str(spec, "priorityClassName"),
	                                                    has_prio ? &prio : NULL, has_pol ? &pol : NULL);
	return r;
}

void pk_priority_conflict_message(int32_t given, int32_t computed, char *buf, size_t size)
{
	snprintf(buf, size,
	         "the integer value of priority (%d) must not be provided in pod spec; priority admission "
	         "controller computed %d from the given PriorityClass name",
	         (int)given, (int)computed);
}

void pk_policy_conflict_message(pk_preemption_policy given, pk_preemption_policy computed, char *buf, size_t size)
{
	snprintf(buf, size,
	         "the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission "
	         "controller computed %s from the given PriorityClass name",
	         pk_preemption_policy_name(given), pk_preemption_policy_name(computed));
}

const char *pk_priority_admission_error(const pk_resolved_priority *r, char *buf, size_t size)
{
	if (r->class_missing) {
		snprintf(buf, size, "no PriorityClass with name %s was found", r->class_name);
		return buf;
	}
	char priority[300] = "", policy[300] = "";
	if (r->priority_conflict)
		pk_priority_conflict_message(r->value, r->class_value, priority, sizeof priority);
	if (r->policy_conflict)
		pk_policy_conflict_message(r->policy, r->class_policy, policy, sizeof policy);
	snprintf(buf, size, "%s%s%s", priority, priority[0] && policy[0] ? "; " : "", policy);
	return buf[0] ? buf : NULL;
}

const char *pk_inferred_classes_text(const pk_pclass_set *s, char *buf, size_t size)
{
	int n = 0;
	for (int i = 0; i < s->nevidence; i++)
		n += s->evidence[i].min == s->evidence[i].max;
	if (!n)
		return NULL;
	size_t w = (size_t)snprintf(buf, size,
	                            "%d PriorityClass(es) not in the input taken from the spec.priority of the pods "
	                            "that name them (admission wrote the class's value there):", n);
	int shown = 0;
	for (int i = 0; i < s->nevidence && w < size; i++) {
		const pk_class_evidence *e = &s->evidence[i];
		if (e->min != e->max)
			continue;
		if (shown++ == 8) {
			snprintf(buf + w, size - w, ", ...");
			break;
		}
		w += (size_t)snprintf(buf + w, size - w, "%s %s %d (%ld pod(s)%s)", shown > 1 ? "," : "", e->name, e->min,
		                      e->pods, e->policy_mixed ? ", preemptionPolicy differs: PreemptLowerPriority" : "");
	}
	return buf;
}
