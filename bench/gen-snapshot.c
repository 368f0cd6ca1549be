/* Generates a realistic cluster snapshot as `kubectl get
 * nodes,pods,pdb,priorityclasses -A -o json` prints it (a pretty kind: List,
 * 4-space indent, kubectl's key order) or as NDJSON (-n), deterministically.
 *   gen-snapshot [-b] [-c] [-g gpus] [-n] [-N nodes] [-P pods-per-node] [-p pending] [-s seed] [-w workloads]
 * -b makes the pending pods high-priority and large, so that they preempt.
 * -w K (with -b) makes them the replicas of K workloads: one shape and one
 *    creation time per workload, as a Deployment's or a Job's pods have.
 * -c gives every pod a claim, as a StatefulSet's pods have: a zonal
 *    PersistentVolume bound to it (its node's zone; a pending pod's zone by
 *    its number, so that replicas of one workload take turns in three zones),
 *    with the StorageClass, in the order kubectl lists them.
 * -g K gives every node K GPUs through Dynamic Resource Allocation: a
 *    ResourceSlice per node (driver gpu.example.com, model and memory), one
 *    DeviceClass with a CEL selector, and every pod a ResourceClaim for one
 *    GPU of its model: a bound pod's claim allocated to a device of its node
 *    (the first K pods of a node; give -P K or less for a claim per pod), a
 *    pending pod's claim made but not allocated yet.
 * Pods carry what real ones carry: labels, ownerReferences, managedFields,
 * containers with requests and limits, tolerations, status and conditions. */
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gen {
	FILE *out;
	int ndjson;
	int depth;
	uint64_t rng;
	int first_item;
	int big_pending;
	int workloads;            /* -w: pending pods are replicas of this many workloads */
	int pending;
	int claims;               /* -c: a bound zonal claim for every pod */
	int gpus;                 /* -g: GPUs per node, a DRA claim for every pod */
} gen;

static uint64_t next(gen *g)
{
	g->rng ^= g->rng << 13;
	g->rng ^= g->rng >> 7;
	g->rng ^= g->rng << 17;
	return g->rng;
}

static int pick(gen *g, int n) { return (int)(next(g) % (uint64_t)n); }

/* A tiny pretty/compact emitter: objects are written as format strings in
 * which '\n' stands for "newline + indentation" (dropped in NDJSON). */
static void emit(gen *g, const char *text)
{
	for (const char *p = text; *p; p++) {
		if (*p == '{' || *p == '[') {
			putc(*p, g->out);
			if (p[1] == '}' || p[1] == ']') { putc(p[1], g->out); p++; continue; }
			g->depth++;
			if (!g->ndjson) { putc('\n', g->out); for (int i = 0; i < g->depth * 4; i++) putc(' ', g->out); }
		} else if (*p == '}' || *p == ']') {
			g->depth--;
			if (!g->ndjson) { putc('\n', g->out); for (int i = 0; i < g->depth * 4; i++) putc(' ', g->out); }
			putc(*p, g->out);
		} else if (*p == ',') {
			putc(',', g->out);
			if (!g->ndjson) { putc('\n', g->out); for (int i = 0; i < g->depth * 4; i++) putc(' ', g->out); }
		} else if (*p == ':' ) {
			putc(':', g->out);
			if (!g->ndjson) putc(' ', g->out);
		} else if (*p == '"') {   /* copy strings verbatim */
			const char *e = p + 1;
			while (*e && *e != '"') { if (*e == '\\') e++; e++; }
			fwrite(p, 1, (size_t)(e - p + 1), g->out);
			p = e;
		} else {
			putc(*p, g->out);
		}
	}
}

static void begin_item(gen *g)
{
	if (g->ndjson) return;
	if (!g->first_item) emit(g, ",");
	g->first_item = 0;
}

static void end_item(gen *g)
{
	if (g->ndjson) putc('\n', g->out);
}

static const char *zones[] = {"us-east-1a", "us-east-1b", "us-east-1c"};
static const char *gpu_models[] = {"A100", "H100"};
static const char *teams[] = {"payments", "search", "ml", "web", "batch", "infra", "data", "ads"};
static const struct { const char *name; int value; int def; const char *policy; } classes[] = {
	{"system-cluster-critical", 2000000000, 0, "PreemptLowerPriority"},
	{"system-node-critical", 2000001000, 0, "PreemptLowerPriority"},
	{"critical", 1000000, 0, "PreemptLowerPriority"},
	{"high", 10000, 0, "PreemptLowerPriority"},
	{"default", 1000, 1, "PreemptLowerPriority"},
	{"batch-low", 100, 0, "PreemptLowerPriority"},
	{"best-effort", -10, 0, "Never"},
};

static void node(gen *g, int i)
{
	char buf[8192];
	const char *zone = zones[i % 3];
	snprintf(buf, sizeof buf,
	  "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"annotations\":{\"node.alpha.kubernetes.io/ttl\":\"0\","
	  "\"volumes.kubernetes.io/controller-managed-attach-detach\":\"true\"},\"creationTimestamp\":\"2026-01-%02dT10:00:00Z\","
	  "\"labels\":{\"beta.kubernetes.io/arch\":\"amd64\",\"beta.kubernetes.io/os\":\"linux\",\"kubernetes.io/arch\":\"amd64\","
	  "\"kubernetes.io/hostname\":\"node-%05d\",\"kubernetes.io/os\":\"linux\",\"node.kubernetes.io/instance-type\":\"m5.4xlarge\","
	  "\"topology.kubernetes.io/region\":\"us-east-1\",\"topology.kubernetes.io/zone\":\"%s\",\"pool\":\"%s\"},"
	  "\"name\":\"node-%05d\",\"resourceVersion\":\"%d\",\"uid\":\"%08x-0000-4000-8000-%012x\"},"
	  "\"spec\":{\"podCIDR\":\"10.%d.%d.0/24\",\"providerID\":\"aws:///%s/i-%012x\"%s},"
	  "\"status\":{\"addresses\":[{\"address\":\"10.0.%d.%d\",\"type\":\"InternalIP\"},{\"address\":\"node-%05d\",\"type\":\"Hostname\"}],"
	  "\"allocatable\":{\"cpu\":\"15890m\",\"ephemeral-storage\":\"95551679124\",\"hugepages-1Gi\":\"0\",\"hugepages-2Mi\":\"0\","
	  "\"memory\":\"63236104Ki\",\"pods\":\"110\"},"
	  "\"capacity\":{\"cpu\":\"16\",\"ephemeral-storage\":\"103680492Ki\",\"hugepages-1Gi\":\"0\",\"hugepages-2Mi\":\"0\","
	  "\"memory\":\"64334856Ki\",\"pods\":\"110\"},"
	  "\"conditions\":[{\"lastHeartbeatTime\":\"2026-11-25T10:00:00Z\",\"lastTransitionTime\":\"2026-01-01T10:00:00Z\","
	  "\"message\":\"kubelet has sufficient memory available\",\"reason\":\"KubeletHasSufficientMemory\",\"status\":\"False\",\"type\":\"MemoryPressure\"},"
	  "{\"lastHeartbeatTime\":\"2026-11-25T10:00:00Z\",\"lastTransitionTime\":\"2026-01-01T10:00:00Z\","
	  "\"message\":\"kubelet is posting ready status\",\"reason\":\"KubeletReady\",\"status\":\"True\",\"type\":\"Ready\"}],"
	  "\"nodeInfo\":{\"architecture\":\"amd64\",\"containerRuntimeVersion\":\"containerd://1.7.11\",\"kernelVersion\":\"6.1.0-13-amd64\","
	  "\"kubeProxyVersion\":\"v1.34.2\",\"kubeletVersion\":\"v1.34.2\",\"operatingSystem\":\"linux\",\"osImage\":\"Debian GNU/Linux 12 (bookworm)\"}}}",
	  1 + i % 28, i, zone, i % 10 == 0 ? "gpu" : "general", i, 1000 + i, (unsigned)i, (unsigned)i, i / 256, i % 256, zone, (unsigned)i,
	  i % 10 == 0 ? ",\"taints\":[{\"effect\":\"NoSchedule\",\"key\":\"nvidia.com/gpu\",\"value\":\"present\"}]" : "",
	  i / 256, i % 256, i);
	begin_item(g);
	emit(g, buf);
	end_item(g);
}

/* Node i's ResourceSlice: K GPUs of the node's model (even nodes A100, odd
 * H100), each with its memory. */
static void gpu_slice(gen *g, int i)
{
	char buf[1024];
	begin_item(g);
	snprintf(buf, sizeof buf,
	  "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":\"node-%05d-gpu.example.com-%04x\","
	  "\"uid\":\"%08x-6666-4000-8000-000000000000\"},\"spec\":{\"driver\":\"gpu.example.com\",\"nodeName\":\"node-%05d\","
	  "\"pool\":{\"generation\":1,\"name\":\"node-%05d\",\"resourceSliceCount\":1},\"devices\":[",
	  i, (unsigned)i, (unsigned)i, i, i);
	emit(g, buf);
	for (int k = 0; k < g->gpus; k++) {
		snprintf(buf, sizeof buf,
		  "%s{\"name\":\"gpu-%d\",\"attributes\":{\"model\":{\"string\":\"%s\"},\"index\":{\"int\":%d}},"
		  "\"capacity\":{\"memory\":{\"value\":\"80Gi\"}}}",
		  k ? "," : "", k, gpu_models[i % 2], k);
		emit(g, buf);
	}
	emit(g, "]}}");
	end_item(g);
}

/* Pod n's ResourceClaim for one GPU of the model its number picks;
 * allocated to device slot on node_i, or not allocated (slot < 0). */
static void gpu_claim(gen *g, int n, int team, int node_i, int slot, const char *pod, unsigned uid)
{
	char buf[2048], status[1024] = "{}";
	const char *model = slot >= 0 ? gpu_models[node_i % 2] : gpu_models[n % 2];
	if (slot >= 0)
		snprintf(status, sizeof status,
		  "{\"allocation\":{\"devices\":{\"results\":[{\"device\":\"gpu-%d\",\"driver\":\"gpu.example.com\","
		  "\"pool\":\"node-%05d\",\"request\":\"gpu\"}]},\"nodeSelector\":{\"nodeSelectorTerms\":[{\"matchFields\":"
		  "[{\"key\":\"metadata.name\",\"operator\":\"In\",\"values\":[\"node-%05d\"]}]}]}},"
		  "\"reservedFor\":[{\"name\":\"%s\",\"resource\":\"pods\",\"uid\":\"%08x-2222-4000-8000-%012x\"}]}",
		  slot, node_i, node_i, pod, uid, uid);
	snprintf(buf, sizeof buf,
	  "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"%s-gpu\",\"namespace\":\"%s\","
	  "\"uid\":\"%08x-7777-4000-8000-000000000000\"},\"spec\":{\"devices\":{\"requests\":[{\"exactly\":{\"allocationMode\":\"ExactCount\","
	  "\"count\":1,\"deviceClassName\":\"gpu.example.com\",\"selectors\":[{\"cel\":{\"expression\":"
	  "\"device.attributes['gpu.example.com'].model == '%s'\"}}]},\"name\":\"gpu\"}]}},\"status\":%s}",
	  pod, teams[team], (unsigned)n, model, status);
	begin_item(g);
	emit(g, buf);
	end_item(g);
}

/* pending index i of workload w: its shape, drawn from its own generator */
static void workload_shape(const gen *g, int i, int *cls, int *cpu, int *mem, int *day)
{
	int w = (int)((long)i * g->workloads / g->pending);
	gen wg = { .rng = 0x2545F4914F6CDD1Dull * (uint64_t)(w + 1) };
	*cls = 2 + pick(&wg, 2);
	*cpu = 1000 * (4 + pick(&wg, 8));
	*mem = 128 * (1 + pick(&wg, 8));
	*day = 1 + w % 24;
}

/* Pod n's claim and its volume, in zone z; the namespace is its team's. */
static void claim_objects(gen *g, int n, int team, const char *zone)
{
	char buf[2048];
	snprintf(buf, sizeof buf,
	  "{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolume\",\"metadata\":{\"labels\":{\"topology.kubernetes.io/zone\":\"%s\"},"
	  "\"name\":\"pvc-%08x-5555-4000-8000-000000000000\"},\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],"
	  "\"capacity\":{\"storage\":\"10Gi\"},\"claimRef\":{\"kind\":\"PersistentVolumeClaim\",\"name\":\"data-%d\",\"namespace\":\"%s\"},"
	  "\"csi\":{\"driver\":\"ebs.csi.aws.com\",\"volumeHandle\":\"vol-%012x\"},\"nodeAffinity\":{\"required\":{\"nodeSelectorTerms\":"
	  "[{\"matchExpressions\":[{\"key\":\"topology.kubernetes.io/zone\",\"operator\":\"In\",\"values\":[\"%s\"]}]}]}},"
	  "\"persistentVolumeReclaimPolicy\":\"Delete\",\"storageClassName\":\"gp3\",\"volumeMode\":\"Filesystem\"},"
	  "\"status\":{\"phase\":\"Bound\"}}",
	  zone, (unsigned)n, n, teams[team], (unsigned)n, zone);
	begin_item(g);
	emit(g, buf);
	end_item(g);
	snprintf(buf, sizeof buf,
	  "{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"data-%d\",\"namespace\":\"%s\"},"
	  "\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],\"resources\":{\"requests\":{\"storage\":\"10Gi\"}},"
	  "\"storageClassName\":\"gp3\",\"volumeMode\":\"Filesystem\",\"volumeName\":\"pvc-%08x-5555-4000-8000-000000000000\"},"
	  "\"status\":{\"accessModes\":[\"ReadWriteOnce\"],\"capacity\":{\"storage\":\"10Gi\"},\"phase\":\"Bound\"}}",
	  n, teams[team], (unsigned)n);
	begin_item(g);
	emit(g, buf);
	end_item(g);
}

static void pod(gen *g, int n, int node_i, int slot, int pending)
{
	char buf[16384];
	int team = pick(g, 8);
	int cls = 2 + pick(g, 5);                    /* user classes */
	if (pick(g, 50) == 0) cls = pick(g, 2);       /* a few system pods */
	int cpu = 100 * (1 + pick(g, 8));             /* 100m..800m */
	if (pending && g->big_pending) {              /* pending pods that must preempt */
		cls = 2 + pick(g, 2);                 /* critical or high */
		cpu = 1000 * (4 + pick(g, 8));        /* 4..11 cores */
	}
	int mem = 128 * (1 + pick(g, 8));             /* Mi */
	int day = 1 + n % 24;
	if (pending && g->big_pending && g->workloads)
		workload_shape(g, pending - 1, &cls, &cpu, &mem, &day);
	int rs = n / 3;
	char nodefield[64] = "", status[4096], claim[128] = "", name[96], gpuclaim[160] = "", gpures[40] = "";
	snprintf(name, sizeof name, "%s-app-%d-%08x", teams[team], rs % 500, (unsigned)n);
	int gpu = g->gpus > 0 && (pending || slot < g->gpus);
	if (gpu) {
		snprintf(gpuclaim, sizeof gpuclaim, ",\"resourceClaims\":[{\"name\":\"gpu\",\"resourceClaimName\":\"%s-gpu\"}]", name);
		snprintf(gpures, sizeof gpures, "\"claims\":[{\"name\":\"gpu\"}],");
	}
	if (g->claims)
		snprintf(claim, sizeof claim, "{\"name\":\"data\",\"persistentVolumeClaim\":{\"claimName\":\"data-%d\"}},", n);
	if (!pending)
		snprintf(nodefield, sizeof nodefield, ",\"nodeName\":\"node-%05d\"", node_i);
	if (pending)
		snprintf(status, sizeof status,
		  "{\"conditions\":[{\"lastProbeTime\":null,\"lastTransitionTime\":\"2026-11-25T09:00:00Z\",\"message\":\"0/5000 nodes are available: 5000 Insufficient cpu.\","
		  "\"reason\":\"Unschedulable\",\"status\":\"False\",\"type\":\"PodScheduled\"}],\"phase\":\"Pending\",\"qosClass\":\"Burstable\"}");
	else
		snprintf(status, sizeof status,
		  "{\"conditions\":[{\"lastProbeTime\":null,\"lastTransitionTime\":\"2026-11-%02dT08:00:00Z\",\"status\":\"True\",\"type\":\"Initialized\"},"
		  "{\"lastProbeTime\":null,\"lastTransitionTime\":\"2026-11-%02dT08:00:05Z\",\"status\":\"True\",\"type\":\"Ready\"},"
		  "{\"lastProbeTime\":null,\"lastTransitionTime\":\"2026-11-%02dT08:00:05Z\",\"status\":\"True\",\"type\":\"ContainersReady\"},"
		  "{\"lastProbeTime\":null,\"lastTransitionTime\":\"2026-11-%02dT08:00:00Z\",\"status\":\"True\",\"type\":\"PodScheduled\"}],"
		  "\"containerStatuses\":[{\"containerID\":\"containerd://%016" PRIx64 "\",\"image\":\"registry.example.com/%s/app:v1.%d\","
		  "\"imageID\":\"registry.example.com/%s/app@sha256:%016" PRIx64 "%016" PRIx64 "\",\"lastState\":{},\"name\":\"app\",\"ready\":true,"
		  "\"restartCount\":%d,\"started\":true,\"state\":{\"running\":{\"startedAt\":\"2026-11-%02dT08:00:03Z\"}}}],"
		  "\"hostIP\":\"10.0.%d.%d\",\"phase\":\"Running\",\"podIP\":\"10.%d.%d.%d\",\"podIPs\":[{\"ip\":\"10.%d.%d.%d\"}],"
		  "\"qosClass\":\"Burstable\",\"startTime\":\"2026-11-%02dT08:%02d:%02dZ\"}",
		  1 + n % 24, 1 + n % 24, 1 + n % 24, 1 + n % 24, next(g), teams[team], n % 40, teams[team], next(g), next(g),
		  pick(g, 3), 1 + n % 24, node_i / 256, node_i % 256, node_i / 256, node_i % 256, n % 250,
		  node_i / 256, node_i % 256, n % 250, 1 + n % 24, pick(g, 60), pick(g, 60));
	snprintf(buf, sizeof buf,
	  "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"annotations\":{\"kubectl.kubernetes.io/restartedAt\":\"2026-11-01T00:00:00Z\","
	  "\"prometheus.io/scrape\":\"true\"},\"creationTimestamp\":\"2026-11-%02dT08:00:00Z\",\"generateName\":\"%s-app-%d-\","
	  "\"labels\":{\"app\":\"%s-app-%d\",\"team\":\"%s\",\"pod-template-hash\":\"%08x\",\"tier\":\"%s\"},"
	  "\"managedFields\":[{\"apiVersion\":\"v1\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:metadata\":{\"f:generateName\":{},"
	  "\"f:labels\":{\".\":{},\"f:app\":{},\"f:pod-template-hash\":{},\"f:team\":{}},\"f:ownerReferences\":{\".\":{},"
	  "\"k:{\\\"uid\\\":\\\"%08x-1111-4000-8000-000000000000\\\"}\":{}}},\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"app\\\"}\":{\".\":{},"
	  "\"f:image\":{},\"f:name\":{},\"f:resources\":{\".\":{},\"f:limits\":{},\"f:requests\":{}}}},\"f:priorityClassName\":{}}},"
	  "\"manager\":\"kube-controller-manager\",\"operation\":\"Update\",\"time\":\"2026-11-%02dT08:00:00Z\"}],"
	  "\"name\":\"%s-app-%d-%08x\",\"namespace\":\"%s\",\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"blockOwnerDeletion\":true,"
	  "\"controller\":true,\"kind\":\"ReplicaSet\",\"name\":\"%s-app-%d-%08x\",\"uid\":\"%08x-1111-4000-8000-000000000000\"}],"
	  "\"resourceVersion\":\"%d\",\"uid\":\"%08x-2222-4000-8000-%012x\"},"
	  "\"spec\":{\"containers\":[{\"env\":[{\"name\":\"TEAM\",\"value\":\"%s\"},{\"name\":\"LOG_LEVEL\",\"value\":\"info\"}],"
	  "\"image\":\"registry.example.com/%s/app:v1.%d\",\"imagePullPolicy\":\"IfNotPresent\",\"name\":\"app\","
	  "\"ports\":[{\"containerPort\":8080,\"name\":\"http\",\"protocol\":\"TCP\"}],"
	  "\"resources\":{%s\"limits\":{\"cpu\":\"%dm\",\"memory\":\"%dMi\"},\"requests\":{\"cpu\":\"%dm\",\"memory\":\"%dMi\"}},"
	  "\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":\"File\","
	  "\"volumeMounts\":[{\"mountPath\":\"/var/run/secrets/kubernetes.io/serviceaccount\",\"name\":\"kube-api-access\",\"readOnly\":true}]}],"
	  "\"dnsPolicy\":\"ClusterFirst\",\"enableServiceLinks\":true%s,\"preemptionPolicy\":\"%s\",\"priority\":%d,\"priorityClassName\":\"%s\"%s,"
	  "\"restartPolicy\":\"Always\",\"schedulerName\":\"default-scheduler\",\"securityContext\":{},\"serviceAccount\":\"default\","
	  "\"serviceAccountName\":\"default\",\"terminationGracePeriodSeconds\":30,"
	  "\"tolerations\":[{\"effect\":\"NoExecute\",\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\",\"tolerationSeconds\":300},"
	  "{\"effect\":\"NoExecute\",\"key\":\"node.kubernetes.io/unreachable\",\"operator\":\"Exists\",\"tolerationSeconds\":300}],"
	  "\"volumes\":[%s{\"name\":\"kube-api-access\",\"projected\":{\"defaultMode\":420,\"sources\":[{\"serviceAccountToken\":{\"expirationSeconds\":3607,"
	  "\"path\":\"token\"}},{\"configMap\":{\"items\":[{\"key\":\"ca.crt\",\"path\":\"ca.crt\"}],\"name\":\"kube-root-ca.crt\"}}]}}]},"
	  "\"status\":%s}",
	  day, teams[team], rs % 500, teams[team], rs % 500, teams[team], (unsigned)rs, team % 2 ? "backend" : "frontend",
	  (unsigned)rs, 1 + n % 24, teams[team], rs % 500, (unsigned)n, teams[team], teams[team], rs % 500, (unsigned)rs, (unsigned)rs,
	  100000 + n, (unsigned)n, n,
	  teams[team], teams[team], n % 40, gpures, cpu * 2, mem * 2, cpu, mem, nodefield, classes[cls].policy, classes[cls].value,
	  classes[cls].name, gpuclaim, claim, status);
	if (gpu)
		gpu_claim(g, n, team, node_i, pending ? -1 : slot, name, (unsigned)n);
	if (g->claims)
		claim_objects(g, n, team, zones[pending ? (pending - 1) % 3 : node_i % 3]);
	begin_item(g);
	emit(g, buf);
	end_item(g);
}

static void pdb(gen *g, int i)
{
	char buf[2048];
	snprintf(buf, sizeof buf,
	  "{\"apiVersion\":\"policy/v1\",\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"creationTimestamp\":\"2026-01-01T00:00:00Z\","
	  "\"generation\":1,\"name\":\"%s-app-%d\",\"namespace\":\"%s\",\"resourceVersion\":\"%d\",\"uid\":\"%08x-3333-4000-8000-000000000000\"},"
	  "\"spec\":{\"minAvailable\":2,\"selector\":{\"matchLabels\":{\"app\":\"%s-app-%d\"}}},"
	  "\"status\":{\"currentHealthy\":3,\"desiredHealthy\":2,\"disruptionsAllowed\":%d,\"expectedPods\":3,\"observedGeneration\":1}}",
	  teams[i % 8], i, teams[i % 8], 500 + i, (unsigned)i, teams[i % 8], i, pick(g, 2));
	begin_item(g);
	emit(g, buf);
	end_item(g);
}

static void pclass(gen *g, int i)
{
	char buf[1024];
	snprintf(buf, sizeof buf,
	  "{\"apiVersion\":\"scheduling.k8s.io/v1\",\"description\":\"generated\",\"globalDefault\":%s,\"kind\":\"PriorityClass\","
	  "\"metadata\":{\"name\":\"%s\",\"uid\":\"%08x-4444-4000-8000-000000000000\"},\"preemptionPolicy\":\"%s\",\"value\":%d}",
	  classes[i].def ? "true" : "false", classes[i].name, (unsigned)i, classes[i].policy, classes[i].value);
	begin_item(g);
	emit(g, buf);
	end_item(g);
}

int main(int argc, char **argv)
{
	gen g = { .out = stdout, .rng = 0x9E3779B97F4A7C15ull, .first_item = 1 };
	int nodes = 5000, per_node = 30, pending = 20, c;

	while ((c = getopt(argc, argv, "bcg:nN:P:p:s:w:")) != -1) {
		switch (c) {
		case 'b': g.big_pending = 1; break;
		case 'c': g.claims = 1; break;
		case 'g': g.gpus = atoi(optarg); break;
		case 'n': g.ndjson = 1; break;
		case 'N': nodes = atoi(optarg); break;
		case 'P': per_node = atoi(optarg); break;
		case 'p': pending = atoi(optarg); break;
		case 's': g.rng ^= strtoull(optarg, NULL, 10) * 0x100000001B3ull; break;
		case 'w': g.workloads = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: gen-snapshot [-b] [-c] [-g gpus] [-n] [-N nodes] [-P pods-per-node] [-p pending] [-s seed] [-w workloads]\n");
			return 2;
		}
	}
	static char iobuf[1 << 20];
	setvbuf(stdout, iobuf, _IOFBF, sizeof iobuf);
	if (!g.ndjson) {
		fputs("{\n    \"apiVersion\": \"v1\",\n    \"items\": [", stdout);
		g.depth = 2;
		fputs("\n        ", stdout);
	}
	for (int i = 0; i < (int)(sizeof classes / sizeof classes[0]); i++)
		if (i >= 2) pclass(&g, i);
	if (g.claims) {
		begin_item(&g);
		emit(&g, "{\"allowVolumeExpansion\":true,\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"StorageClass\","
		         "\"metadata\":{\"name\":\"gp3\"},\"provisioner\":\"ebs.csi.aws.com\",\"reclaimPolicy\":\"Delete\","
		         "\"volumeBindingMode\":\"WaitForFirstConsumer\"}");
		end_item(&g);
	}
	if (g.gpus > 0) {
		begin_item(&g);
		emit(&g, "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":{\"name\":\"gpu.example.com\"},"
		         "\"spec\":{\"selectors\":[{\"cel\":{\"expression\":\"device.driver == 'gpu.example.com'\"}}]}}");
		end_item(&g);
	}
	for (int i = 0; i < nodes; i++)
		node(&g, i);
	for (int i = 0; i < nodes && g.gpus > 0; i++)
		gpu_slice(&g, i);
	int n = 0;
	for (int i = 0; i < nodes; i++)
		for (int k = 0; k < per_node; k++)
			pod(&g, n++, i, k, 0);
	g.pending = pending;
	for (int i = 0; i < pending; i++)
		pod(&g, n++, 0, -1, 1 + i);
	for (int i = 0; i < 500; i++)
		pdb(&g, i);
	if (!g.ndjson)
		fputs("\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n", stdout);
	return fflush(stdout) == 0 ? 0 : 1;
}
