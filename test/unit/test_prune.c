/* Leaving out members before parsing: the result must parse, and equal the
 * original without those members. */
#include "t.h"
#include <stdlib.h>
#include "io/internal.h"
#include "sched/engine/engine.h"

static const char *const drop[] = { "metadata.managedFields", "status.containerStatuses", "spec.volumes",
	                                    "spec.containers[].env", "spec.template.spec.containers[].env", NULL };

static void same(const char *in, const char *want)
{
	char out[4096];
	pk_prune_set set;
	pk_prune_compile(drop, &set);
	size_t n = pk_prune_members(in, strlen(in), out, &set);
	out[n] = '\0';
	cJSON *a = cJSON_Parse(out), *b = cJSON_Parse(want);
	CHECK(a && b && cJSON_Compare(a, b, 1), "prune %s -> %s (got %s)", in, want, out);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

/* The engine's own list: every pattern compiled (the set has room for 64),
 * and what victim selection reads survives it. */
static void test_snapshot_list(void)
{
	pk_prune_set set;
	pk_prune_compile(pk_snapshot_unused_members, &set);
	int n = 0;
	while (pk_snapshot_unused_members[n])
		n++;
	CHECK(set.n == n, "all %d patterns of the list compiled (%d)", n, set.n);
	const char *pod =
		"{\"metadata\":{\"name\":\"p\",\"resourceVersion\":\"1\",\"ownerReferences\":[{\"apiVersion\":\"apps/v1\","
		"\"kind\":\"ReplicaSet\",\"name\":\"rs\",\"uid\":\"u\",\"controller\":true}]},"
		"\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\",\"ports\":[{\"name\":\"http\",\"hostPort\":80,"
		"\"containerPort\":80}],\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"volumes\":[{\"name\":\"a\","
		"\"projected\":{\"sources\":[]}},{\"name\":\"b\",\"persistentVolumeClaim\":{\"claimName\":\"c\"}}],"
		"\"tolerations\":[{\"key\":\"k\",\"operator\":\"Exists\",\"tolerationSeconds\":300}]},"
		"\"status\":{\"conditions\":[{\"type\":\"DisruptionTarget\",\"status\":\"True\",\"reason\":\"PreemptionByScheduler\","
		"\"message\":\"m\",\"lastTransitionTime\":\"t\"}],\"qosClass\":\"Burstable\",\"startTime\":\"s\"}}";
	const char *want =
		"{\"metadata\":{\"name\":\"p\",\"ownerReferences\":[{\"kind\":\"ReplicaSet\",\"name\":\"rs\","
		"\"controller\":true}]},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\",\"ports\":[{\"hostPort\":80}],"
		"\"resources\":{\"requests\":{\"cpu\":\"1\"}}}],\"volumes\":[{\"name\":\"a\"},"
		"{\"name\":\"b\",\"persistentVolumeClaim\":{\"claimName\":\"c\"}}],"
		"\"tolerations\":[{\"key\":\"k\",\"operator\":\"Exists\"}]},"
		"\"status\":{\"conditions\":[{\"type\":\"DisruptionTarget\",\"status\":\"True\","
		"\"reason\":\"PreemptionByScheduler\"}],\"startTime\":\"s\"}}";
	char out[4096];
	size_t len = pk_prune_members(pod, strlen(pod), out, &set);
	out[len] = '\0';
	cJSON *a = cJSON_Parse(out), *b = cJSON_Parse(want);
	CHECK(a && b && cJSON_Compare(a, b, 1), "a pod keeps what the engine reads (got %s)", out);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

int main(void)
{
	test_snapshot_list();
	same("{\"metadata\":{\"name\":\"a\",\"managedFields\":[{\"x\":{\"y\":1}}],\"uid\":\"u\"}}",
	     "{\"metadata\":{\"name\":\"a\",\"uid\":\"u\"}}");
	same("{\"metadata\":{\"managedFields\":[1,2],\"name\":\"a\"}}", "{\"metadata\":{\"name\":\"a\"}}");
	same("{\"metadata\":{\"name\":\"a\",\"managedFields\":[]}}", "{\"metadata\":{\"name\":\"a\"}}");
	same("{\"metadata\":{\"managedFields\":null}}", "{\"metadata\":{}}");
	same("{\n    \"metadata\": {\n        \"managedFields\": [\n            {\"a\": \"}]\\\"\"}\n        ],\n        \"name\": \"p\"\n    }\n}",
	     "{\"metadata\":{\"name\":\"p\"}}");
	same("{\"spec\":{\"managedFields\":1},\"metadata\":{\"labels\":{\"managedFields\":\"x\"}}}",
	     "{\"spec\":{\"managedFields\":1},\"metadata\":{\"labels\":{\"managedFields\":\"x\"}}}");
	same("{\"status\":{\"phase\":\"Running\",\"containerStatuses\":[{\"name\":\"c\"}],\"startTime\":\"t\"},"
	     "\"spec\":{\"volumes\":[{\"name\":\"v\"}]}}",
	     "{\"status\":{\"phase\":\"Running\",\"startTime\":\"t\"},\"spec\":{}}");
	same("{\"items\":[{\"metadata\":{\"managedFields\":1}}]}", "{\"items\":[{\"metadata\":{\"managedFields\":1}}]}");
	same("{\"metadata\":{\"name\":\"managedFields\",\"annotations\":{\"a\":\"b\"}}}",
	     "{\"metadata\":{\"name\":\"managedFields\",\"annotations\":{\"a\":\"b\"}}}");
	same("{\"spec\":{\"containers\":[{\"name\":\"a\",\"env\":[{\"name\":\"X\"}],\"image\":\"i\"},"
	     "{\"env\":[],\"name\":\"b\"}]}}",
	     "{\"spec\":{\"containers\":[{\"name\":\"a\",\"image\":\"i\"},{\"name\":\"b\"}]}}");
	same("{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"env\":[1],\"name\":\"c\"}]}}}}",
	     "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\"}]}}}}");
	same("{\"spec\":{\"initContainers\":[{\"env\":[1]}],\"containers\":{\"env\":1}}}",
	     "{\"spec\":{\"initContainers\":[{\"env\":[1]}],\"containers\":{\"env\":1}}}");
	/* values skipped 64 bytes at a time: brackets inside strings, a
	 * string across a block's end, a backslash, deep nesting */
	same("{\"metadata\":{\"managedFields\":[{\"f:metadata\":{\"f:labels\":{\".\":{},\"f:app\":{}}},"
	     "\"s\":\"]]]}}}[[[{{{ not brackets ]]]}}}\",\"t\":\"0123456789012345678901234567890123456789012345\"},"
	     "[[[[[[{\"k\":\"{\\\"uid\\\":\\\"x\\\"}\"}]]]]]],{\"long\":\"a string that runs past the end of a 64-byte block\"}],\"name\":\"p\",\"uid\":\"u\"}}",
	     "{\"metadata\":{\"name\":\"p\",\"uid\":\"u\"}}");
	for (int pad = 0; pad < 70; pad++) { /* the value's end at every offset of a block */
		char in[512], x[80];
		memset(x, 'x', (size_t)pad);
		x[pad] = '\0';
		snprintf(in, sizeof in, "{\"status\":{\"containerStatuses\":[{\"name\":\"%s\",\"a\":[[{}],\"]\"]}]"
		         ",\"phase\":\"Running\"}}", x);
		same(in, "{\"status\":{\"phase\":\"Running\"}}");
	}
	/* kept strings found whole from a block's quotes: an escaped quote, a
	 * comma and brackets inside a member name or value must not be taken
	 * for structure */
	same("{\"metadata\":{\"a\\\"b,{[\":\"x\\\",\\\"managedFields\\\":[1]\",\"managedFields\":[2],"
	     "\"name\":\"0123456789012345678901234567890123456789012345678901234567890123\"}}",
	     "{\"metadata\":{\"a\\\"b,{[\":\"x\\\",\\\"managedFields\\\":[1]\","
	     "\"name\":\"0123456789012345678901234567890123456789012345678901234567890123\"}}");
	return T_DONE();
}
