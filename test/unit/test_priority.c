/* Priority resolution as the Priority admission plugin does it: cases after
 * plugin/pkg/admission/priority/admission_test.go (TestDefaultPriority,
 * TestPodAdmission: system classes, globalDefault, lowest default wins,
 * preemptionPolicy from the class). */
#include "t.h"
#include "k8s/priority.h"

static void add(pk_pclass_set *s, const char *json)
{
	cJSON *pc = cJSON_Parse(json);
	CHECK(pk_pclass_set_add(s, pc) == 0, "add %s", json);
	cJSON_Delete(pc);
}

static pk_resolved_priority resolve(const pk_pclass_set *s, const char *spec_json)
{
	cJSON *spec = cJSON_Parse(spec_json);
	pk_resolved_priority r = pk_resolve_priority(s, spec);
	static char name[128];
	snprintf(name, sizeof name, "%s", r.class_name);
	r.class_name = name;
	cJSON_Delete(spec);
	return r;
}

int main(void)
{
	pk_pclass_set s;
	pk_pclass_set_init(&s);
	pk_resolved_priority r = resolve(&s, "{}");
	CHECK(r.value == 0 && r.policy == PK_PREEMPT_LOWER && !*r.class_name, "no default class: priority 0");
	r = resolve(&s, "{\"priorityClassName\":\"system-node-critical\"}");
	CHECK(r.value == 2000001000 && !r.class_missing, "system-node-critical always exists");
	r = resolve(&s, "{\"priorityClassName\":\"system-cluster-critical\"}");
	CHECK(r.value == 2000000000, "system-cluster-critical always exists");
	r = resolve(&s, "{\"priorityClassName\":\"nope\"}");
	CHECK(r.class_missing, "unknown class is reported missing");

	add(&s, "{\"metadata\":{\"name\":\"default1\"},\"value\":1000,\"globalDefault\":true}");
	r = resolve(&s, "{}");
	CHECK(r.value == 1000 && t_streq(r.class_name, "default1"), "pod without class gets the default");
	add(&s, "{\"metadata\":{\"name\":\"default2\"},\"value\":500,\"globalDefault\":true}");
	r = resolve(&s, "{}");
	CHECK(r.value == 500 && t_streq(r.class_name, "default2"), "several defaults: the lowest value wins");
	add(&s, "{\"metadata\":{\"name\":\"nonpreempting\"},\"value\":2000,\"preemptionPolicy\":\"Never\"}");
	r = resolve(&s, "{\"priorityClassName\":\"nonpreempting\"}");
	CHECK(r.value == 2000 && r.policy == PK_PREEMPT_NEVER, "preemptionPolicy comes from the class");
	r = resolve(&s, "{\"priorityClassName\":\"nonpreempting\",\"priority\":7}");
	CHECK(r.value == 7 && r.from_spec, "spec.priority, when present, is what the scheduler uses");

	/* What admission says about fields that contradict the class
	 * (TestPodAdmission's "pod with priority set that differs from the
	 * class" and the preemptionPolicy cases). */
	char why[600];
	CHECK(r.priority_conflict && r.class_value == 2000, "spec.priority 7 contradicts the class's 2000");
	CHECK(t_streq(pk_priority_admission_error(&r, why, sizeof why),
	              "the integer value of priority (7) must not be provided in pod spec; priority admission "
	              "controller computed 2000 from the given PriorityClass name"),
	      "upstream's message for the priority: %s", why);
	r = resolve(&s, "{\"priorityClassName\":\"nonpreempting\",\"priority\":2000,\"preemptionPolicy\":\"PreemptLowerPriority\"}");
	CHECK(!r.priority_conflict && r.policy_conflict && r.policy == PK_PREEMPT_LOWER, "policy contradicts the class");
	CHECK(t_streq(pk_priority_admission_error(&r, why, sizeof why),
	              "the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; "
	              "priority admission controller computed Never from the given PriorityClass name"),
	      "upstream's message for the policy: %s", why);
	r = resolve(&s, "{\"priorityClassName\":\"nonpreempting\",\"priority\":2000,\"preemptionPolicy\":\"Never\"}");
	CHECK(!pk_priority_admission_error(&r, why, sizeof why), "fields that agree with the class are admitted");
	r = resolve(&s, "{\"priorityClassName\":\"nope\",\"priority\":5}");
	CHECK(r.class_missing && r.value == 5 && !r.priority_conflict, "a missing class: spec.priority used");
	CHECK(t_streq(pk_priority_admission_error(&r, why, sizeof why), "no PriorityClass with name nope was found"),
	      "upstream's message for a missing class");
	r = resolve(&s, "{\"priority\":3}");
	CHECK(r.priority_conflict && r.class_value == 500, "no class named: checked against the global default");
	pk_pclass_set empty;
	pk_pclass_set_init(&empty);
	r = resolve(&empty, "{\"priority\":3}");
	CHECK(!r.priority_conflict && r.value == 3, "no class and no default: taken as written");
	pk_pclass_set_free(&empty);

	cJSON *bad = cJSON_Parse("{\"metadata\":{\"name\":\"big\"},\"value\":3000000000}");
	CHECK(pk_pclass_set_add(&s, bad) == -1, "values outside int32 are refused");
	cJSON_Delete(bad);
	bad = cJSON_Parse("{\"metadata\":{\"name\":\"system-node-critical\"},\"value\":5}");
	CHECK(pk_pclass_set_add(&s, bad) == -1, "a system class cannot be redefined");
	cJSON_Delete(bad);
	CHECK(pk_is_system_class_name("system-cluster-critical") && !pk_is_system_class_name("system-foo"),
	      "system class names");
	pk_pclass_set_free(&s);
	{
		/* No class and no default: admission computes 0, which a pod's
		 * own priority contradicts, once the input's classes are known. */
		pk_pclass_set only_system, with_classes;
		pk_pclass_set_init(&only_system);
		pk_pclass_set_init(&with_classes);
		add(&with_classes, "{\"metadata\":{\"name\":\"batch\"},\"value\":100}");
		const char *pod = "{\"priority\":5,\"preemptionPolicy\":\"Never\"}";
		pk_resolved_priority a = resolve(&only_system, pod);
		CHECK(!a.priority_conflict && !a.policy_conflict && a.value == 5,
		      "without the input's classes a pod's spec.priority is taken as written");
		pk_resolved_priority b = resolve(&with_classes, pod);
		CHECK(b.priority_conflict && b.policy_conflict && b.class_value == 0 && b.class_policy == PK_PREEMPT_LOWER,
		      "with classes but no default, spec.priority 5 contradicts the 0 admission computes");
		pk_resolved_priority c = resolve(&with_classes, "{\"priority\":0}");
		CHECK(!c.priority_conflict, "spec.priority 0 agrees with it");
		pk_pclass_set_free(&only_system);
		pk_pclass_set_free(&with_classes);
	}
	{
		/* Classes an input lacks, taken from the spec.priority admission
		 * wrote into the pods that name them, where they agree. */
		pk_pclass_set e;
		pk_pclass_set_init(&e);
		pk_preemption_policy never = PK_PREEMPT_NEVER;
		pk_class_evidence_note(&e, "high", "shop", "a", 100000, NULL);
		pk_class_evidence_note(&e, "high", "shop", "b", 100000, NULL);
		pk_class_evidence_note(&e, "quiet", "ml", "c", 5, &never);
		pk_class_evidence_note(&e, "mixed", "ns", "low", 10, NULL);
		pk_class_evidence_note(&e, "mixed", "ns", "high", 20, NULL);
		CHECK(pk_pclass_set_infer(&e) == 2, "two classes agreed on, one did not");
		const pk_pclass *h = pk_pclass_find(&e, "high");
		CHECK(h && h->value == 100000 && h->inferred_from == 2 && !h->global_default && h->policy == PK_PREEMPT_LOWER,
		      "high taken at 100000 from 2 pods");
		const pk_pclass *q = pk_pclass_find(&e, "quiet");
		CHECK(q && q->policy == PK_PREEMPT_NEVER, "their preemptionPolicy comes with it");
		CHECK(!pk_pclass_find(&e, "mixed"), "pods that disagree leave the class missing");
		pk_resolved_priority hr = resolve(&e, "{\"priorityClassName\":\"high\"}");
		CHECK(hr.value == 100000 && !hr.class_missing, "a new pod naming it resolves to its value");
		char buf[600];
		CHECK_STR(pk_class_evidence_text(pk_class_evidence_find(&e, "mixed"), buf, sizeof buf),
		          "PriorityClass \"mixed\" is not in the input, and the 2 pod(s) that name it disagree on its value "
		          "(10 on ns/low, 20 on ns/high): each keeps its spec.priority, and a pod without one cannot be "
		          "resolved (admission would reject it)",
		          "the disagreement named, with a pod on each side");
		CHECK_STR(pk_inferred_classes_text(&e, buf, sizeof buf),
		          "2 PriorityClass(es) not in the input taken from the spec.priority of the pods that name them "
		          "(admission wrote the class's value there): high 100000 (2 pod(s)), quiet 5 (1 pod(s))",
		          "the classes taken, in one sentence");
		add(&e, "{\"metadata\":{\"name\":\"high\"},\"value\":7}");
		CHECK(pk_pclass_find(&e, "high")->value == 7 && pk_pclass_find(&e, "high")->inferred_from == 0,
		      "a class applied later replaces the one taken from pods");
		pk_pclass_set_free(&e);
	}
	return T_DONE();
}
