/* Pod requests and the NodeResourcesFit filter, ported from upstream's
 * pkg/scheduler/framework/plugins/noderesources/fit_test.go TestEnoughRequests
 * (node: cpu 10m, memory 20, pods 32, example.com/aaa 5, ephemeral-storage 20,
 * hugepages-2Mi 5; one pod already uses what "used" says), plus sidecar cases
 * from the documented restartable-init-container rule (KEP-753). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "io/reader.h"
#include "k8s/pod.h"
#include "sched/engine/filter/cycle.h"
#include "sched/engine/engine.h"

#define NODE "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},\"status\":{\"allocatable\":{" \
	"\"cpu\":\"10m\",\"memory\":\"20\",\"pods\":\"32\",\"example.com/aaa\":\"5\"," \
	"\"ephemeral-storage\":\"20\",\"hugepages-2Mi\":\"5\"}}}"

static cJSON *parse(const char *text)
{
	char err[256];
	cJSON *v = pk_parse_json_text(text, strlen(text), err, sizeof err);
	if (!v)
		fprintf(stderr, "bad test JSON: %s\n%s\n", err, text);
	return v;
}

/* Run the filters for pod (a PodSpec JSON) on the node holding a pod with spec used. */
static pk_status fit(const char *used_spec, const char *pod_spec)
{
	pk_snapshot s;
	pk_snapshot_init(&s);
	char buf[2048];
	bool take;
	char err[256];
	cJSON *n = parse(NODE);
	pk_snapshot_add(&s, n, 0, &take, err, sizeof err);
	snprintf(buf, sizeof buf, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"used\"},\"spec\":%s}", used_spec);
	cJSON *u = parse(buf);
	cJSON_AddStringToObject(cJSON_GetObjectItem(u, "spec"), "nodeName", "n");
	pk_snapshot_add(&s, u, 1, &take, err, sizeof err);
	pk_snapshot_finish(&s);
	snprintf(buf, sizeof buf, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":%s}", pod_spec);
	cJSON *pj = parse(buf);
	pk_pod p;
	pk_status st = {0};
	if (pk_pod_decode(&s.dec, pj, &p, err, sizeof err) == 0) {
		pk_cycle c;
		pk_cycle_open(&c, &s, NULL, &p);
		st = pk_run_filters(&c, &p, &s.infos[0]);
		pk_cycle_close(&c);
		/* reasons may live in the snapshot's string table: copy the first */
		static char first[128];
		snprintf(first, sizeof first, "%s", st.nreasons ? st.reasons[0] : "");
		if (st.nreasons)
			st.reasons[0] = first;
		static char second[128];
		snprintf(second, sizeof second, "%s", st.nreasons > 1 ? st.reasons[1] : "");
		if (st.nreasons > 1)
			st.reasons[1] = second;
		pk_pod_release(&p);
	} else {
		st.code = PK_CODE_ERROR;
		fprintf(stderr, "decode: %s\n", err);
	}
	cJSON_Delete(n);
	cJSON_Delete(u);
	cJSON_Delete(pj);
	pk_snapshot_free(&s);
	return st;
}

#define C(cpu, mem) "{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"" cpu "\",\"memory\":\"" mem "\"}}}"
#define CX(cpu, mem, res, q) "{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"" cpu "\",\"memory\":\"" mem "\",\"" res "\":\"" q "\"}}}"
#define SIDECAR(cpu, mem) "{\"name\":\"s\",\"restartPolicy\":\"Always\",\"resources\":{\"requests\":{\"cpu\":\"" cpu "\",\"memory\":\"" mem "\"}}}"

typedef struct fit_case {
	const char *name;
	const char *used;
	const char *pod;
	pk_code code;
	const char *reason1, *reason2;
} fit_case;

static const fit_case fit_cases[] = {
	{"no resources requested always fits", "{\"containers\":[" C("10m", "20") "]}", "{\"containers\":[]}",
	 PK_CODE_SUCCESS, NULL, NULL},
	{"too many resources fails", "{\"containers\":[" C("10m", "20") "]}", "{\"containers\":[" C("1m", "1") "]}",
	 PK_CODE_UNSCHEDULABLE, "Insufficient cpu", "Insufficient memory"},
	{"too many resources fails due to init container cpu", "{\"containers\":[" C("8m", "19") "]}",
	 "{\"containers\":[" C("1m", "1") "],\"initContainers\":[" C("3m", "1") "]}",
	 PK_CODE_UNSCHEDULABLE, "Insufficient cpu", NULL},
	{"too many resources fails due to highest init container cpu", "{\"containers\":[" C("8m", "19") "]}",
	 "{\"containers\":[" C("1m", "1") "],\"initContainers\":[" C("3m", "1") "," C("2m", "1") "]}",
	 PK_CODE_UNSCHEDULABLE, "Insufficient cpu", NULL},
	{"too many resources fails due to init container memory", "{\"containers\":[" C("9m", "19") "]}",
	 "{\"containers\":[" C("1m", "1") "],\"initContainers\":[" C("1m", "3") "]}",
	 PK_CODE_UNSCHEDULABLE, "Insufficient memory", NULL},
	{"too many resources fails due to highest init container memory", "{\"containers\":[" C("9m", "19") "]}",
	 "{\"containers\":[" C("1m", "1") "],\"initContainers\":[" C("1m", "3") "," C("1m", "2") "]}",
	 PK_CODE_UNSCHEDULABLE, "Insufficient memory", NULL},
	{"init container fits because it's the max, not sum, of containers and init containers",
	 "{\"containers\":[" C("9m", "19") "]}", "{\"containers\":[" C("1m", "1") "],\"initContainers\":[" C("1m", "1") "]}",
	 PK_CODE_SUCCESS, NULL, NULL},
	{"multiple init containers fit because it's the max, not sum, of containers and init containers",
	 "{\"containers\":[" C("9m", "19") "]}",
	 "{\"containers\":[" C("1m", "1") "],\"initContainers\":[" C("1m", "1") "," C("1m", "1") "]}",
	 PK_CODE_SUCCESS, NULL, NULL},
	{"both resources fit", "{\"containers\":[" C("5m", "5") "]}", "{\"containers\":[" C("1m", "1") "]}",
	 PK_CODE_SUCCESS, NULL, NULL},
	{"one resource memory fits", "{\"containers\":[" C("9m", "5") "]}", "{\"containers\":[" C("2m", "1") "]}",
	 PK_CODE_UNSCHEDULABLE, "Insufficient cpu", NULL},
	{"one resource cpu fits", "{\"containers\":[" C("5m", "19") "]}", "{\"containers\":[" C("1m", "2") "]}",
	 PK_CODE_UNSCHEDULABLE, "Insufficient memory", NULL},
	{"equal edge case", "{\"containers\":[" C("5m", "19") "]}", "{\"containers\":[" C("5m", "1") "]}",
	 PK_CODE_SUCCESS, NULL, NULL},
	{"equal edge case for init container", "{\"containers\":[" C("5m", "19") "]}",
	 "{\"containers\":[" C("4m", "1") "],\"initContainers\":[" C("5m", "1") "]}", PK_CODE_SUCCESS, NULL, NULL},
	{"extended resource fits", "{\"containers\":[]}", "{\"containers\":[" CX("0", "0", "example.com/aaa", "1") "]}",
	 PK_CODE_SUCCESS, NULL, NULL},
	{"extended resource fits for init container", "{\"containers\":[]}",
	 "{\"containers\":[],\"initContainers\":[" CX("0", "0", "example.com/aaa", "1") "]}", PK_CODE_SUCCESS, NULL, NULL},
	{"extended resource capacity enforced", "{\"containers\":[" CX("0", "0", "example.com/aaa", "0") "]}",
	 "{\"containers\":[" CX("1m", "1", "example.com/aaa", "10") "]}",
	 PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "Insufficient example.com/aaa", NULL},
	{"extended resource capacity enforced for init container", "{\"containers\":[" CX("0", "0", "example.com/aaa", "0") "]}",
	 "{\"containers\":[],\"initContainers\":[" CX("1m", "1", "example.com/aaa", "10") "]}",
	 PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "Insufficient example.com/aaa", NULL},
	{"extended resource allocatable enforced", "{\"containers\":[" CX("0", "0", "example.com/aaa", "5") "]}",
	 "{\"containers\":[" CX("1m", "1", "example.com/aaa", "1") "]}",
	 PK_CODE_UNSCHEDULABLE, "Insufficient example.com/aaa", NULL},
	{"extended resource allocatable enforced for multiple containers", "{\"containers\":[" CX("0", "0", "example.com/aaa", "2") "]}",
	 "{\"containers\":[" CX("1m", "1", "example.com/aaa", "3") "," CX("1m", "1", "example.com/aaa", "3") "]}",
	 PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "Insufficient example.com/aaa", NULL},
	{"extended resource allocatable admits multiple init containers", "{\"containers\":[" CX("0", "0", "example.com/aaa", "2") "]}",
	 "{\"containers\":[],\"initContainers\":[" CX("1m", "1", "example.com/aaa", "3") "," CX("1m", "1", "example.com/aaa", "3") "]}",
	 PK_CODE_SUCCESS, NULL, NULL},
	{"extended resource allocatable enforced for multiple init containers", "{\"containers\":[" CX("0", "0", "example.com/aaa", "2") "]}",
	 "{\"containers\":[],\"initContainers\":[" CX("1m", "1", "example.com/aaa", "6") "," CX("1m", "1", "example.com/aaa", "3") "]}",
	 PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "Insufficient example.com/aaa", NULL},
	{"extended resource allocatable enforced for unknown resource", "{\"containers\":[]}",
	 "{\"containers\":[" CX("1m", "1", "example.com/bbb", "1") "]}",
	 PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "Insufficient example.com/bbb", NULL},
	{"kubernetes.io resource capacity enforced", "{\"containers\":[]}",
	 "{\"containers\":[" CX("1m", "1", "kubernetes.io/something", "10") "]}",
	 PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "Insufficient kubernetes.io/something", NULL},
	{"hugepages resource capacity enforced", "{\"containers\":[" CX("0", "0", "hugepages-2Mi", "0") "]}",
	 "{\"containers\":[" CX("1m", "1", "hugepages-2Mi", "10") "]}",
	 PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "Insufficient hugepages-2Mi", NULL},
	{"hugepages resource allocatable enforced for multiple containers", "{\"containers\":[" CX("0", "0", "hugepages-2Mi", "2") "]}",
	 "{\"containers\":[" CX("1m", "1", "hugepages-2Mi", "3") "," CX("1m", "1", "hugepages-2Mi", "3") "]}",
	 PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "Insufficient hugepages-2Mi", NULL},
	{"resources + pod overhead fits", "{\"containers\":[" C("5m", "5") "]}",
	 "{\"containers\":[" C("1m", "1") "],\"overhead\":{\"cpu\":\"3m\",\"memory\":\"13\"}}", PK_CODE_SUCCESS, NULL, NULL},
	{"requests + overhead does not fit for memory", "{\"containers\":[" C("5m", "5") "]}",
	 "{\"containers\":[" C("1m", "1") "],\"overhead\":{\"cpu\":\"1m\",\"memory\":\"15\"}}",
	 PK_CODE_UNSCHEDULABLE, "Insufficient memory", NULL},
	{"skip checking extended resource request with quantity zero via resource groups",
	 "{\"containers\":[" CX("0", "0", "example.com/aaa", "6") "]}",
	 "{\"containers\":[" CX("1m", "1", "example.com/aaa", "0") "]}", PK_CODE_SUCCESS, NULL, NULL},
	{"both pod-level and container-level resources fit", "{\"containers\":[" C("5m", "5") "]}",
	 "{\"containers\":[" C("1m", "1") "],\"resources\":{\"requests\":{\"cpu\":\"1m\",\"memory\":\"2\"}}}",
	 PK_CODE_SUCCESS, NULL, NULL},
	{"pod-level cpu resource not fit", "{\"containers\":[" C("5m", "5") "]}",
	 "{\"containers\":[" C("1m", "1") "],\"resources\":{\"requests\":{\"cpu\":\"7m\",\"memory\":\"2\"}}}",
	 PK_CODE_UNSCHEDULABLE, "Insufficient cpu", NULL},
	{"pod-level memory resource not fit", "{\"containers\":[" C("5m", "19") "]}",
	 "{\"containers\":[" C("1m", "1") "],\"resources\":{\"requests\":{\"cpu\":\"3m\",\"memory\":\"2\"}}}",
	 PK_CODE_UNSCHEDULABLE, "Insufficient memory", NULL},
	{"pod-level hugepages resource fit", "{\"containers\":[]}",
	 "{\"containers\":[],\"resources\":{\"requests\":{\"cpu\":\"3m\",\"memory\":\"2\",\"hugepages-2Mi\":\"5\"}}}",
	 PK_CODE_SUCCESS, NULL, NULL},
	{"both pod-level and container-level hugepages resource fit", "{\"containers\":[]}",
	 "{\"containers\":[" CX("1m", "1", "hugepages-2Mi", "3") "],\"resources\":{\"requests\":{\"cpu\":\"3m\",\"memory\":\"2\",\"hugepages-2Mi\":\"5\"}}}",
	 PK_CODE_SUCCESS, NULL, NULL},
	{"pod-level hugepages resource not fit", "{\"containers\":[]}",
	 "{\"containers\":[],\"resources\":{\"requests\":{\"cpu\":\"3m\",\"memory\":\"2\",\"hugepages-2Mi\":\"10\"}}}",
	 PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "Insufficient hugepages-2Mi", NULL},
	{"one pod-level cpu resource fits and all init and non-init containers resources fit",
	 "{\"containers\":[" C("5m", "19") "]}",
	 "{\"containers\":[" C("1m", "1") "],\"initContainers\":[" C("1m", "1") "],\"resources\":{\"requests\":{\"cpu\":\"3m\",\"memory\":\"2\"}}}",
	 PK_CODE_UNSCHEDULABLE, "Insufficient memory", NULL},
};

/* Requests of a PodSpec, in milli-units. */
static pk_res requests_of(pk_decoder *d, const char *spec_text)
{
	pk_res r = {0};
	char err[256];
	cJSON *spec = parse(spec_text);
	if (pk_pod_requests(d, spec, &r, err, sizeof err) < 0)
		fprintf(stderr, "requests: %s\n", err);
	cJSON_Delete(spec);
	return r;
}

static void test_sidecars(void)
{
	pk_arena a;
	pk_arena_init(&a);
	pk_strtab *t = pk_strtab_new();
	pk_decoder d;
	pk_decoder_init(&d, &a, t);
	/* app 1 cpu; sidecar 1 cpu runs alongside: 2 cpu. */
	pk_res r = requests_of(&d, "{\"containers\":[" C("1", "1Gi") "],\"initContainers\":[" SIDECAR("1", "1Gi") "]}");
	CHECK(r.cpu == 2000 && r.memory == 2147483648000LL, "sidecar adds to the app containers (cpu %lld)", (long long)r.cpu);
	/* sidecar 1, then a regular init of 3: peak 4 > app sum 2. */
	r = requests_of(&d, "{\"containers\":[" C("1", "1") "],\"initContainers\":[" SIDECAR("1", "1") "," C("3", "1") "]}");
	CHECK(r.cpu == 4000, "a regular init container after a sidecar runs beside it (cpu %lld)", (long long)r.cpu);
	/* regular init of 3 before the sidecar: peak 3, app sum 2 -> 3. */
	r = requests_of(&d, "{\"containers\":[" C("1", "1") "],\"initContainers\":[" C("3", "1") "," SIDECAR("1", "1") "]}");
	CHECK(r.cpu == 3000, "a regular init container before a sidecar does not see it (cpu %lld)", (long long)r.cpu);
	/* limits only: requests default to limits, as the apiserver does. */
	r = requests_of(&d, "{\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"cpu\":\"500m\",\"memory\":\"64Mi\"}}}]}");
	CHECK(r.cpu == 500 && r.memory == 67108864000LL, "requests default to limits");
	/* overhead is added after the max. */
	r = requests_of(&d, "{\"containers\":[" C("1", "1") "],\"initContainers\":[" C("2", "1") "],\"overhead\":{\"cpu\":\"250m\"}}");
	CHECK(r.cpu == 2250, "overhead is added to max(app, init) (cpu %lld)", (long long)r.cpu);
	/* YAML-style numbers. */
	r = requests_of(&d, "{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":2}}}]}");
	CHECK(r.cpu == 2000, "numeric cpu quantity");
	pk_strtab_free(t);
	pk_arena_free(&a);
}

/* What most pods repeat is kept once: the two admission-default
 * tolerations, the empty constraints; what they do not is their own. */
static void check_shared_members(void)
{
	pk_snapshot s;
	pk_snapshot_init(&s);
	const char *tols = "\"tolerations\":[{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\","
	                   "\"effect\":\"NoExecute\",\"tolerationSeconds\":300}]";
	char buf[1024];
	pk_pod p[3];
	char err[256] = "";
	for (int i = 0; i < 3; i++) {
		snprintf(buf, sizeof buf,
		         "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p%d\",\"uid\":\"u-%d\",\"labels\":{\"app\":\"a\"}},"
		         "\"spec\":{%s%s}}", i, i, tols,
		         i == 2 ? ",\"nodeSelector\":{\"disk\":\"ssd\"},\"schedulingGroup\":{\"podGroupName\":\"g\"}" : "");
		cJSON *j = parse(buf);
		CHECK(pk_pod_decode(&s.dec, j, &p[i], err, sizeof err) == 0, "pod %d decodes: %s", i, err);
		cJSON_Delete(j);
	}
	CHECK(p[0].tolerations == p[1].tolerations && p[1].tolerations == p[2].tolerations && p[0].ntolerations == 1,
	      "equal toleration lists are one shared copy");
	CHECK(p[0].con == &pk_pod_no_constraints && p[1].con == &pk_pod_no_constraints,
	      "pods without node selection, affinity, spread, ports or gang share the empty constraints");
	CHECK(p[2].con != &pk_pod_no_constraints && p[2].con->has_node_selector && t_streq(p[2].con->pod_group, "g"),
	      "a pod with a nodeSelector and a pod group has its own");
	CHECK(t_streq(p[0].uid, "u-0") && t_streq(p[1].uid, "u-1"), "uids are kept, each its own");
	CHECK(t_streq(pk_labels_value(p[0].labels, "app"), "a") && pk_labels_pair(p[0].labels, 0) == pk_labels_pair(p[1].labels, 0),
	      "equal labels are one pair");
	CHECK(sizeof(pk_pod) <= 192, "pk_pod stays within 192 bytes (memory per pod on 2-million-pod snapshots): %zu",
	      sizeof(pk_pod));
	for (int i = 0; i < 3; i++)
		pk_pod_release(&p[i]);
	pk_snapshot_free(&s);
}

/* Controller names are mostly a ReplicaSet's or a Job's, a few pods
 * each: kept with the pod rather than in the string table (where 1.7
 * million of them made every lookup of a 65,000-node snapshot a cache
 * miss), and shared by replicas listed one after another. */
static void check_owner_names(void)
{
	pk_snapshot s;
	pk_snapshot_init(&s);
	static const char *const owner[] = { "web-7d4b9c", "web-7d4b9c", "batch-1", "web-7d4b9c", NULL };
	pk_pod p[5];
	char buf[512], err[256] = "";
	for (int i = 0; i < 5; i++) {
		char ref[160] = "";
		if (owner[i])
			snprintf(ref, sizeof ref, ",\"ownerReferences\":[{\"kind\":\"ReplicaSet\",\"name\":\"%s\","
			         "\"controller\":true}]", owner[i]);
		snprintf(buf, sizeof buf, "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p%d\"%s},\"spec\":{}}", i, ref);
		cJSON *j = parse(buf);
		CHECK(pk_pod_decode(&s.dec, j, &p[i], err, sizeof err) == 0, "owned pod %d decodes: %s", i, err);
		cJSON_Delete(j);
	}
	CHECK(t_streq(p[0].controller_name, "web-7d4b9c") && t_streq(p[2].controller_name, "batch-1") &&
	      t_streq(p[3].controller_name, "web-7d4b9c") && t_streq(p[4].controller_name, "") &&
	      t_streq(p[0].controller_kind, "ReplicaSet") && t_streq(p[4].controller_kind, ""),
	      "each pod names its controller");
	CHECK(p[0].controller_name == p[1].controller_name, "replicas listed together share one copy of the name");
	CHECK(!pk_strtab_find(s.strs, "web-7d4b9c") && !pk_strtab_find(s.strs, "batch-1"),
	      "controller names are not in the string table");
	for (int i = 0; i < 5; i++)
		pk_pod_release(&p[i]);
	pk_snapshot_free(&s);
}

/* pk_pod.ntolerations has 16 bits: a pod with more tolerations is
 * rejected, saying so, not wrapped around. */
static void check_too_many_tolerations(void)
{
	pk_snapshot s;
	pk_snapshot_init(&s);
	cJSON *pod = parse("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"tolerations\":[]}}");
	cJSON *tols = cJSON_GetObjectItem(cJSON_GetObjectItem(pod, "spec"), "tolerations");
	for (int i = 0; i < PK_POD_MAX_TOLERATIONS; i++)
		cJSON_AddItemToArray(tols, parse("{\"operator\":\"Exists\"}"));
	pk_pod p;
	char err[256] = "";
	CHECK(pk_pod_decode(&s.dec, pod, &p, err, sizeof err) == 0 && p.ntolerations == PK_POD_MAX_TOLERATIONS,
	      "a pod with %d tolerations decodes with all of them (%s)", PK_POD_MAX_TOLERATIONS, err);
	pk_pod_release(&p);
	cJSON_AddItemToArray(tols, parse("{\"operator\":\"Exists\"}"));
	CHECK(pk_pod_decode(&s.dec, pod, &p, err, sizeof err) < 0 && strstr(err, "spec.tolerations: 65536 entries"),
	      "one more is rejected with a message naming the field: %s", err);
	pk_pod_release(&p);
	cJSON_Delete(pod);
	pk_snapshot_free(&s);
}

int main(void)
{
	for (size_t i = 0; i < sizeof fit_cases / sizeof fit_cases[0]; i++) {
		const fit_case *c = &fit_cases[i];
		pk_status st = fit(c->used, c->pod);
		bool ok = st.code == c->code;
		if (ok && c->reason1)
			ok = st.nreasons >= 1 && strcmp(st.reasons[0], c->reason1) == 0;
		if (ok && c->reason2)
			ok = st.nreasons >= 2 && strcmp(st.reasons[1], c->reason2) == 0;
		if (ok && !c->reason2)
			ok = st.nreasons == (c->reason1 ? 1 : 0);
		CHECK(ok, "TestEnoughRequests: %s (got %s, %d reasons%s%s)", c->name, pk_code_name(st.code), st.nreasons,
		      st.nreasons ? ": " : "", st.nreasons ? st.reasons[0] : "");
	}
	test_sidecars();
	check_shared_members();
	check_owner_names();
	check_too_many_tolerations();
	return T_DONE();
}
