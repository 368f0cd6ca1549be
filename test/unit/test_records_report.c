/* What the records carry for reports (common/sched/records.h): a victim's
 * owner workload and PriorityClass, a node's requests before and after. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/json.h"
#include "sched/report/records.h"
#include "t.h"

static void add(pk_snapshot *s, const char *json)
{
	cJSON *o = cJSON_Parse(json);
	bool take = false;
	char err[256];
	if (!o || pk_snapshot_add(s, o, 0, &take, err, sizeof err) != PK_ADD_USED) {
		fprintf(stderr, "cannot add %s: %s\n", json, err);
		exit(2);
	}
	if (!take)
		cJSON_Delete(o);
}

static const pk_pod *pod(const pk_snapshot *s, const char *name)
{
	for (long i = 0; i < s->npods; i++)
		if (strcmp(s->pods[i]->name, name) == 0)
			return s->pods[i];
	return NULL;
}

/* A quantity of a ResourceList (names hold dots: no path lookup). */
static const char *qty(const cJSON *res, const char *list, const char *name)
{
	const cJSON *q = pk_get(pk_get(res, list), name);
	return cJSON_IsString(q) ? q->valuestring : NULL;
}

static void test_owner(const pk_snapshot *s)
{
	pk_victim_ref r;
	pk_victim_ref_of_pod(&r, pod(s, "web-abc12-x1"));
	cJSON *o = pk_victim_ref_json(&r);
	CHECK_STR(pk_str(o, "owner.kind"), "Deployment", "a ReplicaSet named <deployment>-<hash>: the Deployment");
	CHECK_STR(pk_str(o, "owner.name"), "web", "named as the ReplicaSet's name says");
	CHECK_STR(pk_str(o, "priorityClassName"), "low", "the victim's PriorityClass");
	pk_strtab *strs = pk_strtab_new();
	pk_victim_ref back;
	CHECK(pk_victim_ref_from_json(o, strs, &back) && strcmp(back.owner_kind, "Deployment") == 0 &&
	      strcmp(back.owner_name, "web") == 0 && strcmp(back.class_name, "low") == 0,
	      "owner and class survive a round trip through the record");
	cJSON_Delete(o);

	pk_victim_ref_of_pod(&r, pod(s, "rs-only-1"));
	o = pk_victim_ref_json(&r);
	CHECK_STR(pk_str(o, "owner.kind"), "ReplicaSet", "a ReplicaSet without the hash in its name stays one");
	cJSON_Delete(o);
	pk_victim_ref_of_pod(&r, pod(s, "job-1"));
	o = pk_victim_ref_json(&r);
	CHECK_STR(pk_str(o, "owner.name"), "nightly", "a Job's pod: the Job");
	cJSON_Delete(o);
	pk_victim_ref_of_pod(&r, pod(s, "bare"));
	o = pk_victim_ref_json(&r);
	CHECK(pk_get(o, "owner") == NULL && pk_get(o, "priorityClassName") == NULL,
	      "no controller, no class: the members are left out");
	CHECK(pk_victim_ref_from_json(o, strs, &back) && back.owner_kind == NULL, "and read back as absent");
	cJSON_Delete(o);
	pk_strtab_free(strs);
}

static void test_resources(pk_snapshot *s)
{
	const pk_nodeinfo *ni = pk_snapshot_node(s, "n1");
	const pk_pod *gone[] = { pod(s, "web-abc12-x1") };
	const pk_pod *pre[] = { pod(s, "preemptor") }, *held[] = { pod(s, "held") };
	cJSON *o = pk_node_resources_json(ni, gone, 1, pre, 1);
	CHECK_STR(pk_str(o, "node"), "n1", "the node");
	CHECK_STR(qty(o, "allocatable", "cpu"), "4", "allocatable cpu");
	CHECK_STR(qty(o, "allocatable", "example.com/gpu"), "2", "an extended resource's allocatable");
	CHECK_STR(qty(o, "requested", "cpu"), "3500m", "requested: the bound pods and the nominated one");
	CHECK_STR(qty(o, "requested", "pods"), "5", "five pods hold room there, four bound, one nominated");
	CHECK_STR(qty(o, "requested", "example.com/gpu"), "1", "the victim's GPU");
	CHECK_STR(qty(o, "requestedAfter", "cpu"), "4500m", "after: the victim gone, the preemptor there");
	CHECK(qty(o, "requestedAfter", "example.com/gpu") == NULL, "a resource that drops to 0 is left out");
	CHECK_STR(qty(o, "requestedAfter", "memory"), "1073741824", "memory in bytes");
	cJSON_Delete(o);
	o = pk_node_resources_json(ni, NULL, 0, held, 1);
	CHECK_STR(qty(o, "requested", "cpu"), "2500m", "a plan's own pod, already nominated, is not counted before");
	CHECK_STR(qty(o, "requestedAfter", "cpu"), "3500m", "but after, once");
	cJSON_Delete(o);
}

/* A piped Candidate's nodeResources stays the tree it was read as: moved
 * out of the record into the candidate, written again as it came. */
static void test_candidate_resources(void)
{
	static const char res_text[] = "{\"node\":\"n1\",\"allocatable\":{\"cpu\":\"4\",\"pods\":110}}";
	char rec_text[256];
	snprintf(rec_text, sizeof rec_text, "{\"kind\":\"Candidate\",\"node\":\"n1\",\"victims\":[],"
	         "\"numPDBViolations\":0,\"nodeResources\":%s}", res_text);
	cJSON *rec = cJSON_Parse(rec_text);
	const cJSON *res = pk_get(rec, "nodeResources");
	pk_strtab *strs = pk_strtab_new();
	pk_arena a;
	pk_arena_init(&a);
	pk_candidate c;
	CHECK(pk_candidate_from_json(rec, strs, &a, &c) && c.node_resources == res && !pk_get(rec, "nodeResources"),
	      "the candidate holds the record's nodeResources tree, moved out of the record");
	pk_pod pre = { .namespace_ = "a", .name = "pre", .uid = "u-pre", .priority = 9 };
	char *text = pk_candidate_text(NULL, &pre, &c, 37);
	CHECK(text && strstr(text, res_text) != NULL, "and is written again as it came");
	free(text);
	cJSON_Delete(c.node_resources);
	cJSON_Delete(rec);
	pk_arena_free(&a);
	pk_strtab_free(strs);
}

int main(void)
{
	pk_snapshot s;
	pk_snapshot_init(&s);
	add(&s, "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"},\"status\":{\"allocatable\":{\"cpu\":\"4\","
	        "\"memory\":\"8Gi\",\"pods\":\"110\",\"example.com/gpu\":\"2\"}}}");
	add(&s, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"web-abc12-x1\",\"namespace\":\"a\",\"labels\":"
	        "{\"pod-template-hash\":\"abc12\"},\"ownerReferences\":[{\"kind\":\"ReplicaSet\",\"name\":\"web-abc12\","
	        "\"controller\":true}]},\"spec\":{\"nodeName\":\"n1\",\"priorityClassName\":\"low\",\"priority\":1,"
	        "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1\",\"memory\":\"1Gi\","
	        "\"example.com/gpu\":\"1\"}}}]}}");
	add(&s, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"rs-only-1\",\"namespace\":\"a\",\"ownerReferences\":"
	        "[{\"kind\":\"Pod\",\"name\":\"not-the-controller\"},{\"kind\":\"ReplicaSet\",\"name\":\"rs-only\","
	        "\"controller\":true}]},\"spec\":{\"nodeName\":\"n1\",\"priority\":1,\"containers\":[{\"name\":\"c\","
	        "\"resources\":{\"requests\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"}}}]}}");
	add(&s, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"job-1\",\"namespace\":\"a\",\"ownerReferences\":"
	        "[{\"kind\":\"Job\",\"name\":\"nightly\",\"controller\":true}]},\"spec\":{\"nodeName\":\"n1\","
	        "\"priority\":1,\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]}}");
	add(&s, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"bare\",\"namespace\":\"a\"},\"spec\":{\"nodeName\":\"n1\","
	        "\"priority\":1,\"containers\":[{\"name\":\"c\"}]}}");
	add(&s, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"held\",\"namespace\":\"a\"},\"spec\":{\"priority\":9,"
	        "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]},"
	        "\"status\":{\"phase\":\"Pending\",\"nominatedNodeName\":\"n1\"}}");
	add(&s, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"preemptor\",\"namespace\":\"a\"},\"spec\":{\"priority\":9,"
	        "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"2\"}}}]}}");
	pk_snapshot_finish(&s);
	test_owner(&s);
	test_resources(&s);
	test_candidate_resources();
	pk_snapshot_free(&s);
	return T_DONE();
}
