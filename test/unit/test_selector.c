/* Label selectors: cases after apimachinery's labels selector_test.go
 * (TestSelectorMatches, TestRequirementConstructor) and metav1
 * TestLabelSelectorAsSelector, plus the policy/v1 PDB rules (nil selector
 * matches nothing, empty selector matches everything). */
#include <stdlib.h>

#include "t.h"
#include "k8s/pod.h"
#include "k8s/selector.h"

/* The matcher over a cJSON map, and -2 when the one over the same map
 * packed as a pod keeps it (pk_intern_labels) disagrees. */
static int both_matchers(const pk_selector *s, const cJSON *labels)
{
	int m = pk_selector_matches(s, labels);
	pk_strtab *t = pk_strtab_new();
	const pk_labels *packed = pk_intern_labels(t, labels);
	if (pk_selector_matches_labels(s, packed) != m)
		m = -2;
	pk_strtab_free(t);
	return m;
}

static int matches(const char *sel_json, const char *labels_json)
{
	cJSON *sel = cJSON_Parse(sel_json), *labels = labels_json ? cJSON_Parse(labels_json) : NULL;
	pk_selector s;
	char err[200];
	int rc = pk_selector_compile(sel, &s, err, sizeof err);
	int m = rc == 0 ? both_matchers(&s, labels) : -1;
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
	int m = rc == 0 ? both_matchers(&s, labels) : -1;
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
	/* A packed map reads as the cJSON one: values by key (the last of a
	 * repeated key), pairs shared between maps, 4 bytes a label. */
	{
		pk_strtab *t = pk_strtab_new();
		cJSON *a = cJSON_Parse("{\"app\":\"web\",\"tier\":\"db\",\"app\":\"api\",\"n\":7}");
		cJSON *b = cJSON_Parse("{\"tier\":\"db\",\"app\":\"web\"}");
		const pk_labels *pa = pk_intern_labels(t, a), *pb = pk_intern_labels(t, b);
		CHECK(pa && pa->n == 2, "non-string members and a repeated key's earlier value are left out (got %u)",
		      pa ? pa->n : 0);
		CHECK_STR(pk_labels_value(pa, "app"), "api", "a repeated key reads as its last value, as label_value does");
		CHECK(pk_labels_value(pa, "n") == NULL && pk_labels_value(NULL, "app") == NULL, "absent keys and maps read NULL");
		CHECK(pk_labels_pair(pa, 1) == pk_labels_pair(pb, 0), "equal pairs of two maps are one pair");
		CHECK(pk_labels_value(pb, pk_intern(t, "app")) == pk_intern(t, "web"),
		      "an interned key finds the interned value");
		/* The one lookup, whatever reads the map: every pair of a packed
		 * map has its own key, so a scan that stops at the first match (as
		 * the topology lookups of InterPodAffinity and PodTopologySpread
		 * did) reads what encoding/json would, the last value. */
		cJSON *dup = cJSON_Parse("{\"topology.kubernetes.io/zone\":\"a\",\"topology.kubernetes.io/zone\":\"b\"}");
		const pk_labels *pd = pk_intern_labels(t, dup);
		CHECK(pd && pd->n == 1 && strcmp(pk_labels_pair(pd, 0)->value, "b") == 0,
		      "a zone label given twice packs as one pair, the last value (first-match read 'a')");
		pk_selector zone;
		cJSON *want_b = cJSON_Parse("{\"topology.kubernetes.io/zone\":\"b\"}");
		pk_selector_compile_map(want_b, &zone);
		CHECK(pk_selector_matches_labels(&zone, pd) && pk_selector_matches(&zone, dup),
		      "packed and cJSON maps agree on a repeated key");
		pk_selector_free(&zone);
		cJSON_Delete(want_b);
		cJSON_Delete(dup);
		CHECK(pk_intern_labels(t, cJSON_GetObjectItem(a, "n")) == NULL, "a member that is no object packs to NULL");
		cJSON_Delete(a);
		cJSON_Delete(b);
		pk_strtab_free(t);
	}
	/* Through the tables' growth (300,000 pairs, 16,000 values under each
	 * of 19 keys, more than four chunks): every pair is numbered once, in
	 * order, and found again; every string is found again, and one it does
	 * not hold is not. */
	{
		enum { N = 300000 };
		pk_strtab *t = pk_strtab_new();
		uint32_t *id = malloc(sizeof *id * N);
		int wrong = 0, lost = 0;
		for (int pass = 0; pass < 2; pass++) {
			for (int i = 0; i < N; i++) {
				char k[32], v[32];
				snprintf(k, sizeof k, "key-%d", i % 19);
				snprintf(v, sizeof v, "v%d", i / 19);
				cJSON *m = cJSON_CreateObject();
				cJSON_AddStringToObject(m, k, v);
				const pk_labels *l = pk_intern_labels(t, m);
				const pk_label_pair *kv = pk_labels_pair(l, 0);
				if (strcmp(kv->key, k) != 0 || strcmp(kv->value, v) != 0)
					wrong++;
				if (pass == 0)
					id[i] = l->ids[0];
				else if (l->ids[0] != id[i] || pk_strtab_find(t, v) != kv->value)
					lost++;
				cJSON_Delete(m);
			}
		}
		int order = 0;
		for (int i = 0; i < N; i++)
			order += id[i] != (uint32_t)i;
		CHECK(!wrong && !lost && !order, "300,000 pairs: %d read wrong, %d not found again, %d out of order", wrong,
		      lost, order);
		CHECK(pk_strtab_find(t, "v20000") == NULL && pk_strtab_find(t, "key-19") == NULL,
		      "a string the table does not hold is not found");
		free(id);
		pk_strtab_free(t);
	}
	return T_DONE();
}
