/* The default score plugins (sched/score.h), with cases ported as data from
 * upstream's tests:
 *   noderesources/least_allocated_test.go TestLeastAllocatedScoringStrategy
 *     (kubernetes/kubernetes 008b3652959ca58af8be3fb5b6ecfe9ae7638282)
 *   tainttoleration/taint_toleration_test.go TestTaintTolerationScore
 *     (kubernetes/kubernetes 04c0d74f8e8bf18e93a9d8d082b218d3eb4c6395)
 * Upstream's quantities are kept: cpu "4000" is 4000 cores, memory bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "k8s/pod.h"
#include "sched/engine/engine.h"
#include "sched/engine/score.h"

static cJSON *parse(const char *text)
{
	cJSON *v = cJSON_Parse(text);
	if (!v)
		fprintf(stderr, "bad test JSON: %s\n", text);
	return v;
}

/* Scores of plugin for pod over the nodes of objs (name order), normalised;
 * -1 each when the plugin skips the pod. */
static void scores(const char *const *objs, const char *pod, int plugin, int64_t *out, long *n)
{
	pk_snapshot s;
	pk_snapshot_init(&s);
	bool take;
	char err[256];
	for (int i = 0; objs[i]; i++) {
		cJSON *o = parse(objs[i]);
		if (pk_snapshot_add(&s, o, i, &take, err, sizeof err) == PK_ADD_REJECTED)
			fprintf(stderr, "rejected: %s\n", err);
		cJSON_Delete(o);
	}
	pk_snapshot_finish(&s);
	cJSON *pj = parse(pod);
	pk_pod p;
	if (pk_pod_decode(&s.dec, pj, &p, err, sizeof err) != 0)
		fprintf(stderr, "decode: %s\n", err);
	const pk_nodeinfo *nodes[8];
	*n = s.nnodes;
	for (long i = 0; i < s.nnodes; i++)
		nodes[i] = &s.infos[i];
	if (pk_score_raw(&s, NULL, &p, plugin, nodes, *n, out))
		pk_score_normalize(plugin, out, *n);
	else
		for (long i = 0; i < *n; i++)
			out[i] = -1;
	pk_pod_release(&p);
	cJSON_Delete(pj);
	pk_snapshot_free(&s);
}

#define NODE(name, cpu, mem) \
	"{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\"},\"status\":{\"allocatable\":{\"cpu\":\"" cpu \
	"\",\"memory\":\"" mem "\",\"pods\":\"110\"}}}"
#define BOUND(node, cpu, mem, i) \
	"{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p-" node "-" cpu "-" mem "-" #i "\",\"uid\":\"u-" node cpu mem #i "\"}," \
	"\"spec\":{\"nodeName\":\"" node "\",\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"" cpu \
	"\",\"memory\":\"" mem "\"}}}]}}"
#define BARE(node, i) \
	"{\"kind\":\"Pod\",\"metadata\":{\"name\":\"bare-" #i "\",\"uid\":\"ub-" #i "\"},\"spec\":{\"nodeName\":\"" node "\"}}"
#define NOTHING "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{}}"
#define TWO_CONTAINERS \
	"{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[" \
	"{\"name\":\"a\",\"resources\":{\"requests\":{\"cpu\":\"1000\",\"memory\":\"2000\"}}}," \
	"{\"name\":\"b\",\"resources\":{\"requests\":{\"cpu\":\"2000\",\"memory\":\"3000\"}}}]}}"

typedef struct score_case {
	const char *name;
	const char *objs[8];
	const char *pod;
	int64_t want[3];
} score_case;

static void test_least_allocated(void)
{
	static const score_case cases[] = {
		{ "nothing scheduled, nothing requested", { NODE("node1", "4000", "10000"), NODE("node2", "4000", "10000") },
		  NOTHING, { 100, 100 } },
		{ "nothing scheduled, resources requested, differently sized nodes",
		  { NODE("node1", "4000", "10000"), NODE("node2", "6000", "10000") }, TWO_CONTAINERS, { 37, 50 } },
		{ "no resources requested, pods scheduled",
		  { NODE("node1", "4000", "10000"), NODE("node2", "4000", "10000"), BARE("node1", 1), BARE("node1", 2),
		    BARE("node2", 3), BARE("node2", 4) },
		  NOTHING, { 100, 100 } },
		{ "no resources requested, pods scheduled with resources",
		  { NODE("node1", "10000", "20000"), NODE("node2", "10000", "20000"), BOUND("node1", "3000", "0", 1),
		    BOUND("node1", "3000", "0", 2), BOUND("node2", "3000", "0", 1), BOUND("node2", "3000", "5000", 1) },
		  NOTHING, { 70, 57 } },
		{ "resources requested, pods scheduled with resources",
		  { NODE("node1", "10000", "20000"), NODE("node2", "10000", "20000"), BOUND("node1", "3000", "0", 1),
		    BOUND("node2", "3000", "5000", 1) },
		  TWO_CONTAINERS, { 57, 45 } },
		{ "resources requested, pods scheduled with resources, differently sized nodes",
		  { NODE("node1", "10000", "20000"), NODE("node2", "10000", "50000"), BOUND("node1", "3000", "0", 1),
		    BOUND("node2", "3000", "5000", 1) },
		  TWO_CONTAINERS, { 57, 60 } },
		{ "requested resources exceed node capacity",
		  { NODE("node1", "4000", "10000"), NODE("node2", "4000", "10000"), BOUND("node1", "3000", "0", 1),
		    BOUND("node2", "3000", "5000", 1) },
		  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[{\"name\":\"a\","
		  "\"resources\":{\"requests\":{\"cpu\":\"3000\",\"memory\":\"0\"}}}]}}",
		  { 50, 25 } },
		{ "zero node resources, pods scheduled with resources",
		  { "{\"kind\":\"Node\",\"metadata\":{\"name\":\"node1\"}}", "{\"kind\":\"Node\",\"metadata\":{\"name\":\"node2\"}}",
		    BOUND("node1", "3000", "0", 1), BOUND("node2", "3000", "5000", 1) },
		  NOTHING, { 0, 0 } },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		int64_t got[8];
		long n;
		scores(cases[i].objs, cases[i].pod, PK_SCORE_FIT, got, &n);
		CHECK(n == 2 && got[0] == cases[i].want[0] && got[1] == cases[i].want[1],
		      "LeastAllocated: %s: %lld %lld", cases[i].name, (long long)got[0], (long long)got[1]);
	}
}

#define TNODE(name, taints) "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\"},\"spec\":{\"taints\":[" taints "]}}"
#define TAINT(k, v, e) "{\"key\":\"" k "\",\"value\":\"" v "\",\"effect\":\"" e "\"}"
#define TPOD(tols) "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"pod1\"},\"spec\":{\"tolerations\":[" tols "]}}"
#define TOL(k, v, e) "{\"key\":\"" k "\",\"operator\":\"Equal\",\"value\":\"" v "\",\"effect\":\"" e "\"}"

static void test_taint_toleration(void)
{
	static const score_case cases[] = {
		{ "node with taints tolerated by the pod, gets a higher score than those node with intolerable taints",
		  { TNODE("nodeA", TAINT("foo", "bar", "PreferNoSchedule")), TNODE("nodeB", TAINT("foo", "blah", "PreferNoSchedule")) },
		  TPOD(TOL("foo", "bar", "PreferNoSchedule")), { 100, 0 } },
		{ "the nodes that all of their taints are tolerated by the pod, get the same score",
		  { TNODE("nodeA", ""), TNODE("nodeB", TAINT("cpu-type", "arm64", "PreferNoSchedule")),
		    TNODE("nodeC", TAINT("cpu-type", "arm64", "PreferNoSchedule") "," TAINT("disk-type", "ssd", "PreferNoSchedule")) },
		  TPOD(TOL("cpu-type", "arm64", "PreferNoSchedule") "," TOL("disk-type", "ssd", "PreferNoSchedule")),
		  { 100, 100, 100 } },
		{ "the more intolerable taints a node has, the lower score it gets.",
		  { TNODE("nodeA", ""), TNODE("nodeB", TAINT("cpu-type", "arm64", "PreferNoSchedule")),
		    TNODE("nodeC", TAINT("cpu-type", "arm64", "PreferNoSchedule") "," TAINT("disk-type", "ssd", "PreferNoSchedule")) },
		  TPOD(TOL("foo", "bar", "PreferNoSchedule")), { 100, 50, 0 } },
		{ "only taints and tolerations that have effect PreferNoSchedule are checked",
		  { TNODE("nodeA", ""), TNODE("nodeB", TAINT("cpu-type", "arm64", "NoSchedule")),
		    TNODE("nodeC", TAINT("cpu-type", "arm64", "PreferNoSchedule") "," TAINT("disk-type", "ssd", "PreferNoSchedule")) },
		  TPOD(TOL("cpu-type", "arm64", "NoSchedule") "," TOL("disk-type", "ssd", "NoSchedule")), { 100, 100, 0 } },
		{ "Default behaviour No taints and tolerations, lands on node with no taints",
		  { TNODE("nodeA", ""), TNODE("nodeB", TAINT("cpu-type", "arm64", "PreferNoSchedule")) }, TPOD(""), { 100, 0 } },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		int64_t got[8];
		long n;
		scores(cases[i].objs, cases[i].pod, PK_SCORE_TAINT, got, &n);
		bool ok = true;
		for (long k = 0; k < n; k++)
			ok &= got[k] == cases[i].want[k];
		CHECK(ok && n >= 2, "TaintToleration: %s", cases[i].name);
	}
}

#define ANODE(name, zone) "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\",\"labels\":{\"zone\":\"" zone "\"}}," \
	"\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\"}}}"

/* NodeAffinity: the weights of the matching preferred terms, normalised to
 * the highest (node_affinity_test.go TestNodeAffinityPriority's shape). */
static void test_node_affinity(void)
{
	const char *objs[] = { ANODE("a", "z1"), ANODE("b", "z2"), ANODE("c", "z3"), NULL };
	const char *pod = "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"affinity\":{\"nodeAffinity\":{"
	                  "\"preferredDuringSchedulingIgnoredDuringExecution\":["
	                  "{\"weight\":2,\"preference\":{\"matchExpressions\":[{\"key\":\"zone\",\"operator\":\"In\",\"values\":[\"z1\",\"z2\"]}]}},"
	                  "{\"weight\":3,\"preference\":{\"matchExpressions\":[{\"key\":\"zone\",\"operator\":\"In\",\"values\":[\"z2\"]}]}}]}}}}";
	int64_t got[8];
	long n;
	scores(objs, pod, PK_SCORE_AFFINITY, got, &n);
	CHECK(n == 3 && got[0] == 40 && got[1] == 100 && got[2] == 0, "NodeAffinity: 2 of 5, 5 of 5, 0: %lld %lld %lld",
	      (long long)got[0], (long long)got[1], (long long)got[2]);
	scores(objs, NOTHING, PK_SCORE_AFFINITY, got, &n);
	CHECK(got[0] == -1, "NodeAffinity skips a pod without preferred terms");
}

/* The pick: the highest weighted sum; equal sums go to the lowest name and
 * say so. */
static void test_pick(void)
{
	pk_snapshot s;
	pk_snapshot_init(&s);
	bool take;
	char err[256];
	const char *objs[] = { NODE("b", "4", "8Gi"), NODE("a", "4", "8Gi"), NODE("c", "4", "8Gi"), BOUND("a", "2", "1Gi", 1), NULL };
	for (int i = 0; objs[i]; i++) {
		cJSON *o = parse(objs[i]);
		pk_snapshot_add(&s, o, i, &take, err, sizeof err);
		cJSON_Delete(o);
	}
	pk_snapshot_finish(&s);
	cJSON *pj = parse(TWO_CONTAINERS);
	pk_pod p;
	pk_pod_decode(&s.dec, pj, &p, err, sizeof err);
	p.requests.cpu = 1000;
	const pk_nodeinfo *nodes[] = { &s.infos[0], &s.infos[1], &s.infos[2] };
	pk_placement pl;
	pk_score_nodes(&s, NULL, &p, nodes, 3, &pl);
	CHECK(pl.node && t_streq(pl.node->node->name, "b") && pl.ntop == 2,
	      "b and c tie above the busier a: the lowest name, b, and a tie of 2");
	char text[300];
	pk_placement_text(&pl, text, sizeof text);
	CHECK_STR(text,
	          "placed on b: score 474, the highest of 3 node(s), tied with 1 other(s): the lowest name taken (upstream: at random)",
	          "the reason says the tie");
	pk_pod_release(&p);
	cJSON_Delete(pj);
	pk_snapshot_free(&s);
}

int main(void)
{
	test_least_allocated();
	test_taint_toleration();
	test_node_affinity();
	test_pick();
	return T_DONE();
}
