/* Feature gates: one registry for every tool, one default per gate, and
 * the --feature-gates "A=true,B=false" syntax as Kubernetes' component-base
 * parses it (comma-separated Name=value pairs, values as Go's
 * strconv.ParseBool, the same error texts, AllAlpha/AllBeta with an
 * explicitly named gate winning over them whatever the order). */
#ifndef PK_GATES_H
#define PK_GATES_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
	PK_GATE_GENERIC_WORKLOAD,
	PK_GATE_WORKLOAD_AWARE_PREEMPTION,
	PK_GATE_TOPOLOGY_AWARE_WORKLOAD_SCHEDULING,
	PK_GATE_DRA_WORKLOAD_RESOURCE_CLAIMS,
	PK_GATE_POD_GROUP_PREEMPTION_POLICY,
	PK_GATE_COMPOSITE_POD_GROUP,
	PK_GATE_SCHEDULER_ASYNC_PREEMPTION,
	PK_GATE_SCHEDULER_ASYNC_API_CALLS,
	PK_GATE_PROPAGATION_POLICY_PREEMPTION,
	PK_GATE_IN_PLACE_RESIZE_SCHEDULER_PREEMPTION,
	/* the apiserver's DRA gates that guard fields pc-validate validates */
	PK_GATE_DRA_PRIORITIZED_LIST,
	PK_GATE_DRA_ADMIN_ACCESS,
	PK_GATE_DRA_DEVICE_TAINTS,
	PK_GATE_DRA_DEVICE_TAINT_RULES,
	PK_GATE_DRA_CONSUMABLE_CAPACITY,
	PK_GATE_DRA_EXTENDED_RESOURCE,
	PK_GATE_DRA_DERIVED_ATTRIBUTES,
	PK_GATE_DRA_PARTITIONABLE_DEVICES,
	/* KEP-5517: a device's node-allocatable footprint counts in NodeResourcesFit's sums */
	PK_GATE_DRA_NODE_ALLOCATABLE_RESOURCES,
	PK_GATE_VOLUME_LIMIT_SCALING,
	PK_NGATES
} pk_gate_id;

typedef enum { PK_GATE_ALPHA, PK_GATE_BETA, PK_GATE_GA } pk_gate_stage;

/* The Kubernetes releases modelled, as 1.<minor>. Every answer is for one of
 * them (--kubernetes-version; the newest by default): the gates that exist
 * and their defaults, the API versions served and the preemption behaviours
 * that changed upstream all depend on it. */
#define PK_K8S_MINOR_OLDEST 35
#define PK_K8S_MINOR_NEWEST 37
#define PK_K8S_NRELEASES (PK_K8S_MINOR_NEWEST - PK_K8S_MINOR_OLDEST + 1)

/* A gate in one release, as upstream's versioned feature specs say. */
typedef struct pk_gate_release {
	bool exists;
	pk_gate_stage stage;
	bool upstream_default;
	bool locked;              /* LockToDefault: naming another value is an error */
} pk_gate_release;

/* What the README's and the man pages' gate tables say about one gate. */
typedef struct pk_gate_info {
	const char *name;
	const char *component;    /* "kube-apiserver, kube-scheduler", "karmada" */
	pk_gate_release at[PK_K8S_NRELEASES];  /* index: minor - PK_K8S_MINOR_OLDEST */
	bool our_default;         /* in every release where the gate exists */
	const char *tools;        /* the tools whose answer it changes */
	const char *why;          /* why our default differs; NULL where it does not */
	/* our default is upstream's of each release (our_default unused): a
	 * gate whose default changes between releases, where no reason to
	 * differ holds (the DRA gates) */
	bool follows_upstream;
} pk_gate_info;

/* A gate upstream removed: naming it for that release or a later one is an
 * error, as the component would not start. Where the feature lives on under
 * another gate (instead), that gate's value answers for it. */
typedef struct pk_gate_removal {
	const char *name;
	int minor;                /* the first release without it */
	const char *by;           /* the upstream change, "kubernetes/kubernetes#139520" */
	const char *instead;      /* the gate that switches the feature now, or NULL */
} pk_gate_removal;

/* The registry, indexed by pk_gate_id (constant data). */
const pk_gate_info *pk_gate_info_of(pk_gate_id id);
/* The gate in release 1.<minor> (minor within the modelled range). */
const pk_gate_release *pk_gate_at(pk_gate_id id, int minor);
/* Our default in release 1.<minor>: our_default, or upstream's there. */
bool pk_gate_our_default(pk_gate_id id, int minor);
/* The removal of a gate by name, or NULL when upstream has not removed it. */
const pk_gate_removal *pk_gate_removal_of(const char *name);
/* PK_NGATES when name is not a gate. */
pk_gate_id pk_gate_lookup(const char *name);

/* A bit per gate, for the set of gates a tool reads. */
#define PK_GATE_BIT(id) (1u << (id))

#define PK_GATES_MAX_IGNORED 16

typedef struct pk_feature_gates {
	bool on[PK_NGATES];
	signed char explicit_value[PK_NGATES];  /* -1 unset, else 0/1 as given */
	signed char all_alpha, all_beta;        /* -1 unset */
	/* Gates of the cluster that no tool here models (Failover, say): they
	 * cannot change an answer, so they are accepted and listed, to be said. */
	char ignored[PK_GATES_MAX_IGNORED][64];
	int nignored;
	int k8s_minor;  /* the release answered for: Kubernetes 1.<k8s_minor> */
} pk_feature_gates;

/* Every gate at our default. */
void pk_feature_gates_default(pk_feature_gates *g);
/* One --feature-gates value on top of what g holds (the flag repeats and
 * accumulates). Returns 0, or -1 with upstream's message in err. A name
 * that is not in the registry is a typo when it is near one that is (an
 * error that suggests it); otherwise a gate we do not model, accepted
 * and listed in g->ignored (upstream's component would know it). */
int pk_feature_gates_parse(pk_feature_gates *g, const char *spec, char *err, size_t errsize);
/* Answer for Kubernetes 1.<minor> (within the modelled range): the gates
 * are resolved again with that release's stages and defaults. */
void pk_feature_gates_set_release(pk_feature_gates *g, int minor);
/* Once every option is read (the release may come after --feature-gates):
 * 0, or -1 with a message in err when a gate named does not exist in the
 * release answered for (not yet, or removed upstream, and by what), or is
 * locked to its default there and named with the other value. */
int pk_feature_gates_check_release(const pk_feature_gates *g, char *err, size_t errsize);

/* "1.37", "v1.37", "1.37.2", "v1.37.2-gke.100" -> 37. Returns false when s
 * is not of that form or names a release not modelled. */
bool pk_k8s_version_parse(const char *s, int *minor);
/* "1.35, 1.36, 1.37": the releases modelled, for messages. */
const char *pk_k8s_versions_supported(void);
/* The field of every record that names the release answered for, and its
 * value: "1.<minor>" (a resolved release: the release profile's minor). One spelling for the
 * cJSON records (pk_cli_add_k8s_version) and the text ones (pk_emit). */
#define PK_K8S_VERSION_KEY "kubernetesVersion"
const char *pk_k8s_version_text(int minor, char *buf, size_t size);
/* Adds "kubernetesVersion":"1.<minor>" to a record (a cJSON object). */
struct cJSON;
void pk_k8s_add_version(struct cJSON *record, int minor);

static inline bool pk_gate_on(const pk_feature_gates *g, pk_gate_id id)
{
	return g->on[id];
}

/* strconv.ParseBool: 1 t T TRUE true True / 0 f F FALSE false False. */
bool pk_parse_go_bool(const char *s, bool *out);

#endif
