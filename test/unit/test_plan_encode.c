/* The PreemptionPlan's one encoder (common/sched/report/plan.c) and the
 * Preemptor record's (records.c) write the same JSON as a tree (-o html
 * keeps it) and as text (NDJSON): a plan that preempts, with its actions,
 * pod-group disruptions and nodeResources; one that fits, with its
 * placement; victims' Preemptor record with its placement last, and its
 * NodeStatus records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/json.h"
#include "sched/engine/score/score.h"
#include "sched/report/plan.h"
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

/* A pending pod requesting cpu, decoded into the snapshot's arena. */
static pk_pod *pending(pk_snapshot *s, const char *name, const char *cpu, cJSON **json)
{
	char text[512], err[256];
	snprintf(text, sizeof text, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"a\",\"uid\":\"u-%s\"},"
	         "\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"%s\"}}}]},"
	         "\"status\":{\"phase\":\"Pending\"}}", name, name, cpu);
	*json = cJSON_Parse(text);
	pk_pod *p = pk_arena_alloc(&s->arena, sizeof *p);
	if (pk_pod_decode(&s->dec, *json, p, err, sizeof err) != 0) {
		fprintf(stderr, "cannot decode %s: %s\n", name, err);
		exit(2);
	}
	return p;
}

/* The tree's compact print and the text, compared; the tree kept. */
static cJSON *same_both_ways(const pk_plan *p, const char *what)
{
	cJSON *tree = pk_plan_json(p);
	char *want = cJSON_PrintUnformatted(tree);
	char *got = pk_plan_text(p);
	bool same = want && got && strcmp(want, got) == 0;
	CHECK(same, "%s: the tree and the text are the same JSON", what);
	if (!same)
		fprintf(stderr, "tree: %s\ntext: %s\n", want, got);
	free(want);
	free(got);
	return tree;
}

static int calls(const cJSON *plan, const char *call)
{
	int n = 0;
	const cJSON *a;
	cJSON_ArrayForEach(a, pk_get(plan, "actions"))
		n += strcmp(pk_str_or(a, "call", ""), call) == 0;
	return n;
}

static void test_preempting_plan(pk_snapshot *s)
{
	cJSON *json;
	pk_pod *pod = pending(s, "big", "2", &json);
	pk_preemptor pre = { .pod = pod, .source = "Pod" };
	pk_eval_opts opts;
	pk_eval_opts_default(&opts);
	pk_evaluation e;
	pk_evaluate(s, &pre, &opts, &e);
	CHECK(e.status == PK_PRE_NEEDS_PREEMPTION && e.best >= 0, "the pod needs preemption (%d)", (int)e.status);
	if (e.best < 0)
		return;
	pk_plan p;
	pk_plan_of_pod(&p, &e, NULL, NULL);
	p.snap = s; /* as a --simulate step has it */
	p.requeued = 1;
	static const pk_group_disruption d[] = { { "a", "gang", false, true, 1, 2 } };
	p.num_pod_group_disruptions = 1;
	p.disruptions = d;
	p.ndisruptions = 1;
	cJSON *tree = same_both_ways(&p, "a plan that preempts");
	CHECK(calls(tree, "pod_delete") == 1 && calls(tree, "pod_status_patch") == 2,
	      "its actions: the victim's condition and delete, the preemptor's nomination");
	CHECK_STR(pk_str(cJSON_GetArrayItem(pk_get(tree, "nodeResources"), 0), "node"), "n1",
	          "nodeResources of the node it evicts from, from the snapshot");
	CHECK_STR(pk_str(cJSON_GetArrayItem(pk_get(tree, "podGroupDisruptions"), 0), "name"), "gang",
	          "its pod-group disruptions");
	cJSON_Delete(tree);
	pk_plan_free(&p);
	int statuses = 0, same = 0;
	for (long i = 0; i < e.nnodes; i++) { /* victims --explain's records */
		cJSON *rec = pk_node_status_json(&e, i);
		char *want = rec ? cJSON_PrintUnformatted(rec) : NULL, *got = pk_node_status_text(&e, i);
		statuses += rec != NULL;
		same += want && got && strcmp(want, got) == 0;
		free(want);
		free(got);
		cJSON_Delete(rec);
	}
	CHECK(statuses == 1 && same == 1, "the NodeStatus record of the node that is no candidate: the same both ways");
	pk_evaluation_free(&e);
	pk_pod_release(pod);
	cJSON_Delete(json);
}

static void test_fitting_plan_and_record(pk_snapshot *s)
{
	cJSON *json;
	pk_pod *pod = pending(s, "small", "500m", &json);
	pk_preemptor pre = { .pod = pod, .source = "Pod" };
	pk_eval_opts opts;
	pk_eval_opts_default(&opts);
	pk_evaluation e;
	pk_evaluate(s, &pre, &opts, &e);
	CHECK(e.status == PK_PRE_FITS, "the small pod fits (%d)", (int)e.status);
	pk_placement pl;
	pk_score_place(s, NULL, pod, &e, &pl);
	pk_plan p;
	pk_plan_of_pod(&p, &e, &pl, NULL);
	p.snap = s;
	p.assumed_on = pl.node;
	cJSON *tree = same_both_ways(&p, "a plan that places a pod that fits");
	CHECK_STR(pk_str(tree, "placement.node"), "n2", "its placement names the node the scores chose");
	CHECK_STR(pk_str(cJSON_GetArrayItem(pk_get(tree, "nodeResources"), 0), "node"), "n2",
	          "and nodeResources the node it is assumed onto");
	cJSON_Delete(tree);
	pk_plan_free(&p);

	cJSON *rec = pk_preemptor_json(&e, &pl);
	char *want = cJSON_PrintUnformatted(rec), *got = pk_preemptor_text(&e, &pl);
	CHECK(want && got && strcmp(want, got) == 0, "victims' Preemptor record: the tree and the text are the same");
	const cJSON *last = rec ? rec->child : NULL;
	while (last && last->next)
		last = last->next;
	CHECK(last && strcmp(last->string, "placement") == 0 && strcmp(pk_str_or(last, "node", ""), "n2") == 0,
	      "its placement is its last member, as victims has always written it");
	free(want);
	free(got);
	cJSON_Delete(rec);
	pk_evaluation_free(&e);
	pk_pod_release(pod);
	cJSON_Delete(json);
}

int main(void)
{
	pk_snapshot s;
	pk_snapshot_init(&s);
	add(&s, "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"},\"status\":{\"allocatable\":{\"cpu\":\"2\","
	        "\"memory\":\"8Gi\",\"pods\":\"110\"}}}");
	add(&s, "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\"},\"status\":{\"allocatable\":{\"cpu\":\"1\","
	        "\"memory\":\"8Gi\",\"pods\":\"110\"}}}");
	add(&s, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"low\",\"namespace\":\"a\",\"uid\":\"u-low\"},"
	        "\"spec\":{\"nodeName\":\"n1\",\"priority\":1,\"containers\":[{\"name\":\"c\",\"resources\":"
	        "{\"requests\":{\"cpu\":\"2\"}}}]},\"status\":{\"phase\":\"Running\"}}");
	pk_snapshot_finish(&s);
	test_preempting_plan(&s);
	test_fitting_plan_and_record(&s);
	pk_snapshot_free(&s);
	return T_DONE();
}
