/* pp-match ranking and claim reading, tested below the CLI.
 * Ports karmada pkg/detector compare_test.go Test_GetHigherPriority* (the
 * "empty name" case cannot be expressed as admitted objects, so it is tested
 * here on the comparator) and claim.go's key precedence. */
#include "t.h"

#include "karmada.h"

static pp_policy named(const char *name, int32_t priority)
{
	pp_policy p = {.kind = PP_PROPAGATION_POLICY, .name = name, .namespace = "test", .priority = priority};
	return p;
}

static void test_higher_priority_by_name(void)
{
	pp_policy a = named("A", 0), b = named("B", 0), abc = named("abc", 0), ab = named("ab", 0), empty = named("", 0);

	CHECK(pp_rank_compare(&a, PP_MATCH_NAME, &b, PP_MATCH_NAME) < 0, "same length of name: A before B");
	CHECK(pp_rank_compare(&abc, PP_MATCH_NAME, &ab, PP_MATCH_NAME) > 0, "different length of name: ab before abc");
	CHECK(pp_rank_compare(&empty, PP_MATCH_NAME, &ab, PP_MATCH_NAME) < 0, "someone policy name is empty: \"\" first");
	CHECK(pp_rank_compare(&ab, PP_MATCH_NAME, &ab, PP_MATCH_NAME) == 0, "a policy ties with itself");
}

static void test_explicit_then_implicit(void)
{
	pp_policy one = named("a-pp", 1), two = named("b-pp", 2), zero = named("a-pp", 0), neg = named("b-pp", -1);

	CHECK(pp_rank_compare(&two, PP_MATCH_LABEL_SELECTOR, &one, PP_MATCH_NAME) < 0,
	      "explicit priority 2 (label) beats 1 (name)");
	CHECK(pp_rank_compare(&zero, PP_MATCH_LABEL_SELECTOR, &neg, PP_MATCH_NAME) < 0,
	      "implicit 0 (label) beats explicit -1 (name)");
	pp_policy x = named("z", 1), y = named("a", 1);
	CHECK(pp_rank_compare(&x, PP_MATCH_NAME, &y, PP_MATCH_LABEL_SELECTOR) < 0,
	      "same explicit priority: name match beats label selector, whatever the names");
}

static pp_template template_from(const char *json)
{
	pp_template t;
	pk_origin at = {0};
	pp_template_init(&t, cJSON_Parse(json), &at, "default", NULL);
	return t;
}

static void test_claim_precedence(void)
{
	pp_template t = template_from(
		"{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"n\",\"namespace\":\"ns\","
		"\"labels\":{\"propagationpolicy.karmada.io/permanent-id\":\"p\","
		"\"clusterpropagationpolicy.karmada.io/permanent-id\":\"c\"},"
		"\"annotations\":{\"propagationpolicy.karmada.io/namespace\":\"ns\",\"propagationpolicy.karmada.io/name\":\"pp\","
		"\"clusterpropagationpolicy.karmada.io/name\":\"cpp\"}}}");
	pp_claim c = pp_claim_read(&t);
	CHECK(c.form == PP_CLAIM_PP && strcmp(c.name, "pp") == 0, "a complete PP claim is read before a CPP claim");
	pp_template_free(&t);

	t = template_from("{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"n\","
	                  "\"labels\":{\"propagationpolicy.karmada.io/permanent-id\":\"p\"},"
	                  "\"annotations\":{\"propagationpolicy.karmada.io/name\":\"pp\","
	                  "\"clusterpropagationpolicy.karmada.io/name\":\"cpp\"}}}");
	c = pp_claim_read(&t);
	CHECK(c.form == PP_CLAIM_NONE, "a PP claim without namespace and a CPP claim without id are no claim");
	CHECK_STR(t.namespace, "default", "a Service without namespace lands in the default namespace");
	pp_template_free(&t);

	t = template_from("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\",\"metadata\":{\"name\":\"r\","
	                  "\"labels\":{\"clusterpropagationpolicy.karmada.io/name\":\"old\"}}}");
	c = pp_claim_read(&t);
	CHECK(c.form == PP_CLAIM_CPP_LEGACY && strcmp(c.name, "old") == 0, "a pre-1.10 CPP label claim is read");
	CHECK_STR(t.namespace, "", "a ClusterRole stays cluster-scoped");
	pp_template_free(&t);
}

int main(void)
{
	test_higher_priority_by_name();
	test_explicit_then_implicit();
	test_claim_precedence();
	return T_DONE();
}
