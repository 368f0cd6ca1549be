/* The default score plugins (sched/score.h), with cases ported as data from
 * upstream's tests:
 *   noderesources/least_allocated_test.go TestLeastAllocatedScoringStrategy
 *     (kubernetes/kubernetes 008b3652959ca58af8be3fb5b6ecfe9ae7638282)
 *   tainttoleration/taint_toleration_test.go TestTaintTolerationScore
 *     (kubernetes/kubernetes 04c0d74f8e8bf18e93a9d8d082b218d3eb4c6395)
 *   interpodaffinity/scoring_test.go TestPreferredAffinity and
 *     TestPreferredAffinityWithHardPodAffinitySymmetricWeight
 *     (kubernetes/kubernetes 8a4d98ac2f6dfd69fc5649b7bb23de0add56be56): the
 *     cases of the default profile, less those that rest on a
 *     namespaceSelector (fixtures of victims, with the Namespace objects:
 *     test/fixtures/victims/TestPreferredAffinityWith...NamespaceSelector)
 *     or on non-default plugin arguments; upstream's namespace "" is
 *     "default" here
 *   imagelocality/image_locality_test.go TestImageLocalityPriority and
 *     TestNormalizedImageName (kubernetes/kubernetes, the version with the
 *     "include InitContainers" case; the index read gives no commit)
 * Upstream's quantities are kept: cpu "4000" is 4000 cores, memory bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "k8s/pod.h"
#include "k8s/profile.h"
#include "sched/engine/engine.h"
#include "sched/engine/score/score.h"
#include "sched/report/records.h"

static cJSON *parse(const char *text)
{
	cJSON *v = cJSON_Parse(text);
	if (!v)
		fprintf(stderr, "bad test JSON: %s\n", text);
	return v;
}

/* Scores of plugin for pod over the nodes of objs (name order), normalised;
 * -1 each when the plugin skips the pod. */
static void scores_with(pk_score_cache *cache, const char *const *objs, const char *pod, int plugin, int64_t *out,
                        long *n)
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
	if (pk_score_raw(&s, cache, &p, plugin, nodes, *n, out))
		pk_score_normalize(plugin, out, *n);
	else
		for (long i = 0; i < *n; i++)
			out[i] = -1;
	pk_pod_release(&p);
	cJSON_Delete(pj);
	pk_snapshot_free(&s);
}

static void scores(const char *const *objs, const char *pod, int plugin, int64_t *out, long *n)
{
	scores_with(NULL, objs, pod, plugin, out, n);
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
	          "placed on b: score 455, the highest of 3 node(s), tied with 1 other(s): the lowest name taken (upstream: at random)",
	          "the reason says the tie");
	pk_pod_release(&p);
	cJSON_Delete(pj);
	pk_snapshot_free(&s);
}

/* ---- InterPodAffinity ---- */

#define LNODE(name, labels) "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\",\"labels\":" labels "}}"
#define LPOD(i, node, ns, labels, affinity) \
	"{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p" #i "\",\"uid\":\"u" #i "\",\"namespace\":\"" ns "\"," \
	"\"labels\":" labels "},\"spec\":{\"nodeName\":\"" node "\",\"affinity\":" affinity "}}"
#define IPOD(ns, labels, affinity) LPOD(0, "", ns, labels, affinity)
#define CHINA "{\"region\":\"China\"}"
#define INDIA "{\"region\":\"India\"}"
#define AZ1 "{\"az\":\"az1\"}"
#define AZ2 "{\"az\":\"az2\"}"
#define CHINA_AZ1 "{\"region\":\"China\",\"az\":\"az1\"}"
#define S1 "{\"security\":\"S1\"}"
#define S2 "{\"security\":\"S2\"}"
#define NOLABELS "{}"
#define NOAFF "{}"
#define SEL_IN(key, vals) "{\"matchExpressions\":[{\"key\":\"" key "\",\"operator\":\"In\",\"values\":[" vals "]}]}"
#define WTERM(w, sel, key) "{\"weight\":" #w ",\"podAffinityTerm\":{\"labelSelector\":" sel ",\"topologyKey\":\"" key "\"}}"
#define PREF_AFF(terms) "\"podAffinity\":{\"preferredDuringSchedulingIgnoredDuringExecution\":[" terms "]}"
#define PREF_ANTI(terms) "\"podAntiAffinity\":{\"preferredDuringSchedulingIgnoredDuringExecution\":[" terms "]}"
#define STAY_S1_REGION "{" PREF_AFF(WTERM(5, SEL_IN("security", "\"S1\""), "region")) "}"
#define STAY_S2_REGION "{" PREF_AFF(WTERM(6, SEL_IN("security", "\"S2\""), "region")) "}"
#define AFFINITY3 \
	"{" PREF_AFF(WTERM(8, "{\"matchExpressions\":[{\"key\":\"security\",\"operator\":\"NotIn\",\"values\":[\"S1\"]}," \
	                    "{\"key\":\"security\",\"operator\":\"In\",\"values\":[\"S2\"]}]}", "region") "," \
	             WTERM(2, "{\"matchExpressions\":[{\"key\":\"security\",\"operator\":\"Exists\"}," \
	                    "{\"key\":\"wrongkey\",\"operator\":\"DoesNotExist\"}]}", "region")) "}"
#define HARD_AFFINITY \
	"{\"podAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":[" \
	"{\"labelSelector\":" SEL_IN("security", "\"S1\",\"value2\"") ",\"topologyKey\":\"region\"}," \
	"{\"labelSelector\":{\"matchExpressions\":[{\"key\":\"security\",\"operator\":\"Exists\"}," \
	"{\"key\":\"wrongkey\",\"operator\":\"DoesNotExist\"}]},\"topologyKey\":\"region\"}]}}"
#define AWAY_S1_AZ "{" PREF_ANTI(WTERM(5, SEL_IN("security", "\"S1\""), "az")) "}"
#define AWAY_S2_AZ "{" PREF_ANTI(WTERM(5, SEL_IN("security", "\"S2\""), "az")) "}"
#define STAY_S1_REGION_AWAY_S2_AZ \
	"{" PREF_AFF(WTERM(8, SEL_IN("security", "\"S1\""), "region")) "," \
	PREF_ANTI(WTERM(5, SEL_IN("security", "\"S2\""), "az")) "}"
#define SERVICE_S1 "{\"service\":\"S1\"}"
#define HARD_POD_AFFINITY \
	"{\"podAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":[{\"labelSelector\":" \
	SEL_IN("service", "\"S1\"") ",\"namespaces\":[\"default\",\"subteam2.team2\"],\"topologyKey\":\"region\"}]}}"

typedef struct ipa_case {
	const char *name;
	const char *objs[16];
	const char *pod;
	int64_t want[5];          /* {-1}: the plugin skips the pod */
} ipa_case;

static void check_cases(const char *plugin_name, int plugin, const ipa_case *cases, size_t ncases)
{
	for (size_t i = 0; i < ncases; i++) {
		int64_t got[8];
		long n;
		scores(cases[i].objs, cases[i].pod, plugin, got, &n);
		bool ok = n >= 1;
		char text[128] = "";
		for (long k = 0; k < n; k++) {
			ok &= got[k] == (cases[i].want[0] == -1 ? -1 : cases[i].want[k]);
			snprintf(text + strlen(text), sizeof text - strlen(text), " %lld", (long long)got[k]);
		}
		CHECK(ok, "%s: %s:%s", plugin_name, cases[i].name, text);
	}
}

static void test_interpod_affinity(void)
{
	static const ipa_case cases[] = {
		{ "all nodes are same priority as Affinity is nil",
		  { LNODE("node1", CHINA), LNODE("node2", INDIA), LNODE("node3", AZ1) }, IPOD("default", S1, NOAFF), { -1 } },
		{ "Affinity: pod that matches topology key & pods in nodes will get high score comparing to others"
		  "which doesn't match either pods in nodes or in topology key",
		  { LNODE("node1", CHINA), LNODE("node2", INDIA), LNODE("node3", AZ1), LPOD(1, "node1", "default", S1, NOAFF),
		    LPOD(2, "node2", "default", S2, NOAFF), LPOD(3, "node3", "default", S1, NOAFF) },
		  IPOD("default", S1, STAY_S1_REGION), { 100, 0, 0 } },
		{ "All the nodes that have the same topology key & label value with one of them has an existing pod that "
		  "match the affinity rules, have the same score",
		  { LNODE("node1", CHINA), LNODE("node2", CHINA_AZ1), LNODE("node3", INDIA),
		    LPOD(1, "node1", "default", S1, NOAFF) },
		  IPOD("default", NOLABELS, STAY_S1_REGION), { 100, 100, 0 } },
		{ "Affinity: nodes in one region has more matching pods comparing to other region, so the region which has "
		  "more matches will get high score",
		  { LNODE("node1", CHINA), LNODE("node2", INDIA), LNODE("node3", CHINA), LNODE("node4", CHINA),
		    LNODE("node5", INDIA), LPOD(1, "node1", "default", S2, NOAFF), LPOD(2, "node1", "default", S2, NOAFF),
		    LPOD(3, "node2", "default", S2, NOAFF), LPOD(4, "node3", "default", S2, NOAFF),
		    LPOD(5, "node4", "default", S2, NOAFF), LPOD(6, "node5", "default", S2, NOAFF) },
		  IPOD("default", S1, STAY_S2_REGION), { 100, 0, 100, 100, 0 } },
		{ "Affinity: different Label operators and values for pod affinity scheduling preference, including some "
		  "match failures ",
		  { LNODE("node1", CHINA), LNODE("node2", INDIA), LNODE("node3", AZ1), LPOD(1, "node1", "default", S1, NOAFF),
		    LPOD(2, "node2", "default", S2, NOAFF), LPOD(3, "node3", "default", S1, NOAFF) },
		  IPOD("default", S1, AFFINITY3), { 20, 100, 0 } },
		{ "Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in pod affinity "
		  "symmetry",
		  { LNODE("node1", CHINA), LNODE("node2", INDIA), LNODE("node3", AZ1),
		    LPOD(1, "node1", "default", S1, STAY_S1_REGION), LPOD(2, "node2", "default", S2, STAY_S2_REGION) },
		  IPOD("default", S2, NOAFF), { 0, 100, 0 } },
		{ "Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry",
		  { LNODE("node1", CHINA), LNODE("node2", INDIA), LNODE("node3", AZ1),
		    LPOD(1, "node1", "default", S1, HARD_AFFINITY), LPOD(2, "node2", "default", S2, HARD_AFFINITY) },
		  IPOD("default", S1, NOAFF), { 100, 100, 0 } },
		{ "Anti Affinity: pod that does not match existing pods in node will get high score ",
		  { LNODE("node1", AZ1), LNODE("node2", CHINA), LPOD(1, "node1", "default", S1, NOAFF),
		    LPOD(2, "node2", "default", S2, NOAFF) },
		  IPOD("default", S1, AWAY_S1_AZ), { 0, 100 } },
		{ "Anti Affinity: pod that does not match topology key & match the pods in nodes will get higher score "
		  "comparing to others ",
		  { LNODE("node1", AZ1), LNODE("node2", CHINA), LPOD(1, "node1", "default", S1, NOAFF),
		    LPOD(2, "node2", "default", S1, NOAFF) },
		  IPOD("default", S1, AWAY_S1_AZ), { 0, 100 } },
		{ "Anti Affinity: one node has more matching pods comparing to other node, so the node which has more "
		  "unmatches will get high score",
		  { LNODE("node1", AZ1), LNODE("node2", INDIA), LPOD(1, "node1", "default", S1, NOAFF),
		    LPOD(2, "node1", "default", S1, NOAFF), LPOD(3, "node2", "default", S2, NOAFF) },
		  IPOD("default", S1, AWAY_S1_AZ), { 0, 100 } },
		{ "Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score",
		  { LNODE("node1", AZ1), LNODE("node2", AZ2), LPOD(1, "node1", "default", S1, AWAY_S2_AZ),
		    LPOD(2, "node2", "default", S2, AWAY_S1_AZ) },
		  IPOD("default", S2, NOAFF), { 0, 100 } },
		{ "Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod "
		  "affinity & anti affinity",
		  { LNODE("node1", CHINA), LNODE("node2", AZ1), LPOD(1, "node1", "default", S1, NOAFF),
		    LPOD(2, "node2", "default", S1, NOAFF) },
		  IPOD("default", S1, STAY_S1_REGION_AWAY_S2_AZ), { 100, 0 } },
		{ "Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to schedule and "
		  "existing pods have the same labels",
		  { LNODE("node1", CHINA_AZ1), LNODE("node2", INDIA), LNODE("node3", CHINA), LNODE("node4", CHINA),
		    LNODE("node5", INDIA), LPOD(1, "node1", "default", S1, NOAFF), LPOD(2, "node1", "default", S1, NOAFF),
		    LPOD(3, "node2", "default", S1, NOAFF), LPOD(4, "node3", "default", S1, NOAFF),
		    LPOD(5, "node3", "default", S1, NOAFF), LPOD(6, "node4", "default", S1, NOAFF),
		    LPOD(7, "node5", "default", S1, NOAFF) },
		  IPOD("default", S1, STAY_S1_REGION_AWAY_S2_AZ), { 100, 0, 100, 100, 0 } },
		{ "Affinity and Anti Affinity and symmetry: considered only preferredDuringSchedulingIgnoredDuringExecution "
		  "in both pod affinity & anti affinity & symmetry",
		  { LNODE("node1", CHINA), LNODE("node2", AZ1), LNODE("node3", INDIA), LNODE("node4", AZ2),
		    LPOD(1, "node1", "default", S1, NOAFF), LPOD(2, "node2", "default", S2, NOAFF),
		    LPOD(3, "node3", "default", NOLABELS, STAY_S1_REGION_AWAY_S2_AZ),
		    LPOD(4, "node4", "default", NOLABELS, AWAY_S1_AZ) },
		  IPOD("default", S1, STAY_S1_REGION_AWAY_S2_AZ), { 100, 0, 100, 0 } },
		{ "Avoid panic when partial nodes in a topology don't have pods with affinity",
		  { LNODE("node1", CHINA), LNODE("node2", CHINA), LPOD(1, "node1", "default", S1, NOAFF),
		    LPOD(2, "node2", "default", NOLABELS, STAY_S1_REGION_AWAY_S2_AZ) },
		  IPOD("default", S1, NOAFF), { 0, 0 } },
		{ "Do not ignore preferred terms of existing pods",
		  { LNODE("node1", CHINA), LNODE("node2", INDIA), LPOD(1, "node1", "default", S1, STAY_S1_REGION_AWAY_S2_AZ),
		    LPOD(2, "node2", "default", S2, STAY_S2_REGION) },
		  IPOD("default", S2, NOAFF), { 0, 100 } },
		/* TestPreferredAffinityWithHardPodAffinitySymmetricWeight */
		{ "with default weight",
		  { LNODE("node1", CHINA), LNODE("node2", INDIA), LNODE("node3", AZ1),
		    LPOD(1, "node1", "default", NOLABELS, HARD_POD_AFFINITY), LPOD(2, "node2", "default", NOLABELS, HARD_POD_AFFINITY) },
		  IPOD("default", SERVICE_S1, NOAFF), { 100, 100, 0 } },
		{ "with no matching namespace",
		  { LNODE("node1", CHINA), LNODE("node2", INDIA), LNODE("node3", AZ1),
		    LPOD(1, "node1", "default", NOLABELS, HARD_POD_AFFINITY), LPOD(2, "node2", "default", NOLABELS, HARD_POD_AFFINITY) },
		  IPOD("subteam1.team2", SERVICE_S1, NOAFF), { -1 } },
		{ "with matching Namespaces",
		  { LNODE("node1", CHINA), LNODE("node2", INDIA), LNODE("node3", AZ1),
		    LPOD(1, "node1", "default", NOLABELS, HARD_POD_AFFINITY), LPOD(2, "node2", "default", NOLABELS, HARD_POD_AFFINITY) },
		  IPOD("subteam2.team2", SERVICE_S1, NOAFF), { 100, 100, 0 } },
	};
	check_cases("InterPodAffinity", PK_SCORE_INTERPOD, cases, sizeof cases / sizeof *cases);
}

/* ---- ImageLocality ---- */

#define MIB "*1048576"
#define IMG(size, names) "{\"names\":[" names "],\"sizeBytes\":" size "}"
#define INODE(name, images) "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\"},\"status\":{\"images\":[" images "]}}"
#define C(image) "{\"name\":\"c\",\"image\":\"" image "\"}"
#define IMGPOD(containers, inits) \
	"{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[" containers "]," \
	"\"initContainers\":[" inits "]}}"
/* sizes in bytes (N MiB) */
#define N40 "41943040"
#define N300 "314572800"
#define N2000 "2097152000"
#define N250 "262144000"
#define N10 "10485760"
#define N600 "629145600"
#define N900 "943718400"
#define N4000 "4194304000"
#define N30 "31457280"
#define N20 "20971520"
#define NODE403002000(name) INODE(name, IMG(N40, "\"gcr.io/40:latest\",\"gcr.io/40:v1\",\"gcr.io/40:v1\"") "," \
	IMG(N300, "\"gcr.io/300:latest\",\"gcr.io/300:v1\"") "," IMG(N2000, "\"gcr.io/2000:latest\""))
#define NODE25010(name) INODE(name, IMG(N250, "\"gcr.io/250:latest\"") "," IMG(N10, "\"gcr.io/10:latest\",\"gcr.io/10:v1\""))
#define NODE60040900(name) INODE(name, IMG(N600, "\"gcr.io/600:latest\"") "," IMG(N40, "\"gcr.io/40:latest\"") "," \
	IMG(N900, "\"gcr.io/900:latest\""))
#define NODE300600900(name) INODE(name, IMG(N300, "\"gcr.io/300:latest\"") "," IMG(N600, "\"gcr.io/600:latest\"") "," \
	IMG(N900, "\"gcr.io/900:latest\""))
#define NODE400030(name) INODE(name, IMG(N4000, "\"gcr.io/4000:latest\"") "," IMG(N30, "\"gcr.io/30:latest\""))
#define NODE203040(name) INODE(name, IMG(N20, "\"gcr.io/20:latest\"") "," IMG(N30, "\"gcr.io/30:latest\"") "," \
	IMG(N40, "\"gcr.io/40:latest\""))

static void test_image_locality(void)
{
	static const ipa_case cases[] = {
		{ "two images spread on two nodes, prefer the larger image one",
		  { NODE403002000("node1"), NODE25010("node2") }, IMGPOD(C("gcr.io/40") "," C("gcr.io/250"), ""), { 0, 5 } },
		{ "two images on one node, prefer this node",
		  { NODE403002000("node1"), NODE25010("node2") }, IMGPOD(C("gcr.io/40") "," C("gcr.io/300"), ""), { 7, 0 } },
		{ "if exceed limit, use limit",
		  { NODE400030("node1"), NODE25010("node2") }, IMGPOD(C("gcr.io/10") "," C("gcr.io/4000"), ""), { 100, 0 } },
		{ "if exceed limit, use limit (with node which has no images present)",
		  { NODE400030("node1"), NODE25010("node2"), INODE("node3", "") },
		  IMGPOD(C("gcr.io/10") "," C("gcr.io/4000"), ""), { 66, 0, 0 } },
		{ "pod with multiple large images, node2 is preferred",
		  { NODE60040900("node1"), NODE300600900("node2"), INODE("node3", "") },
		  IMGPOD(C("gcr.io/300") "," C("gcr.io/600") "," C("gcr.io/900"), ""), { 32, 36, 0 } },
		{ "pod with multiple small images",
		  { NODE203040("node1"), NODE400030("node2") }, IMGPOD(C("gcr.io/30") "," C("gcr.io/40"), ""), { 1, 0 } },
		{ "include InitContainers: two images spread on two nodes, prefer the larger image one",
		  { NODE403002000("node1"), NODE203040("node2") }, IMGPOD(C("gcr.io/30"), C("gcr.io/300")), { 6, 0 } },
	};
	check_cases("ImageLocality", PK_SCORE_IMAGE, cases, sizeof cases / sizeof *cases);

	/* TestNormalizedImageName, through the decoder */
	static const struct {
		const char *name, *in, *out;
	} names[] = {
		{ "add :latest postfix 1", "root", "root:latest" },
		{ "add :latest postfix 2", "gcr.io:5000/root", "gcr.io:5000/root:latest" },
		{ "keep it as is 1", "root:tag", "root:tag" },
		{ "keep it as is 2", "root@sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2",
		  "root@sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2" },
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		pk_snapshot s;
		pk_snapshot_init(&s);
		char json[512], err[256];
		snprintf(json, sizeof json, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":"
		                            "[{\"name\":\"c\",\"image\":\"%s\"}]}}", names[i].in);
		cJSON *pj = parse(json);
		pk_pod p;
		bool ok = pk_pod_decode(&s.dec, pj, &p, err, sizeof err) == 0 && p.con->nimages == 1;
		CHECK(ok && t_streq(p.con->images[0], names[i].out), "normalizedImageName: %s", names[i].name);
		pk_pod_release(&p);
		cJSON_Delete(pj);
		pk_snapshot_free(&s);
	}
}

/* ---- NodeResourcesBalancedAllocation, per release ---- */

#define PODR(cpu, mem) \
	"{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[{\"name\":\"c\"," \
	"\"resources\":{\"requests\":{\"cpu\":\"" cpu "\",\"memory\":\"" mem "\"}}}]}}"

/* A score cache with the rules of Kubernetes 1.<minor> at its default gates. */
static pk_score_cache *cache_of_release(int minor)
{
	pk_feature_gates g;
	pk_feature_gates_default(&g);
	pk_feature_gates_set_release(&g, minor);
	pk_release_profile r;
	pk_release_profile_of(&r, &g);
	return pk_score_cache_new(&r);
}

/* The score of the pod on the single node of objs, for Kubernetes 1.<minor>. */
static int64_t balanced(const char *const *objs, const char *pod, int minor)
{
	pk_score_cache *c = cache_of_release(minor);
	int64_t out[8];
	long n;
	scores_with(c, objs, pod, PK_SCORE_BALANCED, out, &n);
	pk_score_cache_free(c);
	return out[0];
}

/* Until 1.35 the score is the balance with the pod, (1 - std) * 100; from
 * 1.36 (kubernetes#135573) the change the pod brings, 50 + (50 + with -
 * without) / 2: the PR's three anchors (no change 75, balanced to
 * imbalanced 50, imbalanced to balanced 100) and a node half used. */
static void test_balanced_allocation(void)
{
	const char *empty[] = { NODE("n", "4", "4Gi"), NULL };
	const char *cpu_full[] = { NODE("n", "4", "4Gi"), BOUND("n", "4", "0", 1), NULL };
	const char *half[] = { NODE("n", "4", "8Gi"), BOUND("n", "2", "1Gi", 1), NULL };
	struct { const char *what; const char *const *objs; const char *pod; int64_t old, now; } rows[] = {
		{ "no change to the balance", empty, PODR("1", "1Gi"), 100, 75 },
		{ "balanced to imbalanced", empty, PODR("4", "0"), 50, 50 },
		{ "imbalanced to balanced", cpu_full, PODR("0", "4Gi"), 100, 100 },
		{ "more imbalanced (cpu 3/4, memory 1/8; was 2/4, 1/8)", half, PODR("1", "0"), 68, 68 },
		{ "less imbalanced (cpu 2/4, memory 5/8; was 2/4, 1/8)", half, PODR("0", "4Gi"), 93, 81 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		int64_t old = balanced(rows[i].objs, rows[i].pod, 35), now36 = balanced(rows[i].objs, rows[i].pod, 36),
		        now37 = balanced(rows[i].objs, rows[i].pod, 37);
		CHECK(old == rows[i].old && now36 == rows[i].now && now37 == rows[i].now,
		      "BalancedAllocation, %s: 1.35 %lld (want %lld), 1.36 %lld and 1.37 %lld (want %lld)", rows[i].what,
		      (long long)old, (long long)rows[i].old, (long long)now36, (long long)now37, (long long)rows[i].now);
	}
	int64_t out[8];
	long n;
	scores(empty, NOTHING, PK_SCORE_BALANCED, out, &n);
	CHECK(out[0] == -1, "BalancedAllocation skips a best-effort pod (kubernetes#129138)");
	/* a placement through the caller's cache, which indexes the snapshot first */
	int64_t placed[3];
	for (int minor = 35; minor <= 37; minor++) {
		pk_score_cache *c = cache_of_release(minor);
		pk_snapshot sn;
		pk_snapshot_init(&sn);
		bool take;
		char err[256];
		cJSON *o = parse(NODE("n", "2", "4Gi"));
		pk_snapshot_add(&sn, o, 0, &take, err, sizeof err);
		cJSON_Delete(o);
		pk_snapshot_finish(&sn);
		cJSON *pj = parse(PODR("1", "0"));
		pk_pod p;
		pk_pod_decode(&sn.dec, pj, &p, err, sizeof err);
		const pk_nodeinfo *nodes[] = { &sn.infos[0] };
		pk_placement pl;
		pk_score_nodes(&sn, c, &p, nodes, 1, &pl);
		placed[minor - 35] = pl.plugin[PK_SCORE_BALANCED];
		pk_pod_release(&p);
		cJSON_Delete(pj);
		pk_snapshot_free(&sn);
		pk_score_cache_free(c);
	}
	CHECK(placed[0] == 75 && placed[1] == 62 && placed[2] == 62,
	      "a placement scores BalancedAllocation by the cache's release: 1.35 %lld (want 75), 1.36 %lld, 1.37 %lld "
	      "(want 62)", (long long)placed[0], (long long)placed[1], (long long)placed[2]);
}

int main(void)
{
	test_interpod_affinity();
	test_image_locality();
	test_least_allocated();
	test_taint_toleration();
	test_node_affinity();
	test_pick();
	test_balanced_allocation();
	return T_DONE();
}
