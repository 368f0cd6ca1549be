/* Label selectors: cases after apimachinery's labels selector_test.go
 * (TestSelectorMatches, TestRequirementConstructor) and metav1
 * TestLabelSelectorAsSelector, plus the policy/v1 PDB rules (nil selector
 * matches nothing, empty selector matches everything). */
#include "t.h"
#include "k8s/selector.h"

static int matches(const char *sel_json, const char *labels_json)
{
	cJSON *sel = cJSON_Parse(sel_json), *labels = labels_json ? cJSON_Parse(labels_json) : NULL;
	pk_selector s;
	char err[200];
	int rc = pk_selector_compile(sel, &s, err, sizeof err);
	int m = rc == 0 ? pk_selector_matches(&s, labels) : -1;
	pk_selector_free(&s);
	cJSON_Delete(sel);
	cJSON_Delete(labels);
	return m;
}

static int node_matches(const char *reqs_json, const char *labels_json)
{
	cJSON *reqs = cJSON_Parse(reqs_json), *labels = cJSON_Parse(labels_json);
	pk_selector s;
	char err[200];
	int rc = pk_selector_compile_node_reqs(reqs, &s, err, sizeof err);
	int m = rc == 0 ? pk_selector_matches(&s, labels) : -1;
	pk_selector_free(&s);
	cJSON_Delete(reqs);
	cJSON_Delete(labels);
	return m;
}

int main(void)
{
	CHECK(matches("{}", "{\"x\":\"y\"}") == 1, "empty selector matches everything");
	CHECK(matches("{}", NULL) == 1, "empty selector matches an unlabeled pod");
	CHECK(matches("null", "{\"x\":\"y\"}") == 0, "nil selector matches nothing");
	CHECK(matches("{\"matchLabels\":{\"x\":\"y\"}}", "{\"x\":\"y\"}") == 1, "x=y matches");
	CHECK(matches("{\"matchLabels\":{\"x\":\"y\"}}", "{\"x\":\"z\"}") == 0, "x=y vs x=z");
	CHECK(matches("{\"matchLabels\":{\"x\":\"y\",\"a\":\"b\"}}", "{\"x\":\"y\"}") == 0, "all labels needed");
	CHECK(matches("{\"matchLabels\":{\"x\":\"\"}}", "{\"x\":\"\"}") == 1, "empty value matches empty value");
	CHECK(matches("{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"In\",\"values\":[\"a\",\"y\"]}]}",
	              "{\"x\":\"y\"}") == 1, "In");
	CHECK(matches("{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"In\",\"values\":[\"a\"]}]}",
	              "{}") == 0, "In needs the label");
	CHECK(matches("{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"NotIn\",\"values\":[\"y\"]}]}",
	              "{\"x\":\"y\"}") == 0, "NotIn excludes");
	CHECK(matches("{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"NotIn\",\"values\":[\"y\"]}]}",
	              "{}") == 1, "NotIn matches a missing label");
	CHECK(matches("{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"Exists\"}]}", "{\"x\":\"\"}") == 1, "Exists");
	CHECK(matches("{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"Exists\"}]}", "{\"y\":\"\"}") == 0, "Exists misses");
	CHECK(matches("{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"DoesNotExist\"}]}", "{\"y\":\"1\"}") == 1,
	      "DoesNotExist");
	CHECK(matches("{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"DoesNotExist\"}]}", "{\"x\":\"1\"}") == 0,
	      "DoesNotExist misses");
	CHECK(matches("{\"matchLabels\":{\"a\":\"b\"},\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"Exists\"}]}",
	              "{\"a\":\"b\",\"x\":\"1\"}") == 1, "labels and expressions are ANDed");
	CHECK(matches("{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"In\",\"values\":[]}]}", "{}") == -1,
	      "In without values is invalid");
	CHECK(matches("{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"Exists\",\"values\":[\"a\"]}]}", "{}") == -1,
	      "Exists with values is invalid");
	CHECK(matches("{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"Gt\",\"values\":[\"1\"]}]}", "{}") == -1,
	      "Gt is not a label selector operator");
	CHECK(matches("{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"in\",\"values\":[\"a\"]}]}", "{}") == -1,
	      "operators are case sensitive");
	CHECK(node_matches("[{\"key\":\"n\",\"operator\":\"Gt\",\"values\":[\"5\"]}]", "{\"n\":\"6\"}") == 1, "node Gt");
	CHECK(node_matches("[{\"key\":\"n\",\"operator\":\"Gt\",\"values\":[\"5\"]}]", "{\"n\":\"5\"}") == 0, "node Gt strict");
	CHECK(node_matches("[{\"key\":\"n\",\"operator\":\"Lt\",\"values\":[\"5\"]}]", "{\"n\":\"x\"}") == 0,
	      "node Lt on a non-integer label");
	CHECK(node_matches("[{\"key\":\"n\",\"operator\":\"Lt\",\"values\":[\"5\",\"6\"]}]", "{}") == -1,
	      "node Lt needs exactly one value");
	CHECK(matches("{\"matchExpressions\":\"no\"}", "{}") == -1, "matchExpressions must be a list");
	CHECK(matches("{\"matchLabels\":{\"a\":1}}", "{\"a\":\"1\"}") == -1, "matchLabels values must be strings");
	pk_selector s;
	cJSON *map = cJSON_Parse("{\"disktype\":\"ssd\"}"), *l1 = cJSON_Parse("{\"disktype\":\"ssd\",\"z\":\"1\"}");
	pk_selector_compile_map(map, &s);
	CHECK(pk_selector_matches(&s, l1), "nodeSelector map matches a superset of labels");
	pk_selector_free(&s);
	cJSON_Delete(map);
	cJSON_Delete(l1);
	return T_DONE();
}
