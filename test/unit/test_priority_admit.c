/* The Priority admission plugin on a new pod (pk_priority_admit): cases
 * after plugin/pkg/admission/priority/admission_test.go TestPodAdmission -
 * a missing class, a spec.priority or spec.preemptionPolicy that differs
 * from the class's, with upstream's messages. */
#include "t.h"
#include "k8s/priority.h"

static bool admit(const pk_pclass_set *s, const char *spec_json, pk_resolved_priority *r, char *err, size_t size)
{
	cJSON *spec = cJSON_Parse(spec_json);
	err[0] = '\0';
	bool ok = pk_priority_admit(s, spec, r, err, size);
	cJSON_Delete(spec);
	return ok;
}

int main(void)
{
	pk_pclass_set s;
	pk_pclass_set_init(&s);
	cJSON *pc = cJSON_Parse("{\"metadata\":{\"name\":\"shop\"},\"value\":1000}");
	pk_pclass_set_add(&s, pc);
	cJSON_Delete(pc);
	pc = cJSON_Parse("{\"metadata\":{\"name\":\"quiet\"},\"value\":50,\"preemptionPolicy\":\"Never\"}");
	pk_pclass_set_add(&s, pc);
	cJSON_Delete(pc);
	pk_resolved_priority r;
	char err[512];

	CHECK(admit(&s, "{\"priorityClassName\":\"shop\"}", &r, err, sizeof err) && r.value == 1000,
	      "a known class admits and resolves (%s)", err);
	CHECK(admit(&s, "{}", &r, err, sizeof err) && r.value == 0 && r.policy == PK_PREEMPT_LOWER,
	      "no class and no default: 0, PreemptLowerPriority");
	CHECK(!admit(&s, "{\"priorityClassName\":\"nope\"}", &r, err, sizeof err) &&
	      t_streq(err, "no PriorityClass with name nope was found"), "a missing class is rejected: %s", err);
	CHECK(admit(&s, "{\"priorityClassName\":\"shop\",\"priority\":1000}", &r, err, sizeof err),
	      "spec.priority equal to the class's value is admitted");
	CHECK(!admit(&s, "{\"priorityClassName\":\"shop\",\"priority\":7}", &r, err, sizeof err) &&
	      t_streq(err, "the integer value of priority (7) must not be provided in pod spec; priority admission "
	                   "controller computed 1000 from the given PriorityClass name"),
	      "another spec.priority is rejected: %s", err);
	CHECK(!admit(&s, "{\"priority\":5}", &r, err, sizeof err) && strstr(err, "computed 0"),
	      "spec.priority without a class or a default: admission computes 0");
	CHECK(!admit(&s, "{\"priorityClassName\":\"quiet\",\"preemptionPolicy\":\"PreemptLowerPriority\"}", &r, err,
	             sizeof err) &&
	      t_streq(err, "the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod "
	                   "spec; priority admission controller computed Never from the given PriorityClass name"),
	      "a preemptionPolicy contradicting the class is rejected: %s", err);
	CHECK(admit(&s, "{\"priorityClassName\":\"quiet\",\"preemptionPolicy\":\"Never\"}", &r, err, sizeof err) &&
	      r.policy == PK_PREEMPT_NEVER, "the class's own policy is admitted");
	pk_pclass_set_free(&s);
	return T_DONE();
}
